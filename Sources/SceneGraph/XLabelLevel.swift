import ChartModel
import Drawing

/// A chart's level of X labels (`TimeScale.Levels`) as drawn: it follows the level the
/// window asks for at a limited speed, so a fast zoom (a spring, a flick of the mini-map)
/// never fades a level of labels in or out in one frame.
struct XLevelState {
  var set: ObjectIdentifier
  var time: Double
  var level: Double
}

extension ChartAxes {
  /// How far apart the ticks of the chosen interval are at least: about six labels across
  /// a wide plot (the contest's density), never closer than a label and a gap.
  public static func xSpacing(plot: Rect, measurer: TextMeasurer, format: DisplayFormat = .standard) -> Double {
    max(measurer.measure(format.typicalAxisDate, font: ChartMetrics.axisFont).width + 24, plot.width / 7)
  }

  /// The levels of X labels of a chart's window drawn in `parts` (nil without an X axis or
  /// with a window of one instant).
  public static func xLevels(spec: ChartSpec, parts: ChartParts, window: TimeWindow, measurer: TextMeasurer) -> TimeScale.Levels? {
    guard parts.xAxis != nil else { return nil }
    let set = spec.data
    let tLo = set.time(atFraction: window.lo), tHi = set.time(atFraction: window.hi)
    guard tHi > tLo, tLo.isFinite, tHi.isFinite, parts.plot.width > 0 else { return nil }
    return TimeScale.Levels(span: tHi - tLo, plotWidth: parts.plot.width, spacing: xSpacing(plot: parts.plot, measurer: measurer, format: spec.format),
                            gap: labelGap, format: spec.format) { measurer.measure($0, font: ChartMetrics.axisFont).width }
  }
}

extension Presentation {
  /// The least time (s) a level of X labels takes to fade fully in or out.
  public static let xLabelFadeTime = 0.2
  /// The longest (s) the drawn level lags behind the window's after a zoom across several
  /// levels: further behind, it moves faster (levels in between pass quicker).
  public static let xLabelCatchUp = 0.3
  /// How fast (levels a second) labels squeezed by a zoom out fade at the most: twice a
  /// level's fade.
  public static let squeezeRate = 2 / xLabelFadeTime

  /// Moves chart `key`'s level of X labels towards the one its window asks for now, by at
  /// most `dt / xLabelFadeTime` (one level per 0.2 s; faster when more than
  /// `xLabelCatchUp / xLabelFadeTime` levels behind), never finer than the labels allow
  /// side by side. Called every tick (Simulation.updateAxes), so a still at a time is the
  /// same however it is reached.
  public func updateXLabels(_ key: ChartKey, spec: ChartSpec, parts: ChartParts, measurer: TextMeasurer, at t: Double) {
    let set = spec.data
    func levels(at t: Double) -> TimeScale.Levels? { ChartAxes.xLevels(spec: spec, parts: parts, window: window(set, at: t), measurer: measurer) }
    func target(_ levels: TimeScale.Levels, at t: Double) -> Double {
      levels.level(rest: ChartAxes.rest(spec: spec, presentation: self, t: t),
                   referenceSpan: ChartAxes.referenceWindow(spec: spec, presentation: self, t: t).map { set.time(atFraction: $0.hi) - set.time(atFraction: $0.lo) })
    }
    guard let now = levels(at: t) else {
      xLevels[key] = nil
      return
    }
    let wanted = target(now, at: t)
    let id = ObjectIdentifier(set)
    guard var s = xLevels[key], s.set == id, t > s.time, t - s.time < 0.5 else {
      // The first tick, or another set (a day zoom, another card in the modal): no history.
      xLevels[key] = XLevelState(set: id, time: t, level: wanted)
      return
    }
    // A zoom out already under way (an animation, not a hand) asks for coarser labels
    // soon: they start fading out now, so they are gone before they would touch. `close`:
    // how far the labels must have faded as they come close (`safe`), now or, at the rate
    // a squeeze may fade them (`squeezeRate` levels a second), in time for later.
    var goal = wanted, close = now.safe
    for k in 1...4 {
      let ahead = Presentation.xLabelFadeTime * Double(k) / 4
      if let l = levels(at: t + ahead) {
        goal = max(goal, target(l, at: t + ahead) - Double(k) / 4)
        // (One sample sooner: the squeeze may peak between two samples.)
        close = max(close, l.safe - (ahead - Presentation.xLabelFadeTime / 4) * Presentation.squeezeRate)
      }
    }
    let dt = t - s.time
    let before = s.level
    let step = max(dt / Presentation.xLabelFadeTime, abs(goal - s.level) * min(1, dt / Presentation.xLabelCatchUp))
    s.level += max(-step, min(step, goal - s.level))
    // Never finer than the labels allow side by side (`least`); fading as they come close,
    // but at a bounded rate: labels at rest may stand closer than `safe` asks for, and a
    // zoom out from there starts their fade, it does not jump into it.
    s.level = max(s.level, min(goal, close, before + dt * Presentation.squeezeRate), now.least)
    // Settle exactly (a still at rest draws whole levels only).
    if abs(s.level - wanted) < 1e-9 { s.level = wanted }
    s.time = t
    xLevels[key] = s
  }

  /// The level of X labels to draw for chart `key` at t: the one of the last tick at or
  /// before t, up to 0.1 s before (a still between two frames draws what the frame before
  /// it drew, not a level the eased labels never showed); nil: none kept for that time and
  /// set, the chart then draws the level its window asks for.
  public func xLevel(_ key: ChartKey?, _ set: ChartSet, at t: Double) -> Double? {
    guard let key, let s = xLevels[key], s.set == ObjectIdentifier(set), t - s.time > -1e-9, t - s.time < 0.1 else { return nil }
    return s.level
  }
}
