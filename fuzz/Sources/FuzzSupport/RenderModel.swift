import ChartModel
import Drawing
import Render
import SceneGraph

/// Runs a decoded set through what the host does with it: a chart of it laid out and drawn
/// (to a display list; no pixels) at a few sizes and windows, with the indicator shown, and
/// the `--inspect` report. Data a decoder accepts must never crash these.
public enum RenderModel {
  nonisolated(unsafe) static let measurer = FixedWidthTextMeasurer()
  static let windows: [(Double, Double)] = [(0, 1), (0.75, 1), (0, 0.01), (0.5, 0.5)]
  static let sizes: [(Double, Double)] = [(400, 500), (120, 90)]

  public static func exercise(_ set: ChartSet) {
    _ = set.typicalStepMs
    for (k, (lo, hi)) in windows.enumerated() {
      set.setRange(lo, hi)
      if k == 1, let first = set.lines.first { set.setHidden(first.id, true) }
      if k == 2, let first = set.lines.first { set.setHidden(first.id, false) }
      _ = set.values(atFraction: 0.5)
      for (w, h) in sizes {
        var spec = ChartSpec(data: set)
        spec.title = set.name
        spec.indicatorAt = [0.93, 0, 1, 0.5][k]
        let scene = Scene(width: w, height: h, theme: .day, root: Node(id: "c", kind: .chart(spec)))
        guard (try? scene.assignIDs()) != nil else { continue }
        guard (try? Layout(measurer: measurer).layout(scene, at: 0)) != nil else { continue }
        _ = try? DisplayListBuilder(measurer: measurer).build(scene, time: 0)
        if k == 0 && w == 400 { _ = Inspector(measurer: measurer).inspect(scene, time: 0).render() }
      }
    }
  }
}
