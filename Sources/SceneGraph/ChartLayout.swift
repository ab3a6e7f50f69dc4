import ChartModel
import Drawing

/// The fonts and sizes of a chart's parts, in scene pixels.
public enum ChartMetrics {
  public static let titleFont = Font(size: 17, weight: .semibold)
  public static let axisFont = Font(size: 12)
  public static let chipFont = Font(size: 14, weight: .semibold)
  public static let posterTitleFont = Font(size: 13, weight: .semibold)
  public static let posterValueFont = Font(size: 13, weight: .bold)
  public static let posterNameFont = Font(size: 12)
  /// The padding left and right of a chart; a check mark's height and the gap between two.
  public static let sidePadding = 16.0, chipHeight = 32.0, chipSpacing = 8.0
  /// Room above the top grid line for its label.
  public static let plotHeadroom = 20.0
  /// The band of the X labels, the gap above the mini-map, the least height of a plot.
  public static let xAxisHeight = 24.0, minimapGap = 10.0, minimumPlotHeight = 40.0
  /// The least share of a chart's inner height the plot keeps before other parts give way.
  public static let plotShare = 1.0 / 3
  public static let handleWidth = 10.0
  /// The least height between two Y grid lines (room for a label and air).
  public static let minimumGridSpacing = 26.0

  /// The rect the lines are scaled into: the plot without the top label's headroom.
  public static func linesRect(plot: Rect, lineWidth: Double) -> Rect {
    plot.inset(top: min(plotHeadroom, plot.height / 3), bottom: lineWidth / 2)
  }

  /// How many Y intervals fit a plot.
  public static func maxIntervals(plot: Rect, lineWidth: Double) -> Int {
    Int(saturating: linesRect(plot: plot, lineWidth: lineWidth).height / minimumGridSpacing)
  }
}

/// Where each part of a chart view sits: what `--inspect` reports as `parts` and what the
/// renderer draws into. Absent parts are nil.
public struct ChartParts: Sendable, Equatable {
  public var title: Rect?
  public var plot: Rect
  /// The gutter left of the plot where Y labels go with `yLabels = "outside"`.
  public var yGutter: Rect?
  /// The gutter right of the plot where a two-axis chart's right labels go with
  /// `yLabels = "outside"`.
  public var yGutterRight: Rect?
  /// The band under the plot where date labels go.
  public var xAxis: Rect?
  public var minimap: Rect?
  public var minimapWindow: Rect?
  public var minimapLeft: Rect?
  public var minimapRight: Rect?
  /// One chip per line, in line order (the first lines only, when not all fit).
  public var legend: [(id: String, frame: Rect)]
  /// The last chip when not every line's chip fits: "+ 121 more".
  public var legendMore: (text: String, frame: Rect)?

  public static func == (a: ChartParts, b: ChartParts) -> Bool {
    a.title == b.title && a.plot == b.plot && a.yGutter == b.yGutter && a.yGutterRight == b.yGutterRight && a.xAxis == b.xAxis && a.minimap == b.minimap
      && a.minimapWindow == b.minimapWindow && a.minimapLeft == b.minimapLeft && a.minimapRight == b.minimapRight
      && a.legend.map(\.id) == b.legend.map(\.id)
      && a.legend.map(\.frame) == b.legend.map(\.frame)
      && a.legendMore?.text == b.legendMore?.text && a.legendMore?.frame == b.legendMore?.frame
  }

  /// The addressable parts by name, in a stable order (`plot`, `minimap.window`, `legend.y0`).
  public var named: [(String, Rect)] {
    var out: [(String, Rect)] = []
    if let title { out.append(("title", title)) }
    out.append(("plot", plot))
    if let yGutter { out.append(("yGutter", yGutter)) }
    if let yGutterRight { out.append(("yGutter.right", yGutterRight)) }
    if let xAxis { out.append(("xAxis", xAxis)) }
    if let minimap { out.append(("minimap", minimap)) }
    if let minimapWindow { out.append(("minimap.window", minimapWindow)) }
    if let minimapLeft { out.append(("minimap.left", minimapLeft)) }
    if let minimapRight { out.append(("minimap.right", minimapRight)) }
    for chip in legend { out.append(("legend.\(chip.id)", chip.frame)) }
    if let legendMore { out.append(("legendMore", legendMore.frame)) }
    return out
  }

