import ChartModel
import Drawing
import Glibc
import SceneGraph

/// A chart zoomed into a day, or on its way in or out (Zoom.swift): the overview fades out
/// as its window narrows to the day while the detail fades in; a percentage chart's areas
/// give way to a pie of the day's shares whose slices sweep open.
extension ChartBuilder {
  static func zoomable(spec: ChartSpec, isCard: Bool, frame: Rect, theme: Theme, surface: Color, measurer: TextMeasurer,
                       presentation: Presentation, key: ChartKey, t: Double) -> [DisplayItem] {
    func layer(_ s: ChartSpec, title: Bool = true, axisKey: ChartKey? = nil) -> [DisplayItem] {
      var b = ChartBuilder(spec: s, isCard: isCard, frame: frame, theme: theme, surface: surface, measurer: measurer,
                           presentation: presentation, key: axisKey ?? key, t: t)
      b.drawsTitle = title
      // The fading layer keeps no texts: two layers' titles and labels would overlap.
      return title ? b.build() : b.build().filter { if case .text = $0 { return false }; return true }
    }
    let set = spec.base
    let progress = presentation.zoomProgress(set, at: t)
    guard let zoom = set.zoom ?? presentation.leavingZoom(set, at: t) else { return layer(spec) }
    if zoom.isPie {
      var s = spec
      s.indicatorAt = nil
      var items = layer(s)
      let parts = ChartParts.make(spec: s, card: isCard, frame: frame, measurer: measurer, window: presentation.window(set, at: t))
      // From halfway the pie's day replaces the date labels (never both: they would overlap).
      if progress >= 0.5, let band = parts.xAxis {
        items = items.filter { if case .text(let run) = $0, run.origin.y >= band.y - 1, run.origin.y <= band.maxY { return false }; return true }
      }
      // The Y labels in the gutter give way to the pie as the plot's areas do.
      if let g = parts.yGutter, progress > 0.001 { items.append(.path(.rect(g.inset(top: -8, bottom: -8)), .fill(surface.multipliedAlpha(min(1, progress))))) }
      var b = ChartBuilder(spec: s, isCard: isCard, frame: frame, theme: theme, surface: surface, measurer: measurer,
                           presentation: presentation, key: key, t: t)
      b.pie(zoom, plot: parts.plot, xAxis: parts.xAxis, progress: progress)
      items += b.items
      return items
    }
    if progress >= 0.9999, set.zoom != nil { return layer(spec) }
    // The crossfade: the overview under, the detail over.
    var overview = spec
    overview.showsBase = true
    var detail = spec
    if set.zoom == nil, let d = zoom.detail { detail.base = d; detail.showsBase = true }
    detail.indicatorAt = nil
    // One layer's texts at a time: the overview's until halfway, then the detail's. Each
    // layer on its own Y axis (the one its data in its window asks for, under keys with no
    // animation): on the chart's one animated axis, the overview's lines would start far
    // outside the detail's range when zooming out (an empty plot, then lines dropping in
    // from above) and the detail's likewise when zooming in.
    return [.pushGroup(opacity: 1 - progress)] + layer(overview, title: progress < 0.5, axisKey: key.layer(.zoomOverview)) + [.popGroup, .pushGroup(opacity: progress)]
      + layer(detail, title: progress >= 0.5, axisKey: key.layer(.zoomDetail)) + [.popGroup]
  }

  /// The title of a zoomed chart: a "Zoom Out" control (a magnifier with a minus, in the
  /// accent colour), as in the contest.
  mutating func zoomOutTitle(_ r: Rect) {
    let h = measurer.measure(ZoomText.zoomOut, font: ChartMetrics.titleFont).height
    let c = Point(r.x + 7, r.y + h / 2 - 1)
    items.append(.path(.circle(c, 6), .stroke(theme.accent, width: 2)))
    items.append(.path(.line(Point(c.x - 3, c.y), Point(c.x + 3, c.y)), .stroke(theme.accent, width: 2)))
    items.append(.path(.line(Point(c.x + 4.5, c.y + 4.5), Point(c.x + 8, c.y + 8)), .stroke(theme.accent, width: 2.5)))
    items.append(.text(TextRun(ZoomText.zoomOut, font: ChartMetrics.titleFont, color: theme.accent, origin: Point(r.x + 20, r.y))))
  }

