import ChartModel
import Drawing

/// Where a chart draws its data at a moment: the plot, the time window and the Y ranges
/// drawn then (animated), and the mappings between data and pixels. The renderer draws with
/// these mappings and `cs.chartGeometry` hands them to scripts, so an overlay drawn in Lua
/// lands exactly on the lines.
public struct ChartGeometry: Sendable {
  /// The plot (axes and lines) and the rect the values are scaled into (the plot without the
  /// top label's headroom and half a line width at the bottom).
  public let plot: Rect
  public let linesRect: Rect
  /// The times at the plot's left and right edges (UNIX ms).
  public let from: Double
  public let to: Double
  /// The Y range drawn, and the right axis's of a two-axis chart.
  public let yRange: ValueRange
  public let rightRange: ValueRange?

  public init(plot: Rect, lineWidth: Double, set: ChartSet, snapshot snap: ChartSnapshot) {
    self.plot = plot
    linesRect = ChartMetrics.linesRect(plot: plot, lineWidth: lineWidth)
    from = set.time(atFraction: snap.window.lo)
    to = set.time(atFraction: snap.window.hi)
    yRange = snap.yRange
    rightRange = snap.rightRange
  }

  /// The chart `spec` laid out in `frame` as drawn at time `t`.
  public init(spec: ChartSpec, card: Bool, frame: Rect, measurer: TextMeasurer, presentation: Presentation?, key: String, t: Double) {
    let window = presentation?.window(spec.data, at: t) ?? spec.data.window
    let parts = ChartParts.make(spec: spec, card: card, frame: frame, measurer: measurer, window: window)
    let snap = ChartSnapshot(spec: spec, plot: parts.plot, presentation: presentation, key: key, t: t)
    self.init(plot: parts.plot, lineWidth: spec.lineWidth, set: spec.data, snapshot: snap)
  }

  /// The x of a time (the plot's middle when the window has no width).
  public func x(_ t: Double) -> Double { to > from ? plot.x + (t - from) / (to - from) * plot.width : plot.midX }
  /// The y of a value on the left axis, or the right one.
  public func y(_ v: Double, right: Bool = false) -> Double {
    ChartGeometry.scale(v, right ? (rightRange ?? yRange) : yRange, into: linesRect)
  }
  /// A value of range `r` as a y in `rect` (`r.min` at the bottom; the middle when the
  /// range is empty). Every value-to-y mapping of the renderer and the axes is this one.
  public static func scale(_ v: Double, _ r: ValueRange, into rect: Rect) -> Double {
    r.max > r.min ? rect.maxY - (v - r.min) / (r.max - r.min) * rect.height : rect.midY
  }
  /// The time at an x, and the value at a y: the inverses.
  public func time(atX x: Double) -> Double { plot.width > 0 ? from + (x - plot.x) / plot.width * (to - from) : from }
  public func value(atY y: Double, right: Bool = false) -> Double {
    let r = right ? (rightRange ?? yRange) : yRange
    return linesRect.height > 0 ? r.min + (linesRect.maxY - y) / linesRect.height * (r.max - r.min) : r.min
  }
}
