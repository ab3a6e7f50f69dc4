import ChartModel
import Glibc
import Drawing
import Motion

// Zooming into a day (round 2): the animation state, the pie's layout, and what a tap on
// the poster or on "Zoom Out" does. The drawing is in Render/ZoomBuilder.swift.

extension Presentation {
  static func zoomKey(_ set: ChartSet) -> String { "zoom.\(ObjectIdentifier(set).hashValue)" }
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
