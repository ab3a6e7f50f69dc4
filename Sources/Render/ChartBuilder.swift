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
  /// Draw the title (or the "Zoom Out" control with its magnifier); a zoom's fading layer
  /// draws none, so the magnifier never shows over the other layer's title.
  var drawsTitle = true

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
    if !drawsTitle {
      // The other layer of a zoom's crossfade draws the title.
    } else if let r = parts.title, spec.base.zoom != nil, !spec.showsBase {
      zoomOutTitle(r)
    } else if let r = parts.title, let title = spec.title {
      let fitted = TextFit.fit(title, width: r.width, font: ChartMetrics.titleFont, measurer: measurer)
      // A right-to-left title starts at the right edge.
      let align = TextAlign.natural(title)
      items.append(.text(TextRun(fitted, font: ChartMetrics.titleFont, color: theme.text, origin: Point(align == .right ? r.maxX : r.x, r.y), align: align)))
    }
    let set = spec.data
    let plot = parts.plot
    // The mappings scripts get from cs.chartGeometry: one place for both.
    let geometry = ChartGeometry(plot: plot, lineWidth: spec.lineWidth, set: set, snapshot: snap)
    let linesRect = geometry.linesRect
    let xOf = { (t: Double) -> Double in geometry.x(t) }
    let yOf = { (v: Double) -> Double in geometry.y(v) }
    let axes = ChartAxes(spec: spec, parts: parts, snap: snap, measurer: measurer,
                         rest: ChartAxes.rest(spec: spec, presentation: presentation, t: t),
                         reference: ChartAxes.referenceWindow(spec: spec, presentation: presentation, t: t),
                         xLevel: presentation?.xLevel(key, spec.data, at: t))
    // Round-two charts (bars, stacks, percentages, two axes) are drawn by SeriesBuilder.swift.
    let plain = snap.style.isPlainLines(set)
    if plain {
      drawAxes(axes, plot: plot)
      lines(snap: snap, plot: plot, xOf: xOf, yOf: yOf)
      drawLabels(axes)
    } else {
      typedChart(axes, snap, geometry: geometry)
    }
    if !spec.annotations.isEmpty {
      let poster = ChartParts.extraParts(spec: spec, parts: parts, snap: snap, frame: frame, measurer: measurer, zoomed: false).first { $0.0 == "poster" }?.1
      annotations(AnnotationLayout.place(spec, geometry: geometry, poster: poster, avoid: AnnotationLayout.labelBoxes(axes), theme: theme, measurer: measurer, t: t), plot: plot)
    }
    if let i = snap.indicatorIndex, plain { indicator(index: i, plot: plot, linesRect: linesRect, xOf: xOf, yOf: yOf, alpha: snap.alpha) }
    if let i = snap.indicatorIndex, !plain { typedIndicator(snap, index: i, parts: parts, geometry: geometry) }
    if let mm = parts.minimap { minimap(mm, parts: parts, snap: snap) }
    for chip in parts.legend { if let line = set.line(id: chip.id) { self.chip(line, chip.frame, hidden: snap.hidden.contains(line.id)) } }
    if let more = parts.legendMore { moreChip(more.text, more.frame) }
    return items
  }

  // MARK: - Lines

  mutating func stroke(_ polylines: [[Point]], color: Color, width: Double, join: LineJoin = .round) {
    let path = Path.polylines(polylines, dots: true)  // a lone point between gaps: a dot
    if !path.isEmpty { items.append(.path(path, .stroke(color, width: width, join: join))) }
  }

  // MARK: - Indicator

  mutating func indicator(index i: Int, plot: Rect, linesRect: Rect, xOf: (Double) -> Double, yOf: (Double) -> Double, alpha: [String: Double]) {
    let set = spec.data
    let x = xOf(set.xs[i]).rounded() + 0.5
    items.append(.path(.line(Point(x, linesRect.minY - 6), Point(x, linesRect.maxY)), .stroke(theme.indicatorLine, width: 1, cap: .butt)))
    for line in set.lines where (alpha[line.id] ?? 1) > 0.001 && i < line.values.count && !line.values[i].isNaN {
      let a = alpha[line.id] ?? 1
      let p = Point(x, yOf(line.values[i]))
      items.append(.path(.circle(p, 4.5), .fill(surface.multipliedAlpha(a))))
      items.append(.path(.circle(p, 4.5), .stroke(line.color.multipliedAlpha(a), width: 2)))
    }
    // The poster: date, then one row per visible line (name left, value right).
    let layout = PosterLayout(spec: spec, index: i, x: x, plot: plot, linesRect: linesRect, yOf: yOf, measurer: measurer)
    let rows = layout.rows
    let rowHeight = PosterLayout.rowHeight
    let padX = PosterLayout.padX, padY = PosterLayout.padY
    guard let box = layout.box else { return }
    let (px, py, w) = (box.x, box.y, box.width)
    items.append(.shadow(box, radius: 8, blur: 6, color: theme.shadow))
    items.append(.path(.rect(box, radius: 8), .fill(theme.posterBackground)))
    items.append(.path(.rect(box.inset(by: 0.5), radius: 8), .stroke(theme.posterBorder, width: 1)))
    items.append(.text(TextRun(layout.date, font: ChartMetrics.posterTitleFont, color: theme.text, origin: Point(px + padX, py + padY))))
    var ry = py + padY + layout.dateHeight + 4
    for row in rows {
      items.append(.text(TextRun(row.0, font: ChartMetrics.posterNameFont, color: theme.text, origin: Point(px + padX, ry + 1))))
      items.append(.text(TextRun(row.1, font: ChartMetrics.posterValueFont, color: row.2, origin: Point(px + w - padX, ry), align: .right)))
      ry += rowHeight
    }
    if let more = layout.more {
      items.append(.text(TextRun(more, font: ChartMetrics.posterNameFont, color: theme.text, origin: Point(px + padX, ry + 1))))
    }
  }

  // MARK: - Mini-map

  mutating func minimap(_ mm: Rect, parts: ChartParts, snap: ChartSnapshot) {
    let set = spec.data
    let radius = 6.0
    let range = snap.overviewRange ?? ValueRange(0, 1)
    let inner = mm.inset(top: 3, bottom: 3)
    let scale = PlotScale(x: mm, from: set.firstMs, to: set.lastMs, y: inner, range: range)
    let xOf = scale.x
    let yOf = scale.y
    // The lines over the whole axis change only when a line fades or the size changes:
    // raster painters keep their pixels from frame to frame.
    var lines: [DisplayItem] = [.pushClip(.rect(mm))]  // a plain rectangle: cairo's fast path
    var key = "minimap \(ObjectIdentifier(set).hashValue) \(mm.width)x\(mm.height)"
    let plain = snap.style.isPlainLines(set)
    if !plain {
      key += " \(snap.style)" + set.lines.map { " \($0.id)=\(snap.alpha[$0.id] ?? 1)" }.joined()
      lines += typedMinimap(snap, scale: scale)
    }
    for line in set.lines where plain {
      let alpha = snap.alpha[line.id] ?? 1
      guard alpha > 0.001 else { continue }
      key += " \(line.id)=\(alpha)"
      let pls = set.memoized("minimap \(line.id) \(mm) \(range)") { set.polylines(for: line, indices: 0..<set.count, xToPixel: xOf, yToPixel: yOf) }
      if set.count > Decimation.exactLimit {
        // Decimated to pixel columns: an even band, not a moiré of beads (DenseLine.envelope).
        let band = DenseLine.envelope(pls, halfWidth: 0.5)
        if !band.isEmpty { lines.append(.path(band, .fill(line.color.multipliedAlpha(alpha)))) }
        continue
      }
      let path = Path.polylines(pls)
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
