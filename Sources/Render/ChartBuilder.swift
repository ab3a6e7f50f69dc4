import ChartModel
import Drawing
import SceneGraph

/// Draws one chart view (the article's ChartView: GraphsForChart, YTickerView, TickerView,
/// IndicatorView, RangeView, CheckMarksView) into display items.
struct ChartBuilder {
  let spec: ChartSpec
  let isCard: Bool
  let frame: Rect
  let theme: Theme
  /// The colour under the chart (for the indicator's rings).
  let surface: Color
  let measurer: TextMeasurer
  /// The animated state and the time drawn (nil: the model's state, no animation).
  let presentation: Presentation?
  let key: String
  let t: Double
  var items: [DisplayItem] = []

  init(spec: ChartSpec, isCard: Bool, frame: Rect, theme: Theme, surface: Color, measurer: TextMeasurer,
       presentation: Presentation? = nil, key: String = "", t: Double = 0) {
    self.spec = spec; self.isCard = isCard; self.frame = frame; self.theme = theme
    self.surface = surface; self.measurer = measurer
    self.presentation = presentation; self.key = key; self.t = t
  }

  mutating func build() -> [DisplayItem] {
    let window = presentation?.window(spec.data, at: t) ?? spec.data.window
    let parts = ChartParts.make(spec: spec, card: isCard, frame: frame, measurer: measurer, window: window)
    let snap = ChartSnapshot(spec: spec, plot: parts.plot, presentation: presentation, key: key, t: t)
    if let r = parts.title, let title = spec.title {
      items.append(.text(TextRun(title, font: ChartMetrics.titleFont, color: theme.text, origin: Point(r.x, r.y))))
    }
    let set = spec.data
    let tLo = set.time(atFraction: snap.window.lo), tHi = set.time(atFraction: snap.window.hi)
    let plot = parts.plot
    let linesRect = ChartMetrics.linesRect(plot: plot, lineWidth: spec.lineWidth)
    let yRange = snap.yRange
    let xOf = { (t: Double) -> Double in tHi > tLo ? plot.x + (t - tLo) / (tHi - tLo) * plot.width : plot.midX }
    let yOf = { (v: Double) -> Double in
      linesRect.maxY - (v - yRange.min) / (yRange.max - yRange.min) * linesRect.height
    }

    if spec.yAxis { for (scale, alpha) in snap.ticks { grid(yScale: scale, alpha: alpha, plot: plot, yOf: yOf) } }

    // Lines of the window, clipped to the plot (with room for the stroke at the top).
    items.append(.pushClip(.rect(plot.inset(top: -spec.lineWidth, bottom: -spec.lineWidth))))
    let idx = set.drawIndices(in: snap.window)
    for line in set.lines {
      let alpha = snap.alpha[line.id] ?? 1
      guard alpha > 0.001 else { continue }
      let polylines = Decimation.polylines(xs: set.xs, ys: line.values, indices: idx, xToPixel: xOf, yToPixel: yOf)
      stroke(polylines, color: line.color.multipliedAlpha(alpha), width: spec.lineWidth)
    }
    items.append(.popClip)

    if spec.yAxis { for (scale, alpha) in snap.ticks { yLabels(yScale: scale, alpha: alpha, plot: plot, yOf: yOf) } }
    if let band = parts.xAxis { xLabels(band: band, plot: plot, tLo: tLo, tHi: tHi, xOf: xOf) }
    if let i = snap.indicatorIndex { indicator(index: i, linesRect: linesRect, xOf: xOf, yOf: yOf, alpha: snap.alpha) }
    if let mm = parts.minimap { minimap(mm, parts: parts, snap: snap) }
    for chip in parts.legend { if let line = set.line(id: chip.id) { self.chip(line, chip.frame, hidden: snap.hidden.contains(line.id)) } }
    return items
  }

  // MARK: - Axes

