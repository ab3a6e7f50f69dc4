import ChartModel
import Drawing

/// `--inspect`'s `annotations` of a chart (after `yLabels`): each mark as placed at the time.
extension Inspector {
  func annotations(_ n: Node, _ spec: ChartSpec, parts: ChartParts, snap: ChartSnapshot, axes: ChartAxes) -> OrderedJSON {
    let placed = Inspector.placedAnnotations(n, spec, parts: parts, snap: snap, axes: axes, measurer: measurer, time: time)
    return .array(placed.map { a in
      var f: [(String, OrderedJSON)] = [("kind", .string(a.kind)), ("text", .string(a.text))]
      if let p = a.point {
        f.append(("point", .array([.pixels(p.x), .pixels(p.y)])))
        // Where it is on screen: through the offsets, scales and 3D turns around the chart.
        let q = root.map { Interaction.toScene(n, within: $0, p) } ?? p
        f.append(("drawnPoint", .array([.pixels(q.x), .pixels(q.y)])))
      }
      if let (x0, x1) = a.span { f.append(("span", .array([.pixels(x0), .pixels(x1)]))) }
      f.append(("frame", a.label.map { rect($0) } ?? .null))
      f.append(("alpha", .number((a.alpha * 1000).rounded() / 1000)))
      f.append(("labelAlpha", .number((a.labelAlpha * 1000).rounded() / 1000)))
      return .object(f)
    })
  }

  /// A chart node's annotations as drawn at `time` (for inspection and lint).
  public static func placedAnnotations(_ n: Node, _ spec: ChartSpec, parts: ChartParts, snap: ChartSnapshot, axes: ChartAxes, measurer: TextMeasurer, time: Double) -> [PlacedAnnotation] {
    let geometry = ChartGeometry(plot: parts.plot, lineWidth: spec.lineWidth, set: spec.data, snapshot: snap)
    let poster = ChartParts.extraParts(spec: spec, parts: parts, snap: snap, frame: n.contentFrame, measurer: measurer, zoomed: false).first { $0.0 == "poster" }?.1
    return AnnotationLayout.place(spec, geometry: geometry, poster: poster, avoid: AnnotationLayout.labelBoxes(axes), theme: .day, measurer: measurer, t: time)
  }
}
