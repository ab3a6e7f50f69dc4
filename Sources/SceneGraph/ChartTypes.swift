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
  static func rightAxis(spec: ChartSpec, plot: Rect, window: TimeWindow, presentation: Presentation?, key: String, t: Double)
    -> (ValueRange?, [(scale: YScale, alpha: Double)])
  {
    guard let target = rightTargetScale(spec: spec, plot: plot, window: window) else { return (nil, []) }
    if let axis = presentation?.axis(key + ".right") {
      let r = axis.range.value(at: t)
      let p = axis.range.progress(at: t)
      return (ValueRange(r.a, r.b), p >= 1 ? [(axis.scale, 1)] : [(axis.previousScale, 1 - p), (axis.scale, p)])
    }
    return (ValueRange(target.lo, target.hi), [(target, 1)])
  }
}

extension Presentation {
  /// Moves every axis of a chart towards what its window needs now (the left one under
  /// `key`, a two-axis chart's right one under `key.right`).
  /// While the set zooms into a day or out of it, the axes follow at once: the crossfade
  /// draws each layer on its own axis (ZoomBuilder), and the chart's axis must be where the
  /// arriving layer's is when the crossfade ends, not still on its way from the leaving one.
  public func updateChartAxes(_ key: String, spec: ChartSpec, plot: Rect, window: TimeWindow, at t: Double) {
    let p = zoomProgress(spec.base, at: t)
    let zooming = (p > 0.0001 && p < 0.9999) || leavingZoom(spec.base, at: t) != nil
    updateAxis(key, target: ChartSnapshot.targetScale(spec: spec, plot: plot, window: window), at: t, immediate: zooming)
    if let right = ChartSnapshot.rightTargetScale(spec: spec, plot: plot, window: window) {
      updateAxis(key + ".right", target: right, at: t, immediate: zooming)
    }
  }
}

/// The indicator's poster: where it goes and what it says. Shared by the renderer, hit
/// testing (`ID.poster`) and `--inspect`.
public struct TypedPoster: Sendable {
  public struct Row: Sendable {
    public var name: String
    public var value: String
    public var color: Color
    /// The share in percent, for percentage charts ("42%").
    public var percent: String?
  }
  public var box: Rect
  public var date: String
  public var rows: [Row]
  public var dateHeight: Double
  public var percentWidth: Double
  /// How many visible lines the poster leaves out (its "+ N more" row says so).
  public var left = 0

  public static let rowHeight = 20.0
  public static let padX = 10.0
  public static let padY = 8.0

