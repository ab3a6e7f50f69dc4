import ChartModel
import Drawing
import Gestures

/// Charts and cards: the mini-map window and its handles, the plot's indicator, the
/// legend's check marks.
struct ChartBehaviour: Behaviour {
  func grab(_ node: Node, at local: Point, chain: [(Node, Point)], _ i: Interaction) -> Grab? {
    guard case .chart = node.kind else { return nil }
    return ChartGrab.make(node, full: false, frame: node.contentFrame, at: local, i)
  }
}

/// A part of a chart a press can hold.
enum ChartPart: Equatable { case window, left, right, plot, legend(String), poster, zoomOut }

/// A press on a chart part. The window it started from is kept so a drag moves it by the
/// pointer's distance.
final class ChartGrab: Grab {
  let node: Node
  let part: ChartPart
  /// The area the chart is drawn in (its content frame, or a modal sheet).
  let frame: Rect
  let start: TimeWindow
  unowned let i: Interaction

  init(node: Node, part: ChartPart, frame: Rect, start: TimeWindow, _ i: Interaction) {
    self.node = node; self.part = part; self.frame = frame; self.start = start; self.i = i
  }

  /// The grab of a press at `q` on `node` drawn in `frame` (full: with every part, as in a
  /// modal sheet); nil when the press is on no part.
  static func make(_ node: Node, full: Bool, frame: Rect, at q: Point, _ i: Interaction) -> ChartGrab? {
    guard let part = part(node, full: full, frame: frame, at: q, i), let spec = node.chart else { return nil }
    return ChartGrab(node: node, part: part, frame: frame, start: i.p.window(spec.data, at: i.now), i)
  }

  static func part(_ n: Node, full: Bool, frame: Rect, at q: Point, _ i: Interaction) -> ChartPart? {
    guard let chart = n.chart else { return nil }
    let spec = full ? chart.full : chart
    let parts = ChartParts.make(spec: spec, card: !full && { if case .card = n.kind { return true }; return false }(), frame: frame,
                                measurer: i.measurer, window: i.p.window(spec.data, at: i.now))
    for chip in parts.legend where chip.frame.contains(q) { return .legend(chip.id) }
    if let zoomPart = i.zoomPart(spec, parts, frame: frame, key: ChartKey(n.identity), at: q) { return zoomPart }
    if let mm = parts.minimap, mm.contains(q), let w = parts.minimapWindow {
      if let l = parts.minimapLeft, l.inset(by: -6).contains(q) { return .left }
      if let r = parts.minimapRight, r.inset(by: -6).contains(q) { return .right }
      if w.contains(q) { return .window }
      return q.x < w.minX ? .left : .right
    }
    // `indicator = false` allows no crosshair: the plot takes no press, which goes to the
    // views around the chart (a card opened full size always has one).
    if parts.plot.contains(q), spec.indicator { return .plot }
    return nil
  }

  var name: String {
    switch part {
    case .window: return node.id + ".minimap.window"
    case .left: return node.id + ".minimap.left"
    case .right: return node.id + ".minimap.right"
    case .plot: return node.id + ".plot"
    case .legend(let id): return node.id + ".legend." + id
    case .poster: return node.id + ".poster"
    case .zoomOut: return node.id + ".zoomOut"
    }
  }

  var yieldsToScroll: Bool { part == .plot }

  /// The mini-map window moves with a drag inside it; a drag on a handle or the dimmed part
  /// moves that edge; the window keeps a minimum width and sticks to the ends. Panning the
  /// plot moves the indicator (snapped to points); a tap on a chip toggles its line, a
  /// long press shows only that line.
  func handle(_ g: Gesture) {
    guard var spec = node.chart else { return }
    let p = i.p, now = i.now
    let set = spec.data
    let full: Bool = { if case .card = node.kind { return true }; return false }()
    let s2 = full ? spec.full : spec
    let parts = ChartParts.make(spec: s2, card: false, frame: frame, measurer: i.measurer, window: p.window(set, at: now))
    // The poster zooms into its day, "Zoom Out" returns, a tap on a pie pulls a slice out
    // (ZoomGestures.swift).
    if i.zoomGesture(node, part, spec: spec, parts: parts, full: full, g) { return }
    switch (part, g) {
    case (.window, .dragChanged(let a, let b)), (.window, .heldDragChanged(let a, let b)),
      (.left, .dragChanged(let a, let b)), (.left, .heldDragChanged(let a, let b)),
      (.right, .dragChanged(let a, let b)), (.right, .heldDragChanged(let a, let b)):
      guard let mm = parts.minimap, mm.width > 0 else { return }
      let dx = (b.x - a.x) / mm.width
      let magnet = 0.015
      var lo = start.lo, hi = start.hi
      switch part {
      case .window:
        let width = start.width
        lo = max(0, min(1 - width, start.lo + dx))
        if lo < magnet { lo = 0 }
        if lo > 1 - width - magnet { lo = 1 - width }
        hi = lo + width
      case .left:
        lo = max(0, min(start.hi - set.minimumWindowWidth, start.lo + dx))
        if lo < magnet { lo = 0 }
      default:
        hi = min(1, max(start.lo + set.minimumWindowWidth, start.hi + dx))
        if hi > 1 - magnet { hi = 1 }
      }
      p.setRange(set, lo, hi, .immediate)
    case (.plot, .tap(let q)), (.plot, .dragBegan(let q)), (.plot, .dragChanged(_, let q)), (.plot, .longPressBegan(let q)),
      (.plot, .heldDragChanged(_, let q)):
      let plot = parts.plot
      guard plot.width > 0, set.count > 0 else { return }
      let w = p.window(set, at: now)
      // The time under the finger on the axis the plot draws (bars: half a column padded).
      let (from, to) = ChartGeometry.times(set: set, style: spec.style, window: w)
      let k = set.nearestIndex(toTime: from + max(0, min(1, (q.x - plot.x) / plot.width)) * (to - from))
      spec.indicatorAt = set.fraction(atTime: set.xs[k])
      node.kind = full ? .card(spec) : .chart(spec)
    case (.legend(let id), .tap):
      p.setHidden(set, id, !set.isHidden(id))
    case (.legend(let id), .longPressBegan):
      for line in set.lines { p.setHidden(set, line.id, line.id != id) }
    default: break
    }
  }
}
