import ChartModel
import Drawing
import SceneGraph

/// Draws a chart's annotations (placed by SceneGraph/Annotations.swift) over its lines,
/// clipped to the plot; inside the chart's own items, so they take every transform the
/// chart takes (a card's move, a carousel's turn).
extension ChartBuilder {
  mutating func annotations(_ placed: [PlacedAnnotation], plot: Rect) {
    guard placed.contains(where: { $0.alpha > 0.001 }) else { return }
    // Clipped to the plot and a note marker's width around it (a note on the newest point
    // or a peak at the axis's top shows its whole ring).
    items.append(.pushClip(.rect(plot.inset(by: -(Annotation.markerRadius + 2)))))
    for a in placed where a.alpha > 0.001 {
      let alpha = a.alpha
      switch a.kind {
      case "band":
        if let (x0, x1) = a.span, x1 > x0 {
          items.append(.path(.rect(Rect(x0, plot.y, x1 - x0, plot.height)), .fill(a.color.multipliedAlpha(0.12 * alpha))))
          for x in [x0, x1] where x > plot.minX + 0.5 && x < plot.maxX - 0.5 {
            items.append(.path(.line(Point(x, plot.minY), Point(x, plot.maxY)), .stroke(a.color.multipliedAlpha(0.5 * alpha), width: 1, cap: .butt)))
          }
        }
      case "rule":
        guard let p = a.point else { break }
        let line: Path = a.horizontal
          ? .line(Point(plot.minX, p.y), Point(plot.maxX, p.y)) : .line(Point(p.x, plot.minY), Point(p.x, plot.maxY))
        items.append(.path(line, .stroke(a.color.multipliedAlpha(0.8 * alpha), width: 1.5, cap: .butt, dash: [5, 4])))
      default:
        guard let p = a.point else { break }
        items.append(.path(.circle(p, Annotation.markerRadius), .fill(surface.multipliedAlpha(alpha))))
        items.append(.path(.circle(p, Annotation.markerRadius), .stroke(a.color.multipliedAlpha(alpha), width: 2.5)))
      }
      if let box = a.label {
        let alpha = alpha * a.labelAlpha
        items.append(.path(.rect(box, radius: 5), .fill(theme.posterBackground.multipliedAlpha(0.92 * alpha))))
        items.append(.path(.rect(box.inset(by: 0.5), radius: 5), .stroke((a.kind == "note" ? a.color : theme.posterBorder).multipliedAlpha(alpha), width: 1)))
        items.append(.text(TextRun(a.text, font: Annotation.font, color: theme.text.multipliedAlpha(alpha),
                                   origin: Point(box.x + Annotation.padX, box.y + Annotation.padY))))
      }
    }
    items.append(.popClip)
  }
}