  /// The row of a title and the air under it: one line of the title font, whatever the
  /// title's script (a font with a taller line, as the Arabic one, draws within it: issue
  /// 39, where `languages.lua` at 360×640 dropped only its Arabic title).
  public static func titleRowHeight(measurer: TextMeasurer) -> Double {
    measurer.measure("Hg", font: ChartMetrics.titleFont).height.rounded(.up) + 8
  }

  /// The least height a chart in `frame` keeps for its plot before its legend, mini-map and
  /// title give way: `plotShare` of its inner height, at least `minimumPlotHeight`.
  public static func leastPlotHeight(frame: Rect, card: Bool) -> Double {
    let inner = frame.height - 24  // the padding above and below (12 + 12; a card's 14 + 10)
    return max(ChartMetrics.minimumPlotHeight, (inner * ChartMetrics.plotShare).rounded())
  }

  /// Lays out a chart view in `frame`. Parts that do not fit are dropped in this order:
  /// legend, mini-map, title, date labels (then the padding shrinks to 8 px); the plot keeps
  /// at least `minimumPlotHeight` where the frame has room for it.
  public static func make(spec: ChartSpec, card: Bool, frame: Rect, measurer: TextMeasurer, window: TimeWindow? = nil) -> ChartParts {
    let pad = ChartMetrics.sidePadding
    var inner = frame.inset(top: card ? 14 : 12, left: pad, bottom: card ? 10 : 12, right: pad)
    let showTitle = spec.title.map { !$0.isEmpty } ?? false
    var showMinimap = spec.minimap && !card
    var showLegend = spec.legend && !card
    var showTitleNow = showTitle
    let titleHeight = showTitle ? titleRowHeight(measurer: measurer) : 0
    var showXAxis = spec.xAxis
    var xAxisHeight: Double { showXAxis ? ChartMetrics.xAxisHeight : 0 }
    let minimapHeight = min(72, max(32, (frame.height * 0.115).rounded()))

    // Chips flow left to right and wrap, in at most `maxRows` rows: when they need more, the
    // last row ends with a "+ N more" chip (the first lines' chips show).
    let h = ChartMetrics.chipHeight, gap = ChartMetrics.chipSpacing
    let widths = spec.data.lines.map { min(inner.width, (12 + 16 + 8 + measurer.measure($0.name, font: ChartMetrics.chipFont).width + 14).rounded(.up)) }
    func chipLayout(width: Double, maxRows: Int) -> (frames: [(String, Rect)], more: (String, Rect)?, height: Double) {
      var frames: [(String, Rect)] = []
      var rows: [Int] = []
      var x = 0.0, row = 0
      for (k, line) in spec.data.lines.enumerated() {
        if x > 0 && x + widths[k] > width { x = 0; row += 1 }
        frames.append((line.id, Rect(x, Double(row) * (h + gap), widths[k], h)))
        rows.append(row)
        x += widths[k] + gap
      }
      guard row >= maxRows, maxRows > 0 else { return (frames, nil, frames.isEmpty ? 0 : Double(row) * (h + gap) + h) }
      var kept = rows.firstIndex { $0 >= maxRows } ?? frames.count
      let my = Double(maxRows - 1) * (h + gap)
      while true {
        let text = ChartPoster.moreText(frames.count - kept, format: spec.format)
        let w = min(width, (14 + measurer.measure(text, font: ChartMetrics.chipFont).width + 14).rounded(.up))
        // After the last kept chip when it is on the last row, else starting that row.
        let mx = kept > 0 && frames[kept - 1].1.y >= my ? frames[kept - 1].1.maxX + gap : 0
        if mx == 0 || mx + w <= width { return (Array(frames.prefix(kept)), (text, Rect(mx, my, w, h)), my + h) }
        kept -= 1
      }
    }
    var chips = chipLayout(width: inner.width, maxRows: Int.max)
    func plotHeight() -> Double {
      inner.height - (showTitleNow ? titleHeight : 0) - xAxisHeight
        - (showMinimap ? minimapHeight + ChartMetrics.minimapGap : 0) - (showLegend ? chips.height + 14 : 0)
    }
    // The plot wins at small sizes: the legend loses rows down to one (the last ending in
    // "+ N more"), then the legend, the mini-map and the title give way while the plot would
    // be under `plotShare` of the inner height (or under 40 px).
    let least = leastPlotHeight(frame: frame, card: card)
    // Many lines: a legend taller than a third of the inner height keeps the rows that leave
    // the plot half of it (at least one row).
    if showLegend, chips.height > inner.height / 3 {
      chips = chipLayout(width: inner.width, maxRows: max(1, Int(((inner.height / 3 + gap) / (h + gap)).rounded(.down))))
      while plotHeight() < inner.height / 2, chips.height > h {
        chips = chipLayout(width: inner.width, maxRows: Int(((chips.height + gap) / (h + gap)).rounded()) - 1)
      }
    }
    while showLegend, plotHeight() < least, chips.height > h {
      let rows = Int(((chips.height + gap) / (h + gap)).rounded())
      chips = chipLayout(width: inner.width, maxRows: rows - 1)
    }
    if plotHeight() < least { showLegend = false }
    if plotHeight() < least { showMinimap = false }
    if plotHeight() < least { showTitleNow = false }
    // Five charts in 240 px: the date labels, then the padding above and below down to 8 px
    // (half a label, for the labels of the top and bottom lines) give way too, so each
    // keeps a plot of up to `minimumPlotHeight`.
    if plotHeight() < ChartMetrics.minimumPlotHeight { showXAxis = false }
    if plotHeight() < ChartMetrics.minimumPlotHeight {
      let room = ChartMetrics.minimumPlotHeight - plotHeight()
      let squeeze = min(room, max(0, inner.y - frame.y - 8) + max(0, frame.maxY - inner.maxY - 8))
      if squeeze > 0 { inner = inner.inset(top: -squeeze / 2, bottom: -squeeze / 2) }
    }

    var y = inner.y
    var parts = ChartParts(plot: .zero, legend: [])
    if showTitleNow {
      parts.title = Rect(inner.x, y, inner.width, titleHeight - 8)
      y += titleHeight
    }
    let plotH = max(0, plotHeight())
    parts.plot = Rect(inner.x, y, inner.width, plotH)
    if spec.yAxis && spec.yLabels == .outside {
      // As wide as the widest label of the axis the chart wants (at least `−0000`), plus air.
      // (With `%` on percentage charts.) A two-axis chart gets a second gutter on the right.
      let style = spec.style
      let w = window ?? spec.data.window
      let least = measurer.measure("\u{2212}0000", font: ChartMetrics.axisFont).width
      let scale = ChartSnapshot.targetScale(spec: spec, plot: parts.plot, window: w)
      let widest = scale.ticks.map { measurer.measure(ChartAxes.leftText(spec, style: style, $0, step: scale.step), font: ChartMetrics.axisFont).width }.max() ?? 0
      let gw = min(inner.width / 3, (max(widest, least) + 10).rounded(.up))
      var rw = 0.0
      if style.yScaled, spec.data.lines.count > 1, let right = ChartSnapshot.rightTargetScale(spec: spec, plot: parts.plot, window: w) {
        let rightWidest = right.ticks.map { measurer.measure(spec.format.axisNumber($0, step: right.step), font: ChartMetrics.axisFont).width }.max() ?? 0
        rw = min(inner.width / 4, (max(rightWidest, least) + 10).rounded(.up))
        parts.yGutterRight = Rect(inner.maxX - rw, y, rw, plotH)
      }
      parts.yGutter = Rect(inner.x, y, gw, plotH)
      parts.plot = Rect(inner.x + gw, y, inner.width - gw - rw, plotH)
    }
    y += plotH
    if showXAxis {
      parts.xAxis = Rect(parts.plot.x, y, parts.plot.width, xAxisHeight)
      y += xAxisHeight
    }
    if showMinimap {
      y += ChartMetrics.minimapGap
      let mm = Rect(inner.x, y, inner.width, minimapHeight)
      parts.minimap = mm
      let w = window ?? spec.data.window
      // The mini-map shows all the data: a window swinging past an end stays inside it.
      let x0 = mm.x + max(0, min(1, w.lo)) * mm.width, x1 = mm.x + max(0, min(1, w.hi)) * mm.width
      let hw = min(ChartMetrics.handleWidth, max(4, (x1 - x0) / 4))
      parts.minimapWindow = Rect(x0, mm.y, x1 - x0, mm.height)
      parts.minimapLeft = Rect(x0, mm.y, hw, mm.height)
      parts.minimapRight = Rect(x1 - hw, mm.y, hw, mm.height)
      y += minimapHeight
    }
    if showLegend {
      y += 14
      parts.legend = chips.frames.map { ($0.0, $0.1.offsetBy(inner.x, y)) }
      parts.legendMore = chips.more.map { ($0.0, $0.1.offsetBy(inner.x, y)) }
    }
    return parts
  }
}