  mutating func grid(yScale: YScale, alpha: Double, plot: Rect, yOf: (Double) -> Double) {
    guard alpha > 0.001 else { return }
    for (k, v) in yScale.ticks.enumerated() {
      let y = (yOf(v)).rounded() + 0.5
      guard y >= plot.minY - 1, y <= plot.maxY + 1 else { continue }
      let color = (k == 0 ? theme.zeroLine : theme.grid).multipliedAlpha(alpha)
      items.append(.path(.line(Point(plot.x, y), Point(plot.maxX, y)), .stroke(color, width: 1, cap: .butt)))
    }
  }

  mutating func yLabels(yScale: YScale, alpha: Double, plot: Rect, yOf: (Double) -> Double) {
    guard alpha > 0.001 else { return }
    let h = measurer.measure("0", font: ChartMetrics.axisFont).height
    for v in yScale.ticks {
      let text = CompactNumber.format(v, step: yScale.step)
      let y = yOf(v).rounded() - h - 2
      guard y >= plot.minY - h, y <= plot.maxY else { continue }
      items.append(.text(TextRun(text, font: ChartMetrics.axisFont, color: theme.axisText.multipliedAlpha(alpha), origin: Point(plot.x, y),
                                 halo: surface.multipliedAlpha(alpha))))
    }
  }

  mutating func xLabels(band: Rect, plot: Rect, tLo: Double, tHi: Double, xOf: (Double) -> Double) {
    let set = spec.data
    let sample = set.typicalStepMs < 86_400_000 - 1 ? "00:00" : "Sep 30"
    // About six labels across a wide plot; never closer than a label and a gap.
    let labelWidth = max(measurer.measure(sample, font: ChartMetrics.axisFont).width + 24, plot.width / 7)
    if tHi <= tLo {
      // One point: one label under it.
      let text = set.typicalStepMs < 86_400_000 - 1 ? DateText.hourMinute(tLo) : DateText.monthDay(tLo)
      let w = measurer.measure(text, font: ChartMetrics.axisFont).width
      items.append(.text(TextRun(text, font: ChartMetrics.axisFont, color: theme.axisText, origin: Point(plot.midX - w / 2, band.y + 6))))
      return
    }
    let made = DateTicks.make(tLo: tLo, tHi: tHi, plotWidth: plot.width, labelWidth: labelWidth, stepMs: set.typicalStepMs, lastMs: set.lastMs)
    // The labels halfway between fade in as the zoom makes room for them (and out as it
    // takes it away), so the density changes smoothly; at full opacity they would be the
    // next stride's labels. They never come closer than a label and a gap.
    let textWidth = measurer.measure(sample, font: ChartMetrics.axisFont).width
    let halfPx = made.stride / 2 * plot.width / (tHi - tLo)
    // They appear over the last fifth of the zoom before the stride halves, so a still at
    // any other zoom shows no faint labels.
    let from = max(textWidth + 10, labelWidth * 0.8)
    let fade = made.stride / 2 >= set.typicalStepMs ? max(0, min(1, (halfPx - from) / max(1, labelWidth - from))) : 0
    var ticks = made.ticks.map { ($0, 1.0) }
    if fade > 0.01 {
      let useTime = made.stride / 2 < 86_400_000 - 1
      // Anchored like the others: on the last point, a half stride off.
      var t = set.lastMs - made.stride / 2 - ((set.lastMs - made.stride / 2 - tLo) / made.stride).rounded(.down) * made.stride
      while t <= tHi + 1e-6 {
        if t >= tLo - 1e-6 {
          ticks.append((DateTick(timeMs: t, text: useTime ? DateText.hourMinute(t) : DateText.monthDay(t)), fade))
        }
        t += made.stride
      }
      ticks.sort { $0.0.timeMs < $1.0.timeMs }
    }
    var lastRight = -Double.infinity
    for (tick, alpha) in ticks {
      let w = measurer.measure(tick.text, font: ChartMetrics.axisFont).width
      // Keep labels inside the plot; skip one that would then touch its neighbour.
      var x = xOf(tick.timeMs) - w / 2
      x = max(plot.x, min(plot.maxX - w, x))
      if x < lastRight + 8 { continue }
      lastRight = x + w
      items.append(.text(TextRun(tick.text, font: ChartMetrics.axisFont, color: theme.axisText.multipliedAlpha(alpha), origin: Point(x, band.y + 6))))
    }
  }

