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

  /// X and Y labels as `ChartAxes` placed them (texts as it wrote them, `%` included); Y
  /// labels inside the plot get a halo in the surface colour so they stay readable over
  /// lines, or sit on an opaque backing over bars and areas. Two axes get one set of labels
  /// each, left and right, in their line's colour made readable on the surface (WCAG AA),
  /// fading with their line.
  mutating func drawLabels(_ axes: ChartAxes, _ snap: ChartSnapshot) {
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
