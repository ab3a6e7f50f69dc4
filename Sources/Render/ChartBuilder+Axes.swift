import ChartModel
import Drawing
import SceneGraph

extension ChartBuilder {
  /// Grid lines (the line at 0 stronger, or the baseline when 0 is out of range).
  mutating func drawAxes(_ axes: ChartAxes, plot: Rect) {
    for g in axes.grid where g.alpha > 0.001 {
      let color = (g.strong ? theme.zeroLine : theme.grid).multipliedAlpha(g.alpha)
      items.append(.path(.line(Point(plot.x, g.y), Point(plot.maxX, g.y)), .stroke(color, width: 1, cap: .butt)))
    }
  }

  /// The lines of the window, clipped to the plot in every frame (also while the Y axis
  /// moves and data lie outside the range drawn).
  mutating func lines(snap: ChartSnapshot, plot: Rect, xOf: (Double) -> Double, yOf: (Double) -> Double) {
    let set = spec.data
    items.append(.pushClip(.rect(plot)))
    let idx = set.drawIndices(in: snap.window)
    for line in set.lines {
      let alpha = snap.alpha[line.id] ?? 1
      guard alpha > 0.001 else { continue }
      let polylines = set.polylines(for: line, indices: idx, xToPixel: xOf, yToPixel: yOf)
      // Columns of a dense window turn back at every min and max: filled as the outline of
      // its stroke (DenseLine), that zigzag paints several times faster and looks the same.
      if idx.count > Decimation.exactLimit, let outline = DenseLine.outline(polylines, width: spec.lineWidth, visible: plot.minX <= plot.maxX ? plot.minX...plot.maxX : nil) {
        if !outline.isEmpty { items.append(.path(outline, .fill(line.color.multipliedAlpha(alpha)))) }
      } else {
        stroke(polylines, color: line.color.multipliedAlpha(alpha), width: spec.lineWidth, join: idx.count > Decimation.exactLimit ? .bevel : .round)
      }
      // A point with gaps on both sides: a dot a little wider than the line.
      for pl in polylines where pl.count == 1 {
        items.append(.path(.circle(pl[0], max(2, spec.lineWidth * 1.25)), .fill(line.color.multipliedAlpha(alpha))))
      }
    }
    items.append(.popClip)
  }

  /// X and Y labels as `ChartAxes` placed them; Y labels inside the plot get a halo in the
  /// surface colour so they stay readable over lines.
  mutating func drawLabels(_ axes: ChartAxes) {
    let inside = spec.yLabels == .inside
    for l in axes.yLabels { label(l, color: theme.axisText, halo: inside) }
    for l in axes.xRow { label(l, color: theme.axisText, halo: false) }
  }

  /// One axis label in `color` (at the label's opacity), with a halo in the surface colour,
  /// or on an opaque backing in it (a label inside a plot of bars or areas, where a halo
  /// would leave the text on the fill).
  mutating func label(_ l: DrawnLabel, color: Color, halo: Bool, backing: Bool = false, align: TextAlign = .left) {
    let a = l.alpha
    if backing {
      items.append(.path(.rect(l.frame.inset(top: -1, left: -3, bottom: -1, right: -3), radius: 3), .fill(surface.multipliedAlpha(a))))
    }
    let x = align == .right ? l.frame.maxX : l.frame.x
    items.append(.text(TextRun(l.text, font: ChartMetrics.axisFont, color: color.multipliedAlpha(a), origin: Point(x, l.frame.y), align: align,
                               halo: halo && !backing ? surface.multipliedAlpha(a) : nil, isLabel: true)))
  }
}