  // MARK: - Lines

  mutating func stroke(_ polylines: [[Point]], color: Color, width: Double) {
    var path = Path()
    for pl in polylines {
      guard let first = pl.first else { continue }
      path.move(to: first)
      if pl.count == 1 { path.line(to: first) }  // a lone point between gaps: a dot
      for p in pl.dropFirst() { path.line(to: p) }
    }
    if !path.isEmpty { items.append(.path(path, .stroke(color, width: width))) }
  }

  // MARK: - Indicator

  mutating func indicator(index i: Int, linesRect: Rect, xOf: (Double) -> Double, yOf: (Double) -> Double, alpha: [String: Double]) {
    let set = spec.data
    let x = xOf(set.xs[i]).rounded() + 0.5
    items.append(.path(.line(Point(x, linesRect.minY - 6), Point(x, linesRect.maxY)), .stroke(theme.indicatorLine, width: 1, cap: .butt)))
    let visible = set.visibleLines.filter { i < $0.values.count && !$0.values[i].isNaN }
    for line in set.lines where (alpha[line.id] ?? 1) > 0.001 && i < line.values.count && !line.values[i].isNaN {
      let a = alpha[line.id] ?? 1
      let p = Point(x, yOf(line.values[i]))
      items.append(.path(.circle(p, 4.5), .fill(surface.multipliedAlpha(a))))
      items.append(.path(.circle(p, 4.5), .stroke(line.color.multipliedAlpha(a), width: 2)))
    }
    // The poster: date, then one row per visible line (name left, value right).
    let date = DateText.poster(set.xs[i])
    let dateSize = measurer.measure(date, font: ChartMetrics.posterTitleFont)
    let rows = visible.map { line -> (String, String, Color, Double, Double) in
      let value = CompactNumber.grouped(line.values[i])
      let nw = measurer.measure(line.name, font: ChartMetrics.posterNameFont).width
      let vw = measurer.measure(value, font: ChartMetrics.posterValueFont).width
      return (line.name, value, line.color, nw, vw)
    }
    let rowHeight = 20.0
    let padX = 10.0, padY = 8.0
    let contentW = max(dateSize.width, rows.map { $0.3 + 20 + $0.4 }.max() ?? 0)
    let w = (contentW + 2 * padX).rounded(.up)
    let h = (dateSize.height + 4 + Double(rows.count) * rowHeight + 2 * padY - 4).rounded(.up)
    var px = x + 14
    if px + w > frame.maxX { px = x - 14 - w }
    px = max(frame.x, min(frame.maxX - w, px))
    let py = max(frame.y, linesRect.minY - 4)
    let box = Rect(px, py, w, h)
    items.append(.shadow(box, radius: 8, blur: 6, color: theme.shadow))
    items.append(.path(.rect(box, radius: 8), .fill(theme.posterBackground)))
    items.append(.path(.rect(box.inset(by: 0.5), radius: 8), .stroke(theme.posterBorder, width: 1)))
    items.append(.text(TextRun(date, font: ChartMetrics.posterTitleFont, color: theme.text, origin: Point(px + padX, py + padY))))
    var ry = py + padY + dateSize.height + 4
    for row in rows {
      items.append(.text(TextRun(row.0, font: ChartMetrics.posterNameFont, color: theme.text, origin: Point(px + padX, ry + 1))))
      items.append(.text(TextRun(row.1, font: ChartMetrics.posterValueFont, color: row.2, origin: Point(px + w - padX, ry), align: .right)))
      ry += rowHeight
    }
  }

  // MARK: - Mini-map

