import ChartModel
import Drawing
import Gestures

// The zoom's gestures (round 2): a tap on the indicator's poster zooms into its day (when
// the day has a detail file, or the chart is a percentage chart: a pie); a tap on the
// title's "Zoom Out" returns; a tap on a pie's slice pulls it out (again: puts it back).

extension Interaction {
  /// The round-two parts of a chart drawn now: `poster`, `zoomOut`, `yAxis.right`.
  func zoomParts(_ spec: ChartSpec, _ parts: ChartParts, frame: Rect, key: ChartKey) -> [(String, Rect)] {
    let snap = ChartSnapshot(spec: spec, plot: parts.plot, presentation: p, key: key, t: now)
    return ChartParts.extraParts(spec: spec, parts: parts, snap: snap, frame: frame, measurer: measurer, zoomed: spec.base.zoom != nil)
  }

  /// `poster` or `zoomOut` when a press at q is on one.
  func zoomPart(_ spec: ChartSpec, _ parts: ChartParts, frame: Rect, key: ChartKey, at q: Point) -> ChartPart? {
    for (name, r) in zoomParts(spec, parts, frame: frame, key: key) where r.contains(q) {
      if name == "zoomOut" { return .zoomOut }
      if name == "poster" { return .poster }
    }
    return nil
  }

  /// Handles the zoom's taps; true when the gesture was one of them.
  func zoomGesture(_ node: Node, _ part: ChartPart, spec: ChartSpec, parts: ChartParts, full: Bool, _ g: Gesture) -> Bool {
    guard case .tap(let q) = g else { return false }
    let set = spec.base
    switch part {
    case .poster:
      let snap = ChartSnapshot(spec: spec, plot: parts.plot, presentation: p, key: ChartKey(node.identity), t: now)
      // A day without a detail file: nothing happens.
      guard set.zoom == nil, let k = snap.indicatorIndex, set.canZoom(index: k, pie: spec.style.percentage) else { return true }
      do { try p.zoom(set, day: ChartSet.dayText(set.xs[k]), pie: spec.style.percentage) } catch { return true }
      var s = spec
      s.indicatorAt = nil
      node.kind = full ? .card(s) : .chart(s)
      return true
    case .zoomOut:
      p.zoomOut(set)
      // The indicator stood on the detail's axis: it goes with it.
      var s = spec
      s.indicatorAt = nil
      node.kind = full ? .card(s) : .chart(s)
      return true
    case .plot:
      guard let z = set.zoom, z.isPie else { return false }
      let pie = PieLayout.make(set: set, index: z.index, plot: parts.plot, alpha: [:])
      let hit = pie.slice(at: q)?.id
      set.selectSlice(hit == z.selectedSlice ? nil : hit)
      return true
    default:
      return false
    }
  }
}
