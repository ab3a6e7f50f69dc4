import ChartModel
import Drawing
import SceneGraph

/// Draws the series of a round-two chart (bars, stacked bars, stacked and percentage areas,
/// lines on two axes) into a rect, for the plot and the mini-map alike. Each line is one
/// path, whatever the number of points: columns narrower than a pixel are merged into one
/// per pixel column (the point with the largest total stands for it), so the cost grows
/// with pixels, not points.
struct SeriesPainter {
  let set: ChartSet
  let style: ChartStyle
  /// Opacity of each line by id (1 shown, 0 hidden, between while fading).
  let alpha: [String: Double]
  let lineWidth: Double
  /// Where times and values go.
  let xOf: (Double) -> Double
  let yLeft: (Double) -> Double
  /// The right axis of a two-axis chart.
  let yRight: ((Double) -> Double)?
  /// The width of a column when the time axis has no width (one point, or points all at one
  /// time): a bar a third of the rect wide, at most 80 px, not a hairline.
  var loneStep = 0.0

  var weights: [Double] { self.set.lines.map { max(0, min(1, alpha[$0.id] ?? 1)) } }

  /// The width of one column in pixels (the data's typical step).
  var stepPx: Double {
    let step = abs(xOf(set.firstMs + set.typicalStepMs) - xOf(set.firstMs))
    return step > 0 || set.spanMs > 0 ? step : loneStep
  }

  /// `loneStep` for a rect of this width.
  static func loneStep(width: Double) -> Double { min(80, width / 3).rounded() }

  func yOf(_ k: Int) -> (Double) -> Double { style.yScaled && k > 0 ? (yRight ?? yLeft) : yLeft }

  /// The points to draw: all of them, or one per pixel column when they are denser than
  /// `perPixel` a pixel (the one with the largest stacked total).
  func representatives(_ idx: Range<Int>, perPixel: Double) -> [Int] {
    guard !idx.isEmpty else { return [] }
    let span = abs(xOf(set.xs[idx.upperBound - 1]) - xOf(set.xs[idx.lowerBound]))
    if Double(idx.count) <= max(2, span * perPixel) { return Array(idx) }
    let w = weights
    var out: [Int] = []
    var column = Double.nan, best = -1, bestTotal = -Double.infinity
    for i in idx {
      let c = xOf(set.xs[i]).rounded(.down)
      let total = Stacking.total(set.lines, weights: w, at: i)
      if c != column {
        if best >= 0 { out.append(best) }
        column = c; best = i; bestTotal = total
      } else if total > bestTotal {
        best = i; bestTotal = total
      }
    }
    if best >= 0 { out.append(best) }
    return out
  }

  /// Every line's lower and upper value at point i (bottom line first): diverging stacked
  /// sums (weighted by opacity; shares in percent for percentage charts; see `Stacking` for
  /// gaps: bars leave the missing segment out, areas and lines break), or 0 and the value.
  func bounds(at i: Int, weights w: [Double]) -> [(lo: Double, hi: Double)] {
    if style.stacked {
      return Stacking.bounds(set.lines, weights: w, at: i, percentage: style.percentage, breakOnGap: style.type != .bar)
    }
    return set.lines.map { line in
      let v = i < line.values.count ? line.values[i] : .nan
      return (0, v)
    }
  }

  func draw(_ idx: Range<Int>) -> [DisplayItem] {
    var items: [DisplayItem] = []
    let w = weights
    // Bars first (under), then areas, then lines, so thin lines stay visible.
    let barLines = set.lines.indices.filter { style.kind(of: set.lines[$0]) == .bar }
    let areaLines = set.lines.indices.filter { style.kind(of: set.lines[$0]) == .area }
    let lineLines = set.lines.indices.filter { style.kind(of: set.lines[$0]) == .line }
    if !barLines.isEmpty { items += bars(barLines, idx, w) }
    if !areaLines.isEmpty { items += areas(areaLines, idx, w) }
    if !lineLines.isEmpty { items += lines(lineLines, idx, w) }
    return items
  }