/// Everything about a chart at one moment: the single owner of "which window, which lines
/// and which y-range are drawn" for both the renderer and `--inspect`.
public struct ChartSnapshot: Sendable {
  /// The window drawn (animating towards the set's window).
  public var window: TimeWindow
  /// Exact min/max of the visible lines inside the window (nil when all are hidden).
  public var dataRange: ValueRange?
  /// The Y axis the chart wants (nice bounds around what is drawn).
  public var targetScale: YScale
  /// The Y range drawn now (animating towards `targetScale`).
  public var yRange: ValueRange
  /// Tick sets to draw with their opacity: the new ticks fade in as the old fade out.
  public var ticks: [(scale: YScale, alpha: Double)]
  public var hidden: Set<String>
  /// Opacity of each line by id (a hidden line fades out).
  public var alpha: [String: Double]
  /// The indicator's point, when shown and inside the window.
  public var indicatorIndex: Int?
  /// Min/max of the visible lines over the whole axis, for the mini-map.
  public var overviewRange: ValueRange?
  /// How the chart draws its set: type, stacking, percentages, two axes.
  public var style: ChartStyle
  /// The right Y axis of a two-axis chart (nil otherwise), drawn now, and its tick sets.
  public var rightRange: ValueRange?
  public var rightTicks: [(scale: YScale, alpha: Double)]

