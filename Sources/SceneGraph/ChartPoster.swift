import ChartModel
import Drawing

/// The indicator's poster, of every chart type: where it goes and what it says. Shared by the
/// renderer, hit testing (`ID.poster`), annotations, lint and `--inspect`.
///
/// Always inside the plot: it sits right of the crosshair, flips left near the right edge;
/// on a plain line chart, when it must cover the crosshair it moves to the bottom of the plot
/// if that leaves the points under the crosshair uncovered. When not every row fits the
/// plot's height, the lines with the biggest values show (biggest first; by size on the other
/// types: a diverging stack's negatives count) and a last row says how many are left out
/// ("+ 88 more"); names too long for the plot's width end in `…`. Percentage charts put each
/// line's share first; stacked bars of more than one line end with their total.
public struct ChartPoster: Sendable {
  public struct Row: Sendable {
    public var name: String
    public var value: String
    /// The value's colour (the line's; clear: the text colour).
    public var color: Color
    /// The share in percent, for percentage charts ("42%").
    public var percent: String?
    public init(name: String, value: String, color: Color, percent: String?) {
      self.name = name; self.value = value; self.color = color; self.percent = percent
    }
  }
  public var box: Rect
  public var date: String
  public var rows: [Row]
  public var dateHeight: Double
  public var percentWidth: Double
  /// How many visible lines the poster leaves out (its "+ N more" row says so).
  public var left = 0

  public init(box: Rect, date: String, rows: [Row], dateHeight: Double, percentWidth: Double, left: Int = 0) {
    self.box = box; self.date = date; self.rows = rows; self.dateHeight = dateHeight; self.percentWidth = percentWidth; self.left = left
  }

  public static let rowHeight = 20.0
  public static let padX = 10.0
  public static let padY = 8.0

  /// The poster of the indicator at point i, drawn inside `plot` whose lines fill
  /// `linesRect`; x is the indicator's pixel column. `yOf`: where the points under the
  /// crosshair are, for a poster that keeps them uncovered (nil: it stays at the top). Nil
  /// when not even the date fits. With no room for any row, the date alone (the poster still
  /// marks the point and can be tapped).
  public static func make(spec: ChartSpec, style: ChartStyle, index i: Int, x: Double, linesRect: Rect, plot: Rect,
                          alpha: [String: Double], yOf: ((Double) -> Double)? = nil, measurer: TextMeasurer) -> ChartPoster? {
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
      // A shown line with no value here: the total is not known (issue 39: the sum of the
      // values present read as the total).
      let missing = set.visibleLines.contains { i >= $0.values.count || $0.values[i].isNaN }
      total = Row(name: "All", value: missing ? "–" : format.grouped(sum), color: Color(r: 0, g: 0, b: 0, a: 0), percent: nil)
    }
    let header = dateSize.height + 4 + 2 * padY - 4
    var room = max(0, Int(saturating: ((plot.height - 4 - header) / rowHeight).rounded(.down)))
    // The total takes a row of its own, unless that leaves none for the lines.
    if total != nil { if room >= 2 { room -= 1 } else { total = nil } }
    let bySize = !style.isPlainLines(set)
    let fit = fitRows(values: visible.map { bySize ? abs($0.values[i]) : $0.values[i] }, room: room)
    var rows: [Row] = fit.shown.map { k in
      let line = visible[k]
      return Row(name: line.name, value: format.grouped(line.values[i]), color: line.color,
                 percent: style.percentage ? shares[line.id].map { format.percent(String(Int(saturating: $0.rounded()))) } ?? "–" : nil)
    }
    if fit.more > 0 && rows.count < room { rows.append(Row(name: moreText(fit.more, format: format), value: "", color: Color(r: 0, g: 0, b: 0, a: 0), percent: nil)) }
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
    guard w <= plot.width, h <= plot.height, contentW > 0 else { return nil }
    var px = x + 14
    if px + w > plot.maxX { px = x - 14 - w }
    px = max(plot.x, min(plot.maxX - w, px))
    var py = max(plot.y, linesRect.minY - 4)
    if py + h > plot.maxY { py = plot.maxY - h }
    // Covering the crosshair: keep the points under it in view where the plot allows.
    if let yOf, px < x + 5 && px + w > x - 5 {
      let ys = visible.map { yOf($0.values[i]) }
      func covers(_ top: Double) -> Bool { ys.contains { $0 > top - 6 && $0 < top + h + 6 } }
      if covers(py) {
        let bottom = plot.maxY - h
        if !covers(bottom) { py = bottom }
      }
    }
    return ChartPoster(box: Rect(px, py, w, h), date: date, rows: rows, dateHeight: dateSize.height, percentWidth: percentWidth, left: fit.more)
  }

  /// The poster of a chart as drawn now (nil when the indicator is not shown or no poster fits).
  public static func make(spec: ChartSpec, parts: ChartParts, snap: ChartSnapshot, measurer: TextMeasurer) -> ChartPoster? {
    guard let i = snap.indicatorIndex else { return nil }
    let geometry = ChartGeometry(plot: parts.plot, lineWidth: spec.lineWidth, set: spec.data, snapshot: snap)
    // A plain line chart's poster gives way to the rings under the crosshair.
    let left = geometry.left
    let yOf: ((Double) -> Double)? = snap.style.isPlainLines(spec.data) ? { left.y($0) } : nil
    return make(spec: spec, style: snap.style, index: i, x: geometry.indicatorX(spec.data.xs[i]), linesRect: geometry.linesRect,
                plot: geometry.plot, alpha: snap.alpha, yOf: yOf, measurer: measurer)
  }

  /// The rows a poster with `room` rows shows of lines with these values: all of them in
  /// their order when they fit; otherwise the `room - 1` biggest (biggest first, ties in line
  /// order) and the number left out, which the last row says. With room for one row, the
  /// biggest alone: a value says more than a count (issue 39: a date and "+ 2 more" and no
  /// value at all).
  public static func fitRows(values: [Double], room: Int) -> (shown: [Int], more: Int) {
    if values.count <= room { return (Array(values.indices), 0) }
    guard room > 0 else { return ([], values.count) }
    let order = values.indices.sorted { values[$0] != values[$1] ? values[$0] > values[$1] : $0 < $1 }
    let shown = Array(order.prefix(max(1, room - 1)))
    return (shown, values.count - shown.count)
  }

  /// "+ 88 more" (the count grouped as the chart's numbers are).
  public static func moreText(_ n: Int, format: DisplayFormat) -> String { "+ \(format.grouped(Double(n))) more" }
}