  // MARK: - Bars

  /// Columns centred on their points, touching. A stacked chart's columns shrink as a line
  /// fades; a lone series fades its colour instead.
  func bars(_ ks: [Int], _ idx: Range<Int>, _ w: [Double]) -> [DisplayItem] {
    let step = stepPx
    let merged = step < 1
    let reps = merged ? representatives(idx, perPixel: 1) : Array(idx)
    guard !reps.isEmpty else { return [] }
    // Column edges: [x - step/2, x + step/2], or whole pixel columns when merged.
    var edges: [(l: Double, r: Double)] = []
    edges.reserveCapacity(reps.count)
    for i in reps {
      let x = xOf(set.xs[i])
      edges.append(merged ? (x.rounded(.down), x.rounded(.down) + 1) : (x - step / 2, x + step / 2))
    }
    let allBounds = reps.map { bounds(at: $0, weights: w) }
    var items: [DisplayItem] = []
    // Bars of several lines that are not stacked stand side by side in each slot (in line
    // order, 80 % of the slot, each as wide as its opacity lets it: a fading line narrows).
    let grouped = !style.stacked && ks.count > 1
    let groupWeight = ks.reduce(0.0) { $0 + w[$1] }
    var before = 0.0
    for k in ks {
      let a = w[k]
      guard a > 0.001 else { continue }
      let y = yOf(k)
      if grouped {
        let from = before / groupWeight, to = (before + a) / groupWeight
        before += a
        var path = Path()
        for (n, b) in allBounds.enumerated() {
          let (lo, hi) = b[k]
          guard !hi.isNaN, !lo.isNaN else { continue }
          let (l, r) = edges[n]
          let gw = (r - l) * 0.8, gl = l + (r - l) * 0.1
          let sl = gl + gw * from, sr = gl + gw * to
          let yt = y(hi), yb = y(lo)
          path.move(to: Point(sl, yt)); path.line(to: Point(sr, yt)); path.line(to: Point(sr, yb)); path.line(to: Point(sl, yb))
          path.close()
        }
        if !path.isEmpty { items.append(.path(path, .fill(set.lines[k].color))) }
        continue
      }
      var path = Path()
      var open = false
      var bottom: [(Double, Double, Double)] = []  // l, r, y of the lower edge, for the way back
      func close() {
        for (l, r, yb) in bottom.reversed() { path.line(to: Point(r, yb)); path.line(to: Point(l, yb)) }
        if open { path.close() }
        open = false
        bottom.removeAll(keepingCapacity: true)
      }
      for (n, b) in allBounds.enumerated() {
        let (lo, hi) = b[k]
        guard !hi.isNaN, !lo.isNaN else { close(); continue }
        let (l, r) = edges[n]
        let yt = y(hi), yb = y(lo)
        if !open { path.move(to: Point(l, yt)); open = true } else { path.line(to: Point(l, yt)) }
        path.line(to: Point(r, yt))
        bottom.append((l, r, yb))
      }
      close()
      guard !path.isEmpty else { continue }
      let color = style.stacked ? set.lines[k].color : set.lines[k].color.multipliedAlpha(a)
      items.append(.path(path, .fill(color)))
    }
    return items
  }

  // MARK: - Areas