  mutating func minimap(_ mm: Rect, parts: ChartParts, snap: ChartSnapshot) {
    let set = spec.data
    let radius = 6.0
    let range = snap.overviewRange ?? ValueRange(0, 1)
    let span = range.max > range.min ? range.max - range.min : 1
    let inner = mm.inset(top: 3, bottom: 3)
    let xOf = { (t: Double) -> Double in set.spanMs > 0 ? mm.x + (t - set.firstMs) / set.spanMs * mm.width : mm.midX }
    let yOf = { (v: Double) -> Double in
      range.max > range.min ? inner.maxY - (v - range.min) / span * inner.height : inner.midY
    }
    // The lines over the whole axis change only when a line fades or the size changes:
    // raster painters keep their pixels from frame to frame.
    var lines: [DisplayItem] = [.pushClip(.rect(mm))]  // a plain rectangle: cairo's fast path
    var key = "minimap \(ObjectIdentifier(set).hashValue) \(mm.width)x\(mm.height)"
    for line in set.lines {
      let alpha = snap.alpha[line.id] ?? 1
      guard alpha > 0.001 else { continue }
      key += " \(line.id)=\(alpha)"
      let pls = Decimation.polylines(xs: set.xs, ys: line.values, indices: 0..<set.count, xToPixel: xOf, yToPixel: yOf)
      var path = Path()
      for pl in pls {
        guard let first = pl.first else { continue }
        path.move(to: first)
        for p in pl.dropFirst() { path.line(to: p) }
      }
      if !path.isEmpty { lines.append(.path(path, .stroke(line.color.multipliedAlpha(alpha), width: 1))) }
    }
    lines.append(.popClip)
    items.append(.cached(key: key, bounds: mm, items: lines))
    guard let win = parts.minimapWindow else { return }
    // Dim what is outside the window: the rounded mini-map with the window cut out.
    var dim = Path()
    dim.rect(mm, radius: radius)
    dim.rect(win)
    items.append(.path(dim, .fill(theme.minimapDim)))
    // The window: thick handles left and right, thin borders top and bottom.
    let hw = parts.minimapLeft?.width ?? ChartMetrics.handleWidth
    var frame = Path()
    frame.rect(win, radius: radius)
    frame.rect(Rect(win.x + hw, win.y + 1.5, max(0, win.width - 2 * hw), max(0, win.height - 3)))
    items.append(.path(frame, .fill(theme.minimapFrame)))  // even-odd: the inner rect is a hole
    for hx in [win.x + hw / 2, win.maxX - hw / 2] {
      let grip = Rect(hx - 1, win.midY - 5, 2, 10)
      items.append(.path(.rect(grip, radius: 1), .fill(theme.minimapGrip)))
    }
  }

  // MARK: - Check marks

  mutating func chip(_ line: Line, _ r: Rect, hidden: Bool) {
    let radius = r.height / 2
    let font = ChartMetrics.chipFont
    let ts = measurer.measure(line.name, font: font)
    if hidden {
      items.append(.path(.rect(r.inset(by: 0.75), radius: radius - 0.75), .stroke(line.color, width: 1.5)))
      let x = r.midX - ts.width / 2
      items.append(.text(TextRun(line.name, font: font, color: line.color, origin: Point(x, r.midY - ts.height / 2))))
    } else {
      items.append(.path(.rect(r, radius: radius), .fill(line.color)))
      var tick = Path()
      let cx = r.x + 12 + 8, cy = r.midY
      tick.move(to: Point(cx - 5.5, cy + 0.5))
      tick.line(to: Point(cx - 1.5, cy + 4.5))
      tick.line(to: Point(cx + 5.5, cy - 4))
      items.append(.path(tick, .stroke(theme.chipText, width: 2.2)))
      items.append(.text(TextRun(line.name, font: font, color: theme.chipText, origin: Point(r.x + 12 + 16 + 8, r.midY - ts.height / 2))))
    }
  }
}
