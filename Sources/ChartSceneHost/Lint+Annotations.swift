import ChartModel
import Drawing
import SceneGraph

/// `chartscene lint` on a chart's annotations: a label cut by the plot's edge, or covering
/// another annotation's label, the poster or an axis label.
extension Lint {
  func checkAnnotations(_ spec: ChartSpec, node n: Node, parts: ChartParts, snap: ChartSnapshot, axes: ChartAxes, opacity: Double,
                        time t: Double, name: String, into out: inout [String]) {
    guard !spec.annotations.isEmpty else { return }
    let placed = Inspector.placedAnnotations(n, spec, parts: parts, snap: snap, axes: axes, measurer: session.text, time: t)
    let shown = placed.filter { $0.alpha * opacity > Lint.visibleAlpha && $0.label != nil }
    for a in shown {
      guard let box = a.label else { continue }
      if !Lint.contains(parts.plot.inset(by: -Lint.tolerance), box) {
        out.append("\(name): annotation '\(Lint.quoted(a.text))' is clipped by the plot")
      }
      for l in (axes.xLabels + axes.yLabels + axes.rightLabels) where l.alpha * opacity > Lint.visibleAlpha && Lint.overlap(l.frame, box) {
        out.append("\(name): annotation '\(Lint.quoted(a.text))' covers label '\(Lint.quoted(l.text))'")
      }
    }
    for i in 0..<shown.count {
      for j in (i + 1)..<max(i + 1, shown.count) where Lint.overlap(shown[i].label!, shown[j].label!) {
        out.append("\(name): annotations '\(Lint.quoted(shown[i].text))' and '\(Lint.quoted(shown[j].text))' overlap")
      }
    }
    if let poster = ChartParts.extraParts(spec: spec, parts: parts, snap: snap, frame: n.contentFrame, measurer: session.text, zoomed: false).first(where: { $0.0 == "poster" })?.1 {
      for a in shown where Lint.overlap(poster, a.label!) {
        out.append("\(name): annotation '\(Lint.quoted(a.text))' is under the poster")
      }
    }
  }
}