  /// Stacked areas between each line's lower and upper edge; an area that is not stacked
  /// is filled from 0 under its line.
  func areas(_ ks: [Int], _ idx: Range<Int>, _ w: [Double]) -> [DisplayItem] {
    let reps = representatives(idx, perPixel: 2)
    guard !reps.isEmpty else { return [] }
    let xs = reps.map { xOf(set.xs[$0]) }
    let allBounds = reps.map { bounds(at: $0, weights: w) }
    var items: [DisplayItem] = []
    for k in ks {
      let a = w[k]
      guard a > 0.001 else { continue }
      let y = yOf(k)
      var path = Path()
      var run: [(x: Double, lo: Double, hi: Double)] = []
      func flush() {
        guard let first = run.first else { return }
        path.move(to: Point(first.x, y(first.hi)))
        for p in run.dropFirst() { path.line(to: Point(p.x, y(p.hi))) }
        for p in run.reversed() { path.line(to: Point(p.x, y(p.lo))) }
        path.close()
        run.removeAll(keepingCapacity: true)
      }
      for (n, b) in allBounds.enumerated() {
        let (lo, hi) = b[k]
        if hi.isNaN || lo.isNaN { flush(); continue }
        run.append((xs[n], lo, hi))
      }
      flush()
      guard !path.isEmpty else { continue }
      if style.stacked {
        items.append(.path(path, .fill(set.lines[k].color)))
      } else {
        items.append(.path(path, .fill(set.lines[k].color.multipliedAlpha(a * 0.35))))
        items += strokes([k], idx, w)
      }
    }
    return items
  }

  // MARK: - Lines

  func lines(_ ks: [Int], _ idx: Range<Int>, _ w: [Double]) -> [DisplayItem] {
    if style.stacked {
      // Lines of a stacked chart trace their running sums.
      let reps = representatives(idx, perPixel: 4)
      var items: [DisplayItem] = []
      let allBounds = reps.map { bounds(at: $0, weights: w) }
      for k in ks where w[k] > 0.001 {
        let y = yOf(k)
        var path = Path()
        var open = false
        for (n, i) in reps.enumerated() {
          let hi = allBounds[n][k].hi
          guard !hi.isNaN else { open = false; continue }
          let p = Point(xOf(set.xs[i]), y(hi))
          if !open { path.move(to: p); open = true } else { path.line(to: p) }
        }
        if !path.isEmpty { items.append(.path(path, .stroke(set.lines[k].color.multipliedAlpha(w[k]), width: lineWidth))) }
      }
      return items
    }
    return strokes(ks, idx, w)
  }

  func strokes(_ ks: [Int], _ idx: Range<Int>, _ w: [Double]) -> [DisplayItem] {
    var items: [DisplayItem] = []
    for k in ks where w[k] > 0.001 {
      let line = set.lines[k]
      let pls = Decimation.polylines(xs: set.xs, ys: line.values, indices: idx, xToPixel: xOf, yToPixel: yOf(k))
      var path = Path()
      for pl in pls {
        guard let first = pl.first else { continue }
        path.move(to: first)
        if pl.count == 1 { path.line(to: first) }
        for p in pl.dropFirst() { path.line(to: p) }
      }
      if !path.isEmpty { items.append(.path(path, .stroke(line.color.multipliedAlpha(w[k]), width: lineWidth))) }
    }
    return items
  }
}

extension ChartBuilder {
  /// The mapping of the right axis of a two-axis chart into the lines' rect.
  func rightYOf(_ snap: ChartSnapshot, _ linesRect: Rect) -> ((Double) -> Double)? {
    guard let r = snap.rightRange else { return nil }
    return { v in ChartGeometry.scale(v, r, into: linesRect) }
  }

  /// A round-two chart's series in the plot.
  func typedSeries(_ snap: ChartSnapshot, idx: Range<Int>, linesRect: Rect, xOf: @escaping (Double) -> Double,
                   yOf: @escaping (Double) -> Double) -> [DisplayItem] {
    let painter = SeriesPainter(set: spec.data, style: snap.style, alpha: snap.alpha, lineWidth: spec.lineWidth,
                                xOf: xOf, yLeft: yOf, yRight: rightYOf(snap, linesRect), loneStep: SeriesPainter.loneStep(width: linesRect.width))
    let style = snap.style
    let needsColumns = style.stacked ? style.type == .bar : spec.data.lines.contains { style.kind(of: $0) == .bar }
    return painter.draw(needsColumns ? spec.data.columnIndices(in: snap.window) : idx)
  }

