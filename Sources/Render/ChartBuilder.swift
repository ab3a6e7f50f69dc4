import ChartModel
import Drawing
import SceneGraph

/// Draws one chart view (the article's ChartView: GraphsForChart, YTickerView, TickerView,
/// IndicatorView, RangeView, CheckMarksView) into display items.
struct ChartBuilder {
  /// The chart, whether it is a card's, and the frame it fills.
  let spec: ChartSpec, isCard: Bool, frame: Rect
  /// The colours, the colour under the chart (for the indicator's rings) and the texts' measurer.
  let theme: Theme, surface: Color, measurer: TextMeasurer
  /// The animated state, the chart's key in it, and the time drawn (nil: the model's state,
  /// no animation).
  let presentation: Presentation?, key: ChartKey?, t: Double
  var items: [DisplayItem] = []
  /// Draw the title (or the "Zoom Out" control with its magnifier); a zoom's fading layer
  /// draws none, so the magnifier never shows over the other layer's title.
  var drawsTitle = true

  mutating func build() -> [DisplayItem] {
    let window = presentation?.window(spec.data, at: t) ?? spec.data.window
    let parts = ChartParts.make(spec: spec, card: isCard, frame: frame, measurer: measurer, window: window)
    let snap = ChartSnapshot(spec: spec, plot: parts.plot, presentation: presentation, key: key, t: t)
    if !drawsTitle {
      // The other layer of a zoom's crossfade draws the title.
    } else if let r = parts.title, spec.base.zoom != nil, !spec.showsBase {
      zoomOutTitle(r)
    } else if let r = parts.title, let title = spec.title {
      let fitted = TextFit.fit(title, width: r.width, font: ChartMetrics.titleFont, measurer: measurer)
      // A right-to-left title starts at the right edge.
      let align = TextAlign.natural(title)
      // A font with a taller line than the row's (Arabic) is centred on it.
      let h = measurer.measure(fitted, font: ChartMetrics.titleFont).height
      let y = r.y - max(0, (h - r.height) / 2)
      items.append(.text(TextRun(fitted, font: ChartMetrics.titleFont, color: theme.text, origin: Point(align == .right ? r.maxX : r.x, y), align: align)))
    }
    let set = spec.data
    let plot = parts.plot
    // The mappings scripts get from cs.chartGeometry: one place for both.
    let geometry = ChartGeometry(plot: plot, lineWidth: spec.lineWidth, set: set, snapshot: snap)
    let axes = ChartAxes(spec: spec, parts: parts, snap: snap, measurer: measurer, presentation: presentation, key: key, t: t)
    // The series (SeriesBuilder.swift) clipped to the plot, the grid under or over them, the labels.
    let series = Series.plot(spec: spec, snap: snap, geometry: geometry)
    if !series.gridOver { drawAxes(axes, plot: plot) }
    items.append(.pushClip(.rect(series.clip(plot: plot))))
    items += series.draw(series.indices(in: snap.window))
    items.append(.popClip)
    if series.gridOver { drawAxes(axes, plot: plot) }
    drawLabels(axes, snap)
    if !spec.annotations.isEmpty {
      let poster = ChartParts.extraParts(spec: spec, parts: parts, snap: snap, frame: frame, measurer: measurer, zoomed: false).first { $0.0 == "poster" }?.1
      annotations(AnnotationLayout.place(spec, geometry: geometry, poster: poster, avoid: AnnotationLayout.labelBoxes(axes), theme: theme, measurer: measurer, t: t), plot: plot)
    }
    if let i = snap.indicatorIndex { indicator(snap, index: i, parts: parts, geometry: geometry, series: series) }
    if let mm = parts.minimap { minimap(mm, parts: parts, snap: snap) }
    for chip in parts.legend { if let line = set.line(id: chip.id) { self.chip(line, chip.frame, hidden: snap.hidden.contains(line.id)) } }
    if let more = parts.legendMore { moreChip(more.text, more.frame) }
    return items
  }

  // MARK: - Indicator

  /// The indicator at point i: bars dim every other column; areas and lines get the vertical
  /// line (lines of charts that are not stacked also their rings, each on its own axis);
  /// then the poster.
  mutating func indicator(_ snap: ChartSnapshot, index i: Int, parts: ChartParts, geometry: ChartGeometry, series: Series) {
    let set = spec.data
    let style = snap.style
    let linesRect = geometry.linesRect
    let x = geometry.indicatorX(set.xs[i])
    let barsOnly = !set.lines.isEmpty && set.lines.allSatisfy { style.kind(of: $0) == .bar }
    if barsOnly {
      let step = max(1, series.stepPx)
      let cx = geometry.x(set.xs[i])
      var dim = Path()
      dim.rect(Rect(parts.plot.x, linesRect.minY - spec.lineWidth, parts.plot.width, linesRect.maxY - linesRect.minY + spec.lineWidth))
      dim.rect(Rect(cx - step / 2, linesRect.minY - spec.lineWidth, step, linesRect.maxY - linesRect.minY + spec.lineWidth))
      items.append(.pushClip(.rect(parts.plot)))
      items.append(.path(dim, .fill(surface.multipliedAlpha(0.5))))
      items.append(.popClip)
    } else {
      items.append(.path(.line(Point(x, linesRect.minY - 6), Point(x, linesRect.maxY)), .stroke(theme.indicatorLine, width: 1, cap: .butt)))
      for (k, line) in set.lines.enumerated() where style.kind(of: line) == .line && !style.stacked {
        let a = snap.alpha[line.id] ?? 1
        guard a > 0.001, i < line.values.count, !line.values[i].isNaN else { continue }
        let p = Point(x, geometry.y(line.values[i], right: style.yScaled && k > 0))
        items.append(.path(.circle(p, 4.5), .fill(surface.multipliedAlpha(a))))
        items.append(.path(.circle(p, 4.5), .stroke(line.color.multipliedAlpha(a), width: 2)))
      }
    }
    if let p = ChartPoster.make(spec: spec, parts: parts, snap: snap, measurer: measurer) { poster(p) }
  }

