import ChartModel
import Drawing

/// Where times and values go in pixels: x maps a time window (`from` to `to`, UNIX ms)
/// onto `xRect`'s width, y a value range onto `yRect`'s height (`range.min` at the bottom).
/// A window or range with no width maps everything to the middle (the zero-height guard).
/// Every time-to-x and value-to-y mapping of the renderer, the axes, the posters, the
/// annotations and `--inspect` is this one (a plot's, a mini-map's, a two-axis chart's right
/// axis's); `ChartSceneLua/GeometryBinding` repeats its formulas in Lua.
public struct PlotScale: Sendable {
  public var xRect: Rect
  public var from: Double
  public var to: Double
  public var yRect: Rect
  public var range: ValueRange

  public init(x xRect: Rect, from: Double, to: Double, y yRect: Rect, range: ValueRange) {
    self.xRect = xRect; self.from = from; self.to = to; self.yRect = yRect; self.range = range
  }

  /// The x of a time (the middle when the window has no width).
  public func x(_ t: Double) -> Double { to > from ? xRect.x + (t - from) / (to - from) * xRect.width : xRect.midX }
  /// The y of a value (the middle when the range is empty).
  public func y(_ v: Double) -> Double {
    range.max > range.min ? yRect.maxY - (v - range.min) / (range.max - range.min) * yRect.height : yRect.midY
  }
  /// The time at an x, and the value at a y: the inverses.
  public func time(atX x: Double) -> Double { xRect.width > 0 ? from + (x - xRect.x) / xRect.width * (to - from) : from }
  public func value(atY y: Double) -> Double {
    yRect.height > 0 ? range.min + (yRect.maxY - y) / yRect.height * (range.max - range.min) : range.min
  }
  /// The same x, y onto another value range (a two-axis chart's right axis).
  public func with(range r: ValueRange) -> PlotScale { PlotScale(x: xRect, from: from, to: to, y: yRect, range: r) }
}

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
  /// The plot's mapping on the left axis, and on the right one (nil for one axis).
  public let left: PlotScale
  public let right: PlotScale?

  public init(plot: Rect, lineWidth: Double, set: ChartSet, snapshot snap: ChartSnapshot) {
    self.plot = plot
    linesRect = ChartMetrics.linesRect(plot: plot, lineWidth: lineWidth)
    (from, to) = ChartGeometry.times(set: set, style: snap.style, window: snap.window)
    yRange = snap.yRange
    rightRange = snap.rightRange
    let left = PlotScale(x: plot, from: from, to: to, y: linesRect, range: yRange)
    self.left = left
    right = rightRange.map { left.with(range: $0) }
  }

  /// The chart `spec` laid out in `frame` as drawn at time `t`.
  public init(spec: ChartSpec, card: Bool, frame: Rect, measurer: TextMeasurer, presentation: Presentation?, key: ChartKey?, t: Double) {
    let window = presentation?.window(spec.data, at: t) ?? spec.data.window
    let parts = ChartParts.make(spec: spec, card: card, frame: frame, measurer: measurer, window: window)
    let snap = ChartSnapshot(spec: spec, plot: parts.plot, presentation: presentation, key: key, t: t)
    self.init(plot: parts.plot, lineWidth: spec.lineWidth, set: spec.data, snapshot: snap)
  }

  /// The scale of the left axis, or the right one (the left one when there is none).
  public func scale(right: Bool = false) -> PlotScale { right ? (self.right ?? left) : left }
  /// The x of a time (the plot's middle when the window has no width).
  public func x(_ t: Double) -> Double { left.x(t) }
  /// The indicator's line at a time: the middle of the pixel column the time falls in.
  public func indicatorX(_ t: Double) -> Double { x(t).rounded() + 0.5 }
  /// The y of a value on the left axis, or the right one.
  public func y(_ v: Double, right: Bool = false) -> Double { scale(right: right).y(v) }
  /// The time at an x, and the value at a y: the inverses.
  public func time(atX x: Double) -> Double { left.time(atX: x) }
  public func value(atY y: Double, right: Bool = false) -> Double { scale(right: right).value(atY: y) }
}

extension ChartGeometry {
  /// The time axis a chart maps its window onto (UNIX ms): the data's first to last time,
  /// and for bars half a column more at each end, so the first and last bars are whole and
  /// inside the plot (a band scale's outer padding, as matplotlib's and Vega-Lite's bar
  /// charts; issue 39). A window's fractions are fractions of this axis.
  public static func axis(set: ChartSet, style: ChartStyle) -> (lo: Double, span: Double) {
    let pad = set.spanMs > 0 && style.drawsBars(set) ? set.typicalStepMs / 2 : 0
    return (set.firstMs - pad, set.spanMs + 2 * pad)
  }

  /// The times at the plot's edges for `window` (`axis`'s fractions).
  public static func times(set: ChartSet, style: ChartStyle, window: TimeWindow) -> (from: Double, to: Double) {
    let a = axis(set: set, style: style)
    return (a.lo + window.lo * a.span, a.lo + window.hi * a.span)
  }

  /// The empty room between two bars, a share of their column `step` (px): a fifth of a
  /// wide column (matplotlib's 0.8 width), growing from none at 4 px; and none under 1.5 px
  /// (columns under 10 px): dense bars read as one shape, and bars on whole pixels with a
  /// thinner gap would show it in some columns only.
  public static func barGap(step: Double) -> Double {
    let g = 0.2 * max(0, min(1, (step - 4) / 8)) * step
    return g >= 1.5 ? g : 0
  }

  /// Where the bar of a point at `x` stands in a column `step` px wide: centred, the gap
  /// shared between its sides.
  public static func barEdges(x: Double, step: Double) -> (l: Double, r: Double) {
    let g = barGap(step: step)
    return (x - step / 2 + g / 2, x + step / 2 - g / 2)
  }
}