  /// A round-two chart's plot: the series clipped to the plot, then the grid over them
  /// (bars and areas would hide it), then the labels.
  mutating func typedChart(_ axes: ChartAxes, _ snap: ChartSnapshot, parts: ChartParts, linesRect: Rect,
                           xOf: @escaping (Double) -> Double, yOf: @escaping (Double) -> Double) {
    let plot = parts.plot
    items.append(.pushClip(.rect(plot.inset(top: -spec.lineWidth, bottom: 0))))
    items += typedSeries(snap, idx: spec.data.drawIndices(in: snap.window), linesRect: linesRect, xOf: xOf, yOf: yOf)
    items.append(.popClip)
    drawAxes(axes, plot: plot)
    typedLabels(axes, snap, plot: plot, linesRect: linesRect)
  }

  /// Y labels of a round-two chart (texts as `ChartAxes` wrote them, `%` included): two
  /// axes get one set of labels each, left and right, in their line's colour made readable
  /// on the surface (WCAG AA), fading with their line. Inside a plot of bars or areas a
  /// label sits on an opaque backing. X labels as usual.
  mutating func typedLabels(_ axes: ChartAxes, _ snap: ChartSnapshot, plot: Rect, linesRect: Rect) {
    let style = snap.style
    let set = spec.data
    let inside = spec.yLabels == .inside
    let backing = inside && style.startsAtZero(set)
    var leftColor = theme.axisText, rightColor = theme.axisText
    if style.yScaled, set.lines.count > 1 {
      leftColor = set.lines[0].color.readable(on: surface)
      rightColor = set.lines[1].color.readable(on: surface)
    }
    for l in axes.yLabels { label(l, color: leftColor, halo: inside, backing: backing) }
    for l in axes.xRow { label(l, color: theme.axisText, halo: false) }
    for l in axes.rightLabels { label(l, color: rightColor, halo: inside, backing: backing) }
  }

  /// The indicator of a round-two chart: bars dim every other column; areas and lines get
  /// the vertical line (lines also their rings, each on its own axis); then the poster.
  mutating func typedIndicator(_ snap: ChartSnapshot, index i: Int, parts: ChartParts, linesRect: Rect,
                               xOf: @escaping (Double) -> Double, yOf: @escaping (Double) -> Double) {
    let set = spec.data
    let style = snap.style
    let x = xOf(set.xs[i]).rounded() + 0.5
    let barsOnly = set.lines.allSatisfy { style.kind(of: $0) == .bar }
    if barsOnly {
      let painter = SeriesPainter(set: set, style: style, alpha: snap.alpha, lineWidth: spec.lineWidth, xOf: xOf, yLeft: yOf, yRight: nil,
                                  loneStep: SeriesPainter.loneStep(width: linesRect.width))
      let step = max(1, painter.stepPx)
      let cx = xOf(set.xs[i])
      var dim = Path()
      dim.rect(Rect(parts.plot.x, linesRect.minY - spec.lineWidth, parts.plot.width, linesRect.maxY - linesRect.minY + spec.lineWidth))
      dim.rect(Rect(cx - step / 2, linesRect.minY - spec.lineWidth, step, linesRect.maxY - linesRect.minY + spec.lineWidth))
      items.append(.pushClip(.rect(parts.plot)))
      items.append(.path(dim, .fill(surface.multipliedAlpha(0.5))))
      items.append(.popClip)
    } else {
      items.append(.path(.line(Point(x, linesRect.minY - 6), Point(x, linesRect.maxY)), .stroke(theme.indicatorLine, width: 1, cap: .butt)))
      let ry = rightYOf(snap, linesRect)
      for (k, line) in set.lines.enumerated() where style.kind(of: line) == .line && !style.stacked {
        let a = snap.alpha[line.id] ?? 1
        guard a > 0.001, i < line.values.count, !line.values[i].isNaN else { continue }
        let y = style.yScaled && k > 0 ? (ry ?? yOf) : yOf
        let p = Point(x, y(line.values[i]))
        items.append(.path(.circle(p, 4.5), .fill(surface.multipliedAlpha(a))))
        items.append(.path(.circle(p, 4.5), .stroke(line.color.multipliedAlpha(a), width: 2)))
      }
    }
    if let p = TypedPoster.make(spec: spec, style: style, index: i, x: x, linesRect: linesRect, plot: parts.plot, alpha: snap.alpha, measurer: measurer) {
      poster(p)
    }
  }