  /// The chart's state at time t for a plot of the given frame (the frame decides how many
  /// grid lines fit). `key` names the chart's animated axes in `presentation` (nil: none, the
  /// axes its window asks for).
  public init(spec: ChartSpec, plot: Rect, presentation: Presentation? = nil, key: ChartKey? = nil, t: Double = 0) {
    let set = spec.data
    window = presentation?.window(set, at: t) ?? set.window
    hidden = set.hidden
    alpha = Dictionary(uniqueKeysWithValues: set.lines.map { ($0.id, presentation?.alpha(set, $0.id, at: t) ?? (set.isHidden($0.id) ? 0 : 1)) })
    dataRange = set.dataRange(in: window)
    if spec.style.percentage { dataRange = set.shareRange(in: window) }  // in percent, like the axis
    // The axis holds what is drawn, including where lines cross the window's edges.
    style = spec.style
    targetScale = ChartSnapshot.targetScale(spec: spec, plot: plot, window: window)
    (rightRange, rightTicks) = ChartSnapshot.rightAxis(spec: spec, plot: plot, window: window, presentation: presentation, key: key, t: t)
    if let key, let axis = presentation?.axis(AxisKey(key)) {
      let r = axis.range.value(at: t)
      yRange = ValueRange(r.a, r.b)
      let p = axis.range.progress(at: t)
      ticks = p >= 1 ? [(axis.scale, 1)] : [(axis.previousScale, 1 - p), (axis.scale, p)]
    } else {
      yRange = ValueRange(targetScale.lo, targetScale.hi)
      ticks = [(targetScale, 1)]
    }
    // Lines still fading out count too, so they stay inside the mini-map.
    let drawn = set.lines.filter { (alpha[$0.id] ?? 1) > 0.001 }
    overviewRange = set.valueRange(of: drawn.isEmpty ? set.lines : drawn, in: 0..<set.count)
    if spec.indicator, let f = spec.indicatorAt, set.count > 0 {
      let i = set.nearestIndex(toTime: set.time(atFraction: f))
      let x = set.xs[i]
      let inWindow = x >= set.time(atFraction: window.lo) - 1e-6 && x <= set.time(atFraction: window.hi) + 1e-6
      indicatorIndex = inWindow ? i : nil
    }
  }

  /// The axis this chart wants now: for `Presentation.updateAxis` every tick.
  public static func targetScale(spec: ChartSpec, plot: Rect, window: TimeWindow) -> YScale {
    let set = spec.data
    // The range depends on the chart's type (ChartStyle.swift): stacked sums, 0–100 %,
    // the first line of two axes, or what is drawn.
    return YScale.nice(
      for: set.axisRange(spec.style, in: window) ?? set.valueRange(of: set.lines, in: 0..<set.count) ?? ValueRange(0, 1),
      maxIntervals: ChartMetrics.maxIntervals(plot: plot, lineWidth: spec.lineWidth))
  }
}