  /// The pie of a zoomed percentage chart over its plot. While `progress` runs from 0 to 1
  /// the plot's areas are covered and the slices sweep open from the top; a selected slice
  /// is pulled out and shows its name and value.
  mutating func pie(_ zoom: DayZoom, plot: Rect, xAxis: Rect?, progress: Double) {
    let set = spec.base
    let alpha = Dictionary(uniqueKeysWithValues: set.lines.map { ($0.id, presentation?.alpha(set, $0.id, at: t) ?? (set.isHidden($0.id) ? 0 : 1)) })
    let layout = PieLayout.make(set: set, index: zoom.index, plot: plot, alpha: alpha)
    let p = max(0, min(1, progress))
    guard p > 0.001 else { return }
    items.append(.path(.rect(plot.inset(top: -2, bottom: -2)), .fill(surface.multipliedAlpha(p))))
    // Under the pie, its day instead of the window's dates.
    if let band = xAxis, zoom.index < set.count, p >= 0.5 {
      items.append(.path(.rect(band), .fill(surface.multipliedAlpha(p))))
      items.append(.text(TextRun(spec.format.poster(set.xs[zoom.index], precision: spec.format.precision(of: set)), font: ChartMetrics.posterTitleFont, color: theme.text.multipliedAlpha(p),
                                 origin: Point(band.midX, band.y + 4), align: .center)))
    }
    let top = -Double.pi / 2
    let r = layout.radius * (0.7 + 0.3 * p)
    for slice in layout.slices {
      guard let line = set.line(id: slice.id) else { continue }
      let a0 = top + (slice.start - top) * p, a1 = top + (slice.end - top) * p
      guard a1 - a0 > 1e-4 else { continue }
      let mid = (a0 + a1) / 2
      let out = zoom.selectedSlice == slice.id ? 12.0 * p : 0
      let c = Point(layout.center.x + cos(mid) * out, layout.center.y + sin(mid) * out)
      var path = Path()
      path.move(to: c)
      let steps = max(2, Int(saturating: (a1 - a0) / (Double.pi / 90)) + 1)
      for k in 0...steps {
        let a = a0 + (a1 - a0) * Double(k) / Double(steps)
        path.line(to: Point(c.x + cos(a) * r, c.y + sin(a) * r))
      }
      path.close()
      items.append(.path(path, .fill(line.color.multipliedAlpha(p))))
    }
    // The shares: inside their slices in a size that scales with the pie, or outside with a
    // leader line, or not at all (PieLabel).
    if p > 0.5 {
      let a = (p - 0.5) * 2
      for label in layout.drawnLabels(progress: p, selected: zoom.selectedSlice, plot: plot, measurer: measurer) {
        if label.outside {
          items.append(.path(.polylines([label.leader]), .stroke(theme.text.multipliedAlpha(0.5 * a), width: 1)))
        }
        let color = label.outside ? theme.text.multipliedAlpha(a) : Color(r: 1, g: 1, b: 1, a: a)
        items.append(.text(TextRun(label.text, font: label.font, color: color, origin: Point(label.frame.x, label.frame.y))))
      }
    }
    // The selected slice's name and value, in a poster beside the pie.
    if let id = zoom.selectedSlice, let line = set.line(id: id), let slice = layout.slices.first(where: { $0.id == id }), p > 0.99 {
      let value = spec.format.grouped(zoom.index < line.values.count ? line.values[zoom.index] : 0)
      let nw = measurer.measure(line.name, font: ChartMetrics.posterNameFont).width
      let vw = measurer.measure(value, font: ChartMetrics.posterValueFont).width
      let w = (nw + 20 + vw + 2 * ChartPoster.padX).rounded(.up), h = 32.0
      let mid = (slice.start + slice.end) / 2
      var x = layout.center.x + cos(mid) * (r + 16) - (cos(mid) < 0 ? w : 0)
      var y = layout.center.y + sin(mid) * (r + 16) - h / 2
      x = max(plot.x, min(plot.maxX - w, x)); y = max(plot.y, min(plot.maxY - h, y))
      let box = Rect(x, y, w, h)
      items.append(.shadow(box, radius: 8, blur: 6, color: theme.shadow))
      items.append(.path(.rect(box, radius: 8), .fill(theme.posterBackground)))
      items.append(.path(.rect(box.inset(by: 0.5), radius: 8), .stroke(theme.posterBorder, width: 1)))
      items.append(.text(TextRun(line.name, font: ChartMetrics.posterNameFont, color: theme.text, origin: Point(x + ChartPoster.padX, y + 8))))
      items.append(.text(TextRun(value, font: ChartMetrics.posterValueFont, color: line.color, origin: Point(box.maxX - ChartPoster.padX, y + 7), align: .right)))
    }
  }
}