  /// Draws a poster laid out by `TypedPoster`: the date, then one row per line (its share
  /// first on percentage charts), and the total of stacked bars.
  mutating func poster(_ p: TypedPoster) {
    let box = p.box
    items.append(.shadow(box, radius: 8, blur: 6, color: theme.shadow))
    items.append(.path(.rect(box, radius: 8), .fill(theme.posterBackground)))
    items.append(.path(.rect(box.inset(by: 0.5), radius: 8), .stroke(theme.posterBorder, width: 1)))
    let padX = TypedPoster.padX
    items.append(.text(TextRun(p.date, font: ChartMetrics.posterTitleFont, color: theme.text, origin: Point(box.x + padX, box.y + TypedPoster.padY))))
    var ry = box.y + TypedPoster.padY + p.dateHeight + 4
    for row in p.rows {
      var nx = box.x + padX
      if let percent = row.percent {
        items.append(.text(TextRun(percent, font: ChartMetrics.posterValueFont, color: theme.text, origin: Point(nx + p.percentWidth - 6, ry), align: .right)))
        nx += p.percentWidth
      }
      items.append(.text(TextRun(row.name, font: ChartMetrics.posterNameFont, color: theme.text, origin: Point(nx, ry + 1))))
      let valueColor = row.color.a > 0 ? row.color : theme.text
      items.append(.text(TextRun(row.value, font: ChartMetrics.posterValueFont, color: valueColor, origin: Point(box.maxX - padX, ry), align: .right)))
      ry += TypedPoster.rowHeight
    }
  }

  /// The mini-map of a round-two chart: the whole axis in the chart's own type, each axis
  /// scaled to its own range over the whole axis.
  func typedMinimap(_ snap: ChartSnapshot, mm: Rect, inner: Rect) -> [DisplayItem] {
    let set = spec.data
    let style = snap.style
    let all = TimeWindow.all
    let xOf = { (t: Double) -> Double in set.spanMs > 0 ? mm.x + (t - set.firstMs) / set.spanMs * mm.width : mm.midX }
    func mapping(_ r: ValueRange?) -> (Double) -> Double {
      let r = r ?? ValueRange(0, 1)
      let span = r.max > r.min ? r.max - r.min : 1
      return { v in inner.maxY - (v - r.min) / span * inner.height }
    }
    // Lines still fading count, as in the plot's mini-map.
    let drawn = Set(set.lines.filter { (snap.alpha[$0.id] ?? 1) > 0.001 }.map(\.id))
    let hiddenNow = Set(set.lines.map(\.id)).subtracting(drawn)
    var left: ValueRange?
    if style.stacked && !style.percentage {
      let r = Stacking.extent(set.lines, weights: set.lines.map { snap.alpha[$0.id] ?? 1 }, in: 0..<set.count) ?? ValueRange(0, 1)
      left = r.max > r.min ? r : ValueRange(0, 1e-300)
    } else {
      left = set.axisRange(style, in: all, hidden: hiddenNow)
    }
    let right = set.rightAxisRange(style, in: all, hidden: hiddenNow) ?? set.rightAxisRange(style, in: all, hidden: [])
    let painter = SeriesPainter(set: set, style: style, alpha: snap.alpha, lineWidth: 1, xOf: xOf, yLeft: mapping(left),
                                yRight: style.yScaled ? mapping(right) : nil, loneStep: SeriesPainter.loneStep(width: mm.width))
    return painter.draw(0..<set.count)
  }
}
