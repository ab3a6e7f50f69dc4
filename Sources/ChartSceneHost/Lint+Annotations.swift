import ChartModel
import Drawing
import SceneGraph

/// `chartscene lint` on a chart's annotations: a label with no room (left out), cut by the
/// plot's edge, or covering another annotation's label, the poster or an axis label.
extension Lint {
  func checkAnnotations(_ spec: ChartSpec, node n: Node, parts: ChartParts, snap: ChartSnapshot, axes: ChartAxes, opacity: Double,
                        time t: Double, name: String, into out: inout [String]) {
    guard !spec.annotations.isEmpty else { return }
    let placed = Inspector.placedAnnotations(n, spec, parts: parts, snap: snap, axes: axes, measurer: session.text, time: t)
    // A label with no room is left out (placement keeps it off the plot's edge, the poster,
    // the axis labels and the other labels): the reader sees a mark without its text.
    // (Marks fading in or out, entering or leaving the plot, are not counted: their labels
    // give way; nor is a plot under 120 px tall, thumbnail-sized, where labels show only
    // where they fit.)
    for a in placed where parts.plot.height >= 120 && a.alpha * opacity >= 0.9 && a.label == nil && !a.text.isEmpty {
      // A band cut by the plot's edge (entering or leaving) shows its label once it fits.
      if let (x0, x1) = a.span, x0 <= parts.plot.minX + 0.5 || x1 >= parts.plot.maxX - 0.5 { continue }
      out.append("\(name): annotation '\(Lint.quoted(a.text))' has no room for its label (it is not drawn): shorten it, or give the chart more room")
    }
    let shown = placed.filter { $0.alpha * $0.labelAlpha * opacity > Lint.visibleAlpha && $0.label != nil }
    for a in shown {
      guard let box = a.label else { continue }
      if !Lint.contains(parts.plot.inset(by: -Lint.tolerance), box) {
        out.append(at(box, "\(name): annotation '\(Lint.quoted(a.text))' is clipped by the plot"))
      }
      for l in (axes.xRow + axes.yLabels + axes.rightLabels) where l.alpha * opacity > Lint.visibleAlpha && Lint.overlap(l.frame, box) {
        out.append(at(Lint.union(box, l.frame), "\(name): annotation '\(Lint.quoted(a.text))' covers label '\(Lint.quoted(l.text))'"))
      }
    }
    for i in 0..<shown.count {
      for j in (i + 1)..<max(i + 1, shown.count) where Lint.overlap(shown[i].label!, shown[j].label!) {
        out.append(at(Lint.union(shown[i].label!, shown[j].label!), "\(name): annotations '\(Lint.quoted(shown[i].text))' and '\(Lint.quoted(shown[j].text))' overlap"))
      }
    }
    if let poster = ChartParts.extraParts(spec: spec, parts: parts, snap: snap, frame: n.contentFrame, measurer: session.text, zoomed: false).first(where: { $0.0 == "poster" })?.1 {
      for a in shown where Lint.overlap(poster, a.label!) {
        out.append(at(a.label!, "\(name): annotation '\(Lint.quoted(a.text))' is under the poster"))
      }
    }
  }
}
