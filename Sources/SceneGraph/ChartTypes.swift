import ChartModel
import Drawing

// Round-two charts (bars, stacks, percentages, two Y axes): the parts of the layout and the
// y-ranges they add. The drawing is in Render/SeriesBuilder.swift.

extension ChartSpec {
  /// How this view draws its set: the data's types and flags with the view's overrides.
  public var style: ChartStyle { ChartStyle.resolve(data, overrides) }

  /// Where the Y labels go: as asked; else in a gutter when the chart fills its plot with
  /// colour (bars, areas, stacks, percentages: a label inside would sit on a saturated fill),
  /// inside over the lines otherwise (the contest's look).
  public var yLabels: YLabelPlacement {
    if let asked = yLabelsAsked { return asked }
    let style = style
    return style.stacked || data.lines.contains { style.kind(of: $0) != .line } ? .outside : .inside
  }
}

extension ChartSnapshot {
  /// The right axis a two-axis chart wants in a window (nil for one axis).
  public static func rightTargetScale(spec: ChartSpec, plot: Rect, window: TimeWindow) -> YScale? {
    let style = spec.style
    guard style.yScaled else { return nil }
    let set = spec.data
    let all = set.rightAxisRange(style, in: window, hidden: [])
    // As many intervals as the left axis, so every right label sits on a left grid line.
    let left = targetScale(spec: spec, plot: plot, window: window)
    let n = left.step > 0 ? Int(((left.hi - left.lo) / left.step).rounded()) : 0
    let range = set.rightAxisRange(style, in: window) ?? all ?? ValueRange(0, 1)
    guard n >= 1 else { return YScale.nice(for: range, maxIntervals: ChartMetrics.maxIntervals(plot: plot, lineWidth: spec.lineWidth)) }
    return YScale.nice(for: range, intervals: n)
  }

  /// The right axis drawn at t and its tick sets (cross-fading like the left axis's).
  static func rightAxis(spec: ChartSpec, plot: Rect, window: TimeWindow, presentation: Presentation?, key: ChartKey?, t: Double)
    -> (ValueRange?, [(scale: YScale, alpha: Double)])
  {
    guard let target = rightTargetScale(spec: spec, plot: plot, window: window) else { return (nil, []) }
    if let key, let axis = presentation?.axis(AxisKey(key, .right)) {
      let r = axis.range.value(at: t)
      let p = axis.range.progress(at: t)
      return (ValueRange(r.a, r.b), p >= 1 ? [(axis.scale, 1)] : [(axis.previousScale, 1 - p), (axis.scale, p)])
    }
    return (ValueRange(target.lo, target.hi), [(target, 1)])
  }
}

extension Presentation {
  /// Moves every axis of a chart towards what its window needs now (the left one and a
  /// two-axis chart's right one, both of chart `key`).
  /// While the set zooms into a day or out of it, the axes follow at once: the crossfade
  /// draws each layer on its own axis (ZoomBuilder), and the chart's axis must be where the
  /// arriving layer's is when the crossfade ends, not still on its way from the leaving one.
  public func updateChartAxes(_ key: ChartKey, spec: ChartSpec, plot: Rect, window: TimeWindow, at t: Double) {
    let p = zoomProgress(spec.base, at: t)
    let zooming = (p > 0.0001 && p < 0.9999) || leavingZoom(spec.base, at: t) != nil
    updateAxis(AxisKey(key), target: ChartSnapshot.targetScale(spec: spec, plot: plot, window: window), at: t, immediate: zooming)
    if let right = ChartSnapshot.rightTargetScale(spec: spec, plot: plot, window: window) {
      updateAxis(AxisKey(key, .right), target: right, at: t, immediate: zooming)
    }
  }
}

/// What a chart's poster says as drawn: its date, its rows (name and value; the "+ N more"
/// row and a stack's total included, in drawing order) and how many lines it leaves out.
public struct PosterContent: Sendable {
  public var date: String
  public var rows: [(name: String, value: String)]
  public var left: Int
}

extension ChartParts {
  /// The poster of a chart drawn now (nil when none shows), for `--inspect`.
  public static func posterContent(spec: ChartSpec, parts: ChartParts, snap: ChartSnapshot, frame: Rect, measurer: TextMeasurer) -> PosterContent? {
    guard let p = ChartPoster.make(spec: spec, parts: parts, snap: snap, measurer: measurer) else { return nil }
    let rows = p.rows.map { r -> (name: String, value: String) in ((r.percent.map { $0 + " " } ?? "") + r.name, r.value) }
    return PosterContent(date: p.date, rows: rows, left: p.left)
  }

  /// The band on the right of the plot where a two-axis chart's right labels go.
  public static func rightAxisBand(plot: Rect) -> Rect {
    let w = min(64, plot.width / 4)
    return Rect(plot.maxX - w, plot.y, w, plot.height)
  }

  /// The round-two parts of a chart drawn now, after the others: `poster` (while the
  /// indicator shows), `zoomOut` (while zoomed into a day), `yAxis.right` (two axes).
  public static func extraParts(spec: ChartSpec, parts: ChartParts, snap: ChartSnapshot, frame: Rect, measurer: TextMeasurer,
                                zoomed: Bool) -> [(String, Rect)] {
    var out: [(String, Rect)] = []
    if let poster = ChartPoster.make(spec: spec, parts: parts, snap: snap, measurer: measurer) { out.append(("poster", poster.box)) }
    if zoomed, let title = parts.title {
      let w = measurer.measure(ZoomText.zoomOut, font: ChartMetrics.titleFont).width + 24
      out.append(("zoomOut", Rect(title.x, title.y, min(title.width, w.rounded(.up)), title.height)))
    }
    if snap.style.yScaled { out.append(("yAxis.right", parts.yGutterRight ?? rightAxisBand(plot: parts.plot))) }
    return out
  }
}

/// Texts of the zoom.
public enum ZoomText {
  public static let zoomOut = "Zoom Out"
}