  /// Draws a poster laid out by `ChartPoster`: the date, then one row per line (its share
  /// first on percentage charts; "+ N more" and a stack's total last).
  mutating func poster(_ p: ChartPoster) {
    let box = p.box
    items.append(.shadow(box, radius: 8, blur: 6, color: theme.shadow))
    items.append(.path(.rect(box, radius: 8), .fill(theme.posterBackground)))
    items.append(.path(.rect(box.inset(by: 0.5), radius: 8), .stroke(theme.posterBorder, width: 1)))
    let padX = ChartPoster.padX
    items.append(.text(TextRun(p.date, font: ChartMetrics.posterTitleFont, color: theme.text, origin: Point(box.x + padX, box.y + ChartPoster.padY))))
    var ry = box.y + ChartPoster.padY + p.dateHeight + 4
    for row in p.rows {
      var nx = box.x + padX
      if let percent = row.percent {
        items.append(.text(TextRun(percent, font: ChartMetrics.posterValueFont, color: theme.text, origin: Point(nx + p.percentWidth - 6, ry), align: .right)))
        nx += p.percentWidth
      }
      items.append(.text(TextRun(row.name, font: ChartMetrics.posterNameFont, color: theme.text, origin: Point(nx, ry + 1))))
      if !row.value.isEmpty {
        let valueColor = row.color.a > 0 ? row.color : theme.text
        items.append(.text(TextRun(row.value, font: ChartMetrics.posterValueFont, color: valueColor, origin: Point(box.maxX - padX, ry), align: .right)))
      }
      ry += ChartPoster.rowHeight
    }
  }

  // MARK: - Mini-map

  mutating func minimap(_ mm: Rect, parts: ChartParts, snap: ChartSnapshot) {
    let set = spec.data
    let radius = 6.0
    // The lines over the whole axis change only when a line fades or the size changes:
    // raster painters keep their pixels from frame to frame.
    let key = "minimap \(ObjectIdentifier(set).hashValue) \(mm.width)x\(mm.height) \(snap.style.key)" + set.lines.map { " \($0.id)=\(snap.alpha[$0.id] ?? 1)" }.joined()
    // A plain rectangle clip: cairo's fast path.
    let lines: [DisplayItem] = [.pushClip(.rect(mm))] + Series.minimap(spec: spec, snap: snap, mm: mm).draw(0..<set.count) + [.popClip]
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

  /// The chip that ends a legend too long for its room: "+ 121 more", outlined in the text
  /// colour (no check mark: it stands for no one line).
  mutating func moreChip(_ text: String, _ r: Rect) {
    let font = ChartMetrics.chipFont
    items.append(.path(.rect(r.inset(by: 0.75), radius: r.height / 2 - 0.75), .stroke(theme.text.multipliedAlpha(0.6), width: 1.5)))
    let fitted = TextFit.fit(text, width: r.width - 24, font: font, measurer: measurer)
    let ts = measurer.measure(fitted, font: font)
    items.append(.text(TextRun(fitted, font: font, color: theme.text, origin: Point(r.midX - ts.width / 2, r.midY - ts.height / 2))))
  }

  mutating func chip(_ line: Line, _ r: Rect, hidden: Bool) {
    let radius = r.height / 2
    let font = ChartMetrics.chipFont
    let ts = measurer.measure(line.name, font: font)
    if hidden {
      items.append(.path(.rect(r.inset(by: 0.75), radius: radius - 0.75), .stroke(line.color, width: 1.5)))
      let name = TextFit.fit(line.name, width: r.width - 24, font: font, measurer: measurer)
      let x = r.midX - measurer.measure(name, font: font).width / 2
      items.append(.text(TextRun(name, font: font, color: line.color, origin: Point(x, r.midY - ts.height / 2))))
    } else {
      items.append(.path(.rect(r, radius: radius), .fill(line.color)))
      var tick = Path()
      let cx = r.x + 12 + 8, cy = r.midY
      tick.move(to: Point(cx - 5.5, cy + 0.5))
      tick.line(to: Point(cx - 1.5, cy + 4.5))
      tick.line(to: Point(cx + 5.5, cy - 4))
      items.append(.path(tick, .stroke(theme.chipText, width: 2.2)))
      let name = TextFit.fit(line.name, width: r.width - (12 + 16 + 8) - 12, font: font, measurer: measurer)
      items.append(.text(TextRun(name, font: font, color: theme.chipText, origin: Point(r.x + 12 + 16 + 8, r.midY - ts.height / 2))))
    }
  }
}