  /// The poster of the indicator at point i, drawn inside `plot` whose lines fill
  /// `linesRect`; x is the indicator's pixel column. When not every row fits the plot's
  /// height, the lines with the biggest values (by size: a diverging stack's negatives count)
  /// show and a row says how many are left out ("+ 88 more"); nil when not even the date fits.
  public static func make(spec: ChartSpec, style: ChartStyle, index i: Int, x: Double, linesRect: Rect, plot: Rect,
                          alpha: [String: Double], measurer: TextMeasurer) -> TypedPoster? {
    let set = spec.data
    let format = spec.format
    var date = format.poster(set.xs[i], precision: format.precision(of: set))
    var dateSize = measurer.measure(date, font: ChartMetrics.posterTitleFont)
    let maxContent = plot.width - 4 - 2 * padX
    guard maxContent > 0 else { return nil }
    if dateSize.width > maxContent {
      date = TextFit.fit(date, width: maxContent, font: ChartMetrics.posterTitleFont, measurer: measurer)
      dateSize.width = measurer.measure(date, font: ChartMetrics.posterTitleFont).width
    }
    let visible = set.visibleLines.filter { i < $0.values.count && !$0.values[i].isNaN }
    var shares: [String: Double] = [:]
    if style.percentage {
      let weights = set.lines.map { (alpha[$0.id] ?? 1) > 0.001 && !set.isHidden($0.id) ? 1.0 : 0.0 }
      // No share of a partial total: a gap in a shown line leaves every share out ("–").
      for (line, share) in zip(set.lines, Stacking.sharesOrNil(set.lines, weights: weights, at: i) ?? []) { shares[line.id] = share }
    }
    // Stacked bars of more than one line end with their total, as in the contest.
    var total: Row?
    if style.stacked && !style.percentage && style.type == .bar && visible.count > 1 {
      let sum = visible.reduce(0.0) { $0 + $1.values[i] }  // the net total: negatives count
      total = Row(name: "All", value: format.grouped(sum), color: Color(r: 0, g: 0, b: 0, a: 0), percent: nil)
    }
    let header = dateSize.height + 4 + 2 * padY - 4
    var room = Int(saturating: ((plot.height - 4 - header) / rowHeight).rounded(.down))
    // The total takes a row of its own, unless that leaves none for the lines.
    if total != nil { if room >= 2 { room -= 1 } else { total = nil } }
    guard room >= 0 else { return nil }
    let fit = PosterLayout.fitRows(values: visible.map { abs($0.values[i]) }, room: room)
    var rows: [Row] = fit.shown.map { k in
      let line = visible[k]
      return Row(name: line.name, value: format.grouped(line.values[i]), color: line.color,
                 percent: style.percentage ? shares[line.id].map { format.percent(String(Int(saturating: $0.rounded()))) } ?? "–" : nil)
    }
    if fit.more > 0 && room > 0 { rows.append(Row(name: PosterLayout.moreText(fit.more, format: format), value: "", color: Color(r: 0, g: 0, b: 0, a: 0), percent: nil)) }
    if let total { rows.append(total) }
    let percentWidth = style.percentage ? (measurer.measure(format.percent("100"), font: ChartMetrics.posterValueFont).width + 6).rounded(.up) : 0
    func widths(_ r: Row) -> (name: Double, value: Double) {
      let pw = r.percent == nil ? 0 : percentWidth
      return (pw + measurer.measure(r.name, font: ChartMetrics.posterNameFont).width,
              r.value.isEmpty ? 0 : 20 + measurer.measure(r.value, font: ChartMetrics.posterValueFont).width)
    }
    let contentW = min(maxContent, max(dateSize.width, rows.map { let w = widths($0); return w.name + w.value }.max() ?? 0))
    // Names too long for the plot's width end in "…".
    for k in rows.indices {
      let w = widths(rows[k])
      if w.name + w.value > contentW {
        let pw = rows[k].percent == nil ? 0 : percentWidth
        rows[k].name = TextFit.fit(rows[k].name, width: max(0, contentW - w.value - pw), font: ChartMetrics.posterNameFont, measurer: measurer)
      }
    }
    let w = (contentW + 2 * padX).rounded(.up)
    let h = (header + Double(rows.count) * rowHeight).rounded(.up)
    guard w <= plot.width, h <= plot.height else { return nil }
    var px = x + 14
    if px + w > plot.maxX { px = x - 14 - w }
    px = max(plot.x, min(plot.maxX - w, px))
    var py = max(plot.y, linesRect.minY - 4)
    if py + h > plot.maxY { py = plot.maxY - h }
    return TypedPoster(box: Rect(px, py, w, h), date: date, rows: rows, dateHeight: dateSize.height, percentWidth: percentWidth, left: fit.more)
  }

  /// The poster of a chart as drawn now (nil when the indicator is not shown).
  public static func make(spec: ChartSpec, parts: ChartParts, snap: ChartSnapshot, frame: Rect, measurer: TextMeasurer) -> TypedPoster? {
    guard let i = snap.indicatorIndex else { return nil }
    let geometry = ChartGeometry(plot: parts.plot, lineWidth: spec.lineWidth, set: spec.data, snapshot: snap)
    return make(spec: spec, style: snap.style, index: i, x: geometry.indicatorX(spec.data.xs[i]), linesRect: geometry.linesRect,
                plot: geometry.plot, alpha: snap.alpha, measurer: measurer)
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
    if snap.style.isPlainLines(spec.data) {
      guard let p = ChartAxes.posterLayout(spec: spec, parts: parts, snap: snap, measurer: measurer), p.box != nil else { return nil }
      return PosterContent(date: p.date, rows: p.rows.map { ($0.0, $0.1) } + (p.more.map { [($0, "")] } ?? []), left: p.left)
    }
    guard let p = TypedPoster.make(spec: spec, parts: parts, snap: snap, frame: frame, measurer: measurer) else { return nil }
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
    // Plain line charts have ChartAxes' poster; the others this file's.
    if snap.style.isPlainLines(spec.data) {
      if let box = ChartAxes.posterBox(spec: spec, parts: parts, snap: snap, measurer: measurer) { out.append(("poster", box)) }
    } else if let poster = TypedPoster.make(spec: spec, parts: parts, snap: snap, frame: frame, measurer: measurer) {
      out.append(("poster", poster.box))
    }
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
