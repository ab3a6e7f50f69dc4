import ChartModel
import Glibc
import Drawing
import Motion

// Zooming into a day (round 2): the animation state, the pie's layout, and what a tap on
// the poster or on "Zoom Out" does. The drawing is in Render/ZoomBuilder.swift.

extension Presentation {
  static func zoomKey(_ set: ChartSet) -> NumberKey { .zoom(set: ObjectIdentifier(set)) }
  static let zoomTransition = Transition(duration: 0.4, curve: .easeInOut)

  /// Zooms a set into a day (its detail file, or a pie when `pie`): the overview's window
  /// narrows to the day while the detail crossfades in (0.4 s; at once while the script is
  /// evaluated).
  public func zoom(_ set: ChartSet, day: String, pie: Bool, _ explicit: Transition? = nil) throws(DataError) {
    if set.zoom != nil { zoomOut(set, .immediate) }
    try set.zoomIn(day: day, pie: pie)
    savedWindows[ObjectIdentifier(set)] = TimeWindow(set.window.lo, set.window.hi)
    let tr = transition(explicit ?? Presentation.zoomTransition)
    if let i = set.zoom?.index, set.count > 1, !pie {
      let f = set.fraction(atTime: set.xs[i])
      let half = set.typicalStepMs / max(1, set.spanMs)
      setRange(set, f - half, f + half, tr)
    }
    leaving[ObjectIdentifier(set)] = nil
    setNumber(Presentation.zoomKey(set), 1, initial: 0, tr)
    if tr.duration <= 0 { setNumber(Presentation.zoomKey(set), 1, initial: 1, .immediate) }
  }

  /// Back to the overview and the window it had, animated like the zoom.
  public func zoomOut(_ set: ChartSet, _ explicit: Transition? = nil) {
    guard let z = set.zoom else { return }
    let tr = transition(explicit ?? Presentation.zoomTransition)
    set.zoomOut()
    leaving[ObjectIdentifier(set)] = z
    if let w = savedWindows[ObjectIdentifier(set)] { setRange(set, w.lo, w.hi, tr) }
    setNumber(Presentation.zoomKey(set), 0, initial: 1, tr)
    if tr.duration <= 0 { setNumber(Presentation.zoomKey(set), 0, initial: 0, .immediate) }
  }

  /// How far the zoom has got at t: 1 zoomed in, 0 out.
  public func zoomProgress(_ set: ChartSet, at t: Double) -> Double {
    max(0, min(1, number(Presentation.zoomKey(set), initial: set.zoom == nil ? 0 : 1, at: t)))
  }

  /// The zoom being left (drawn while it fades out), until the animation ends.
  public func leavingZoom(_ set: ChartSet, at t: Double) -> DayZoom? {
    guard let z = leaving[ObjectIdentifier(set)], zoomProgress(set, at: t) > 0.0001 else { return nil }
    return z
  }
}

/// A pie of one day's shares, filling the plot: slices clockwise from the top in line order.
public struct PieLayout: Sendable {
  public struct Slice: Sendable {
    public var id: String
    public var share: Double
    public var start: Double
    public var end: Double
  }
  public var center: Point
  public var radius: Double
  public var slices: [Slice]

  public static func make(set: ChartSet, index i: Int, plot: Rect, alpha: [String: Double]) -> PieLayout {
    let weights = set.lines.map { max(0, min(1, alpha[$0.id] ?? (set.isHidden($0.id) ? 0 : 1))) }
    let shares = Stacking.shares(set.lines, weights: weights, at: i)
    var a = -Double.pi / 2
    var slices: [Slice] = []
    for (k, line) in set.lines.enumerated() where weights[k] > 0.001 {
      let sweep = shares[k] / 100 * 2 * Double.pi
      slices.append(Slice(id: line.id, share: shares[k], start: a, end: a + sweep))
      a += sweep
    }
    let r = max(10, min(plot.width, plot.height) / 2 - 16)
    return PieLayout(center: plot.center, radius: r, slices: slices)
  }

  /// The slice under a point, if any.
  public func slice(at q: Point) -> Slice? {
    let dx = q.x - center.x, dy = q.y - center.y
    guard dx * dx + dy * dy <= radius * radius else { return nil }
    var ang = atan2(dy, dx)
    while ang < -Double.pi / 2 { ang += 2 * Double.pi }
    return slices.first { ang >= $0.start && ang < $0.end }
  }
}

/// The share labels of a pie: inside a slice, in a size that scales with the pie, where the
/// whole text fits in the slice; else outside with a leader line where it fits the plot
/// beside the others; else none. Shared by the renderer, `--inspect` and lint.
public struct PieLabel: Sendable, Equatable {
  public var id: String
  public var text: String
  public var font: Font
  /// The text's box (scene pixels).
  public var frame: Rect
  /// Outside the pie, with a leader line from the slice's rim to the text.
  public var outside: Bool
  public var leader: [Point]
}

extension PieLayout {
  /// The label text of a share: "47%".
  public static func labelText(_ share: Double) -> String { "\(Int(saturating: share.rounded()))%" }

  /// The smallest label drawn inside a slice; smaller pies label their slices outside.
  public static let minimumInsideSize = 9.0
  public static let outsideFont = Font(size: 11, weight: .semibold)

