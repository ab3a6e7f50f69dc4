import ChartModel
import XCTest

/// At rest the time scale's labels are evenly spaced on the calendar: consecutive ticks of
/// one interval (1, 2 days; 1 week; 1, 3 months...), none missing in between (months and
/// years are as long as the calendar makes them).
final class EvenTicksTests: XCTestCase {
  let day = 86_400_000.0
  func ms(_ y: Int, _ m: Int, _ d: Int, _ h: Int = 0) -> Double { Double(ISODate.days(year: y, month: m, day: d)) * day + Double(h) * 3_600_000 }
  /// 7 px per character, like a 12 px UI font.
  func width(_ s: String) -> Double { Double(s.count) * 7 }
  /// About Inter's 12 px digits and letters (`Sep 30` is 38 px wide).
  func inter12(_ s: String) -> Double { Double(s.count) * 6.35 }

  /// The interval whose consecutive ticks these are, or nil when none is.
  func evenInterval(_ ticks: [Double], lo: Double, hi: Double) -> ChartModel.TimeInterval? {
    TimeScale.intervals.first { iv in
      ticks.allSatisfy { TimeScale.floor($0, iv) == $0 } && TimeScale.ticks(from: lo, to: hi, iv) == ticks
    }
  }

  func testHourlyDataAt320x240() {
    // The case: 241 hourly points from 2019-04-01, a 320 px chart (a 288 px plot).
    let lo = ms(2019, 4, 1), hi = ms(2019, 4, 11)
    let w = 288.0
    let made = TimeScale.make(tLo: lo, tHi: hi, plotWidth: w, spacing: max(inter12("Sep 30") + 24, w / 7), gap: 8, width: inter12)
    let texts = made.ticks.map(\.text)
    XCTAssertNotNil(evenInterval(made.ticks.map(\.timeMs), lo: lo, hi: hi), "uneven: \(texts)")
    XCTAssertEqual(texts, ["Apr 2", "Apr 4", "Apr 6", "Apr 8", "Apr 10"])
  }

  func testRandomWindowsAtRestAreEvenlySpaced() {
    var rng = SeededRandom(1111)
    let year = 365.25 * day
    var levels = Set<String>()
    for _ in 0..<4000 {
      let span = rng.logUniform(1000, 50 * year)
      let lo = rng.uniform(ms(1900, 1, 1), ms(2100, 1, 1))
      let hi = lo + span
      let w = rng.uniform(200, 4000)
      let made = TimeScale.make(tLo: lo, tHi: hi, plotWidth: w, spacing: max(width("Sep 30") + 24, w / 7), gap: 8, width: width)
      XCTAssertTrue(made.ticks.allSatisfy { $0.alpha == 1 }, "faint label at rest")
      let ts = made.ticks.map(\.timeMs)
      guard ts.count >= 2 else { continue }
      guard let iv = evenInterval(ts, lo: lo, hi: hi) else {
        return XCTFail("uneven labels for \(span / day) days at \(w) px: \(made.ticks.map(\.text))")
      }
      levels.insert(iv.description)
    }
    // The sample reaches every kind of level.
    for unit in ["second", "minute", "hour", "day", "week", "month", "year"] {
      XCTAssertTrue(levels.contains { $0.hasPrefix("1 \(unit)") || $0.contains(" \(unit)s") }, "no \(unit) level in \(levels.sorted())")
    }
  }

  /// While the window zooms (not at rest) every label's opacity follows the zoom
  /// continuously: a slow zoom never makes a label jump, also across levels that do not nest.
  func testZoomFadesAreContinuousInTheWindow() {
    var rng = SeededRandom(7)
    for _ in 0..<60 {
      let centre = rng.uniform(ms(1990, 1, 1), ms(2030, 1, 1))
      let w = rng.uniform(250, 1500)
      var span = rng.logUniform(60_000, 20 * 365.25 * day)
      var previous: [Double: Double]? = nil
      for _ in 0..<600 {
        let lo = centre - span / 2, hi = centre + span / 2
        let made = TimeScale.make(tLo: lo, tHi: hi, plotWidth: w, spacing: max(width("Sep 30") + 24, w / 7), gap: 8, rest: 0, width: width)
        // Labels that show (above 0.1) never overlap, also while levels swap.
        var lastRight = -Double.infinity
        for t in made.ticks where t.alpha > 0.1 {
          let x = (t.timeMs - lo) / span * w
          XCTAssertGreaterThanOrEqual(x - width(t.text) / 2, lastRight, "\(t.text) overlaps its neighbour at span \(span / day) days, \(w) px")
          lastRight = x + width(t.text) / 2
        }
        var now: [Double: Double] = [:]
        for t in made.ticks { now[t.timeMs] = t.alpha }
        // Ticks well inside the window in both steps (ticks at the edges come and go).
        if let previous {
          for t in Set(now.keys).union(previous.keys) where t > lo + span * 0.1 && t < hi - span * 0.1 {
            let before = previous[t] ?? 0, after = now[t] ?? 0
            XCTAssertLessThanOrEqual(abs(after - before), 0.2, "\(TimeScale.label(t)) jumps from \(before) to \(after) at span \(span / day) days, \(w) px")
          }
        }
        previous = now
        span *= 0.995
      }
    }
  }
}
