import ChartModel
import Motion

// How a set's window moves as drawn, as the axes' labels read it: where a change started,
// whether it was made at once, how far it is at rest (ChartAxes and XLabelLevel ease their
// labels by these).

extension Presentation {
  /// The window the labels' ease refers to: where the current change started while it
  /// runs, where it ends after.
  public func windowReference(_ set: ChartSet, at t: Double) -> TimeWindow? {
    guard let w = sets[ObjectIdentifier(set)]?.window else { return nil }
    let p = w.isAnimating(at: t) ? w.from : w.to
    return TimeWindow(max(0, min(1, p.a)), max(0, min(1, p.b)))
  }

  /// Whether the window of `set` was last changed at once (a drag, a script setting it
  /// each frame), not animated and not its initial state.
  public func windowMovedAtOnce(_ set: ChartSet) -> Bool {
    guard let w = sets[ObjectIdentifier(set)]?.window, w.start.isFinite else { return false }
    return w.from != w.to && w.transition.duration <= 0 && w.start > 0
  }

  /// How far the window of `set` is at rest at t, 0 to 1, changing by at most 1 per
  /// `settle` seconds: falling from 1 as an animated change starts, rising again after it
  /// ends; after an immediate change (a drag), 0 then rising. 1 when it never changed.
  public func windowRest(_ set: ChartSet, at t: Double, settle: Double) -> Double {
    guard settle > 0, let w = sets[ObjectIdentifier(set)]?.window, w.start.isFinite else { return 1 }
    // No change, or the initial state (set while the script was evaluated, at 0, unanimated).
    if w.from == w.to || (w.start <= 0 && w.transition.duration == 0) { return 1 }
    let d = w.transition.duration
    if d <= 0 { return max(0, min(1, (t - w.start) / settle)) }
    if t < w.start + d { return max(0, 1 - (t - w.start) / settle) }
    let atEnd = max(0, 1 - d / settle)
    return min(1, atEnd + (t - w.start - d) / settle)
  }
}