  /// Whether `r` lies wholly inside `slice` of a pie centred at `c` with radius `radius`
  /// (2 px inside the rim and the slice's edges).
  public static func sector(_ slice: Slice, center c: Point, radius: Double, contains r: Rect) -> Bool {
    let sweep = slice.end - slice.start
    if sweep >= 2 * Double.pi - 1e-9 {
      return [Point(r.x, r.y), Point(r.maxX, r.y), Point(r.x, r.maxY), Point(r.maxX, r.maxY)].allSatisfy {
        hypot($0.x - c.x, $0.y - c.y) <= radius - 2
      }
    }
    // Sample the box's edges (a corner test alone misses a rim bulging between corners of a
    // wide box only in theory; the edges between corners can cross a slice's straight side).
    var pts: [Point] = []
    for k in 0...4 {
      let f = Double(k) / 4
      pts += [Point(r.x + f * r.width, r.y), Point(r.x + f * r.width, r.maxY), Point(r.x, r.y + f * r.height), Point(r.maxX, r.y + f * r.height)]
    }
    for p in pts {
      let dx = p.x - c.x, dy = p.y - c.y
      let d = hypot(dx, dy)
      guard d <= radius - 2 else { return false }
      var a = atan2(dy, dx)
      while a < slice.start { a += 2 * Double.pi }
      while a > slice.start + 2 * Double.pi { a -= 2 * Double.pi }
      guard a <= slice.end else { return false }
      // 2 px from each straight side.
      if d * sin(min(a - slice.start, Double.pi / 2)) < 2 || d * sin(min(slice.end - a, Double.pi / 2)) < 2 { return false }
    }
    return true
  }

  /// The labels of this pie drawn with radius `r`, slice `selected` pulled out by `pull` px,
  /// inside `plot`.
  public func labels(radius r: Double, selected: String?, pull: Double, plot: Rect, measurer: TextMeasurer) -> [PieLabel] {
    var out: [PieLabel] = []
    var outsideCandidates: [Slice] = []
    for slice in slices where slice.end - slice.start > 1e-4 {
      let mid = (slice.start + slice.end) / 2
      let out0 = selected == slice.id ? pull : 0
      let c = Point(center.x + cos(mid) * out0, center.y + sin(mid) * out0)
      let text = PieLayout.labelText(slice.share)
      // Scales with the pie: at most a fifth of the radius (and the contest's 12–26 px).
      let size = (min(12 + min(14, slice.share / 3), r * 0.2) * 2).rounded(.down) / 2
      var placed = false
      if size >= PieLayout.minimumInsideSize {
        let font = Font(size: size, weight: .bold)
        let m = measurer.measure(text, font: font)
        for k in [0.6, 0.7, 0.78, 0.5, 0.85, 0.4] {
          let lr = r * k
          let box = Rect(c.x + cos(mid) * lr - m.width / 2, c.y + sin(mid) * lr - m.height / 2, m.width, m.height)
          if PieLayout.sector(slice, center: c, radius: r, contains: box.inset(by: 1)) {
            out.append(PieLabel(id: slice.id, text: text, font: font, frame: box, outside: false, leader: []))
            placed = true
            break
          }
        }
      }
      if !placed && slice.share >= 0.5 { outsideCandidates.append(slice) }
    }
    // Outside, beside the rim: where the text fits the plot and touches no other label.
    for slice in outsideCandidates {
      let mid = (slice.start + slice.end) / 2
      let out0 = selected == slice.id ? pull : 0
      let c = Point(center.x + cos(mid) * out0, center.y + sin(mid) * out0)
      let text = PieLayout.labelText(slice.share)
      let m = measurer.measure(text, font: PieLayout.outsideFont)
      let a = Point(c.x + cos(mid) * (r + 2), c.y + sin(mid) * (r + 2))
      let b = Point(c.x + cos(mid) * (r + 12), c.y + sin(mid) * (r + 12))
      let right = cos(mid) >= 0
      let end = Point(b.x + (right ? 6 : -6), b.y)
      let box = Rect(right ? end.x + 2 : end.x - 2 - m.width, end.y - m.height / 2, m.width, m.height)
      guard Rect.contains(plot, box), !out.contains(where: { $0.frame.inset(by: -2).intersects(box) }) else { continue }
      out.append(PieLabel(id: slice.id, text: text, font: PieLayout.outsideFont, frame: box, outside: true, leader: [a, b, end]))
    }
    return out
  }
}

extension PieLayout {
  /// The labels as drawn while the pie opens (`progress` 0 to 1; none up to half-way): the
  /// slices sweep open from the top and the radius grows from 70 %.
  public func drawnLabels(progress p: Double, selected: String?, plot: Rect, measurer: TextMeasurer) -> [PieLabel] {
    guard p > 0.5 else { return [] }
    let top = -Double.pi / 2
    var swept = self
    swept.slices = slices.map { var s = $0; s.start = top + ($0.start - top) * p; s.end = top + ($0.end - top) * p; return s }
    return swept.labels(radius: radius * (0.7 + 0.3 * p), selected: selected, pull: 12 * p, plot: plot, measurer: measurer)
  }
}

extension Rect {
  /// Whether `r` lies inside `outer` (half a pixel of rounding allowed).
  static func contains(_ outer: Rect, _ r: Rect) -> Bool {
    r.x >= outer.x - 0.5 && r.y >= outer.y - 0.5 && r.maxX <= outer.maxX + 0.5 && r.maxY <= outer.maxY + 0.5
  }
}
