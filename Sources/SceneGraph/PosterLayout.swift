import ChartModel
import Drawing

/// The indicator's poster: its texts and where it stands. Always inside the plot: it sits
/// right of the crosshair, flips left near the right edge, and when it must cover the
/// crosshair it moves to the top or bottom of the plot, whichever leaves the points under
/// the crosshair uncovered. When not every row fits the plot's height, the lines with the
/// biggest values show (biggest first) and a last row says how many are left out
/// ("+ 88 more"); names too long for the plot's width end in `…`.
public struct PosterLayout {
  public static let rowHeight = 20.0
  public static let padX = 10.0
  public static let padY = 8.0

  public var date: String
  public var dateHeight: Double
  /// Name (fitted), value text, colour per visible line.
  public var rows: [(String, String, Color)]
  /// The last row when some lines are left out ("+ 88 more"), nil when every line shows.
  public var more: String?
  /// How many visible lines the poster leaves out.
  public var left = 0
  /// nil when not even the date fits the plot.
  public var box: Rect?

  public init(spec: ChartSpec, index i: Int, x: Double, plot: Rect, linesRect: Rect, yOf: (Double) -> Double, measurer: TextMeasurer) {
    let set = spec.data
    let format = spec.format
    date = format.poster(set.xs[i], precision: format.precision(of: set))
    var dateSize = measurer.measure(date, font: ChartMetrics.posterTitleFont)
    dateHeight = dateSize.height
    let padX = PosterLayout.padX, padY = PosterLayout.padY
    let maxW = plot.width - 4
    if dateSize.width + 2 * padX > maxW {
      date = TextFit.fit(date, width: maxW - 2 * padX, font: ChartMetrics.posterTitleFont, measurer: measurer)
      dateSize.width = measurer.measure(date, font: ChartMetrics.posterTitleFont).width
    }
    let visible = set.visibleLines.filter { i < $0.values.count && !$0.values[i].isNaN }
    let values = visible.map { format.grouped($0.values[i]) }
    let valueWidths = values.map { measurer.measure($0, font: ChartMetrics.posterValueFont).width }
    let nameWidths = visible.map { measurer.measure($0.name, font: ChartMetrics.posterNameFont).width }
    let header = dateSize.height + 4 + 2 * padY - 4
    let fitRows = max(0, Int(saturating: ((plot.height - 4 - header) / PosterLayout.rowHeight).rounded(.down)))
    let fit = PosterLayout.fitRows(values: visible.map { $0.values[i] }, room: fitRows)
    // No room for any row: the date alone (the poster still marks the point and can be tapped).
    more = fit.more > 0 && fitRows > 0 ? PosterLayout.moreText(fit.more, format: format) : nil
    left = fit.more
    var contentW = dateSize.width
    for k in fit.shown { contentW = max(contentW, nameWidths[k] + 20 + valueWidths[k]) }
    if let more { contentW = max(contentW, measurer.measure(more, font: ChartMetrics.posterNameFont).width) }
    contentW = min(contentW, maxW - 2 * padX)
    rows = fit.shown.map { k in
      let room = contentW - 20 - valueWidths[k]
      let name = TextFit.fit(visible[k].name, width: max(0, room), font: ChartMetrics.posterNameFont, measurer: measurer)
      return (name, values[k], visible[k].color)
    }
    let shown = rows.count + (more == nil ? 0 : 1)
    let w = (contentW + 2 * padX).rounded(.up)
    let h = (header + Double(shown) * PosterLayout.rowHeight).rounded(.up)
    guard w <= plot.width, h <= plot.height, contentW > 0 else { box = nil; return }
    var px = x + 14
    if px + w > plot.maxX { px = x - 14 - w }
    px = max(plot.x, min(plot.maxX - w, px))
    var py = max(plot.y, linesRect.minY - 4)
    if py + h > plot.maxY { py = plot.maxY - h }
    // Covering the crosshair: keep the points under it in view where the plot allows.
    if px < x + 5 && px + w > x - 5 {
      let ys = visible.map { yOf($0.values[i]) }
      func covers(_ top: Double) -> Bool { ys.contains { $0 > top - 6 && $0 < top + h + 6 } }
      if covers(py) {
        let bottom = plot.maxY - h
        if !covers(bottom) { py = bottom }
      }
    }
    box = Rect(px, py, w, h)
  }

  /// The rows a poster with `room` rows shows of lines with these values: all of them in
  /// their order when they fit; otherwise the `room - 1` biggest (biggest first, ties in line
  /// order) and the number left out, which the last row says.
  public static func fitRows(values: [Double], room: Int) -> (shown: [Int], more: Int) {
    if values.count <= room { return (Array(values.indices), 0) }
    guard room > 0 else { return ([], values.count) }
    let order = values.indices.sorted { values[$0] != values[$1] ? values[$0] > values[$1] : $0 < $1 }
    let shown = Array(order.prefix(room - 1))
    return (shown, values.count - shown.count)
  }

  /// "+ 88 more" (the count grouped as the chart's numbers are).
  public static func moreText(_ n: Int, format: DisplayFormat) -> String { "+ \(format.grouped(Double(n))) more" }
}
