import Drawing

/// Places every node of a scene. The model is SwiftUI's in a simpler form: text and views
/// with a fixed `frame` have a natural size; charts, cards, canvases and spacers are
/// flexible and share what is left along a stack's axis equally.
public struct Layout {
  public let measurer: TextMeasurer
  /// The animated state and the time laid out (scroll offsets, card depths, ...).
  var presentation: Presentation?
  var t = 0.0
  /// Answers already computed in this pass (set by `layout`): without them a stack asks its
  /// subtree the same questions once per level above it, and deep or wide trees take
  /// quadratic (or worse) time.
  var memo: LayoutMemo?
  public init(measurer: TextMeasurer) { self.measurer = measurer }

  /// Lays out the scene as it is drawn at time t. Throws the first error of a script's
  /// `layout` function (a `cs.view`).
  public func layout(_ scene: Scene, at t: Double = 0) throws {
    var l = self
    l.presentation = scene.presentation
    l.t = t
    let memo = LayoutMemo()
    l.memo = memo
    l.place(scene.root, in: Rect(0, 0, scene.width, scene.height))
    if let f = memo.failure { throw f }
  }

  /// True when the node grows to fill the space offered along an axis.
  public func isFlexible(_ n: Node, horizontal: Bool) -> Bool {
    guard let memo else { return computeFlexible(n, horizontal: horizontal) }
    let key = LayoutMemo.Key(node: ObjectIdentifier(n), horizontal: horizontal)
    if let known = memo.flexible[key] { return known }
    let answer = computeFlexible(n, horizontal: horizontal)
    memo.flexible[key] = answer
    return answer
  }

  func computeFlexible(_ n: Node, horizontal: Bool) -> Bool {
    if (horizontal ? n.style.width : n.style.height) != nil { return false }
    switch n.kind {
    case .chart, .card, .canvas, .spacer, .view: return true
    case .text: return false
    case .stack: return n.children.contains { isFlexible($0, horizontal: horizontal) }
    }
  }

  /// The size a node takes when it is not flexible, for an offered size.
  public func naturalSize(_ n: Node, offered: Size) -> Size {
    guard let memo else { return computeNaturalSize(n, offered: offered) }
    let key = LayoutMemo.SizeKey(node: ObjectIdentifier(n), width: offered.width, height: offered.height)
    if let known = memo.natural[key] { return known }
    let answer = computeNaturalSize(n, offered: offered)
    memo.natural[key] = answer
    return answer
  }

  func computeNaturalSize(_ n: Node, offered: Size) -> Size {
    let p = n.style.padding
    let inner = Size(max(0, offered.width - p.left - p.right), max(0, offered.height - p.top - p.bottom))
    var content: Size
    switch n.kind {
    case .text(let t):
      content = measurer.measure(t.text, font: Font(size: t.size, weight: t.weight))
      content.width = min(content.width, inner.width)
    case .spacer(let minLength): content = Size(minLength, minLength)
    case .chart, .card, .canvas, .view: content = inner
    case .stack(let axis, let spacing, _):
      let sizes = n.children.map { naturalSize($0, offered: inner) }
      let gaps = spacing * Double(max(0, n.children.count - 1))
      switch axis {
      case .vertical: content = Size(sizes.map(\.width).max() ?? 0, sizes.map(\.height).reduce(0, +) + gaps)
      case .horizontal: content = Size(sizes.map(\.width).reduce(0, +) + gaps, sizes.map(\.height).max() ?? 0)
      case .depth: content = Size(sizes.map(\.width).max() ?? 0, sizes.map(\.height).max() ?? 0)
      }
    }
    var s = Size(content.width + p.left + p.right, content.height + p.top + p.bottom)
    if let w = n.style.width { s.width = w }
    if let h = n.style.height { s.height = h }
    if isFlexible(n, horizontal: true) { s.width = offered.width }
    if isFlexible(n, horizontal: false) { s.height = offered.height }
    return s
  }

  /// Sets `frame` on `n` and its subtree.
  public func place(_ n: Node, in rect: Rect) {
    n.frame = rect.bounded
    let inner = n.contentFrame
    switch n.kind {
    case .view(let spec): placeView(n, spec, inner); return
    default: break
    }
    guard case .stack(let axis, let spacing, let align) = n.kind else { return }
    switch axis {
    case .depth:
      for c in n.children {
        let s = naturalSize(c, offered: inner.size)
        place(c, in: aligned(s, in: inner, align: align, vertical: nil))
      }
    case .vertical, .horizontal:
      let horizontal = axis == .horizontal
      let length = horizontal ? inner.width : inner.height
      let gaps = spacing * Double(max(0, n.children.count - 1))
      var sizes = n.children.map { naturalSize($0, offered: inner.size) }
      let flexible = n.children.map { isFlexible($0, horizontal: horizontal) }
      let fixedTotal = zip(sizes, flexible).filter { !$0.1 }.map { horizontal ? $0.0.width : $0.0.height }.reduce(0, +)
      let flexCount = flexible.filter { $0 }.count
      let remaining = max(0, length - gaps - fixedTotal)
      // Spacers ask for their minimum length first; the rest is shared equally.
      let share = flexCount > 0 ? remaining / Double(flexCount) : 0
      for k in sizes.indices where flexible[k] {
        var along = share
        if case .spacer(let minLength) = n.children[k].kind { along = max(along, minLength) }
        if horizontal { sizes[k].width = along } else { sizes[k].height = along }
      }
      var pos = horizontal ? inner.x : inner.y
      for (k, c) in n.children.enumerated() {
        var s = sizes[k]
        if case .spacer = c.kind {
          // Spacers take no room across the axis.
          if horizontal { s.height = 0 } else { s.width = 0 }
        }
        let r: Rect
        if horizontal {
          let cross = aligned(Size(s.width, min(s.height, inner.height)), in: inner, align: align, vertical: true)
          r = Rect(pos, cross.y, s.width, cross.height)
          pos += s.width + spacing
        } else {
          let cross = aligned(Size(min(s.width, inner.width), s.height), in: inner, align: align, vertical: false)
          r = Rect(cross.x, pos, cross.width, s.height)
          pos += s.height + spacing
        }
        place(c, in: r)
      }
    }
  }

  /// Positions a size inside a rect. `vertical` = nil aligns on both axes (zstack).
  func aligned(_ s: Size, in r: Rect, align: Alignment, vertical: Bool?) -> Rect {
    let w = min(s.width, r.width), h = min(s.height, r.height)
    var x = r.x + (r.width - w) / 2, y = r.y + (r.height - h) / 2
    switch align {
    case .leading: x = r.x
    case .trailing: x = r.maxX - w
    case .top: y = r.y
    case .bottom: y = r.maxY - h
    case .center: break
    }
    if vertical == true { x = r.x } else if vertical == false { y = r.y }
    if vertical == true, align == .leading || align == .trailing { y = r.y + (r.height - h) / 2 }
    if vertical == false, align == .top || align == .bottom { x = r.x + (r.width - w) / 2 }
    return Rect(x, y, w, h)
  }
}

/// What one layout pass has worked out about nodes (the tree does not change during a pass).
final class LayoutMemo {
  struct Key: Hashable { var node: ObjectIdentifier; var horizontal: Bool }
  struct SizeKey: Hashable { var node: ObjectIdentifier; var width: Double; var height: Double }
  var flexible: [Key: Bool] = [:]
  var natural: [SizeKey: Size] = [:]
  /// The first error of a script's layout function in this pass.
  var failure: Error?
}
