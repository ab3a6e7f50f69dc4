import ChartModel
import XCTest

/// A small deterministic generator (the tests must fail the same way every run).
struct SeededRandom {
  var state: UInt64
  init(_ seed: UInt64) { state = seed }
  mutating func next() -> Double {
    state = state &* 6364136223846793005 &+ 1442695040888963407
    return Double(state >> 11) / Double(1 << 53)
  }
  mutating func uniform(_ a: Double, _ b: Double) -> Double { a + (b - a) * next() }
  mutating func logUniform(_ a: Double, _ b: Double) -> Double { exp(uniform(log(a), log(b))) }
}

final class TimeScaleTests: XCTestCase {
  let day = 86_400_000.0
  func ms(_ y: Int, _ m: Int, _ d: Int, _ h: Int = 0, _ mi: Int = 0, _ s: Int = 0) -> Double {
    Double(ISODate.days(year: y, month: m, day: d)) * day + Double(h * 3600 + mi * 60 + s) * 1000
  }
  /// 7 px per character, like a 12 px UI font.
  func width(_ s: String) -> Double { Double(s.count) * 7 }

  func testLabelsByLevel() {
    XCTAssertEqual(TimeScale.label(ms(2019, 4, 3, 14)), "14:00")
    XCTAssertEqual(TimeScale.label(ms(2019, 4, 3, 14, 0, 5)), "14:00:05")
    XCTAssertEqual(TimeScale.label(ms(2019, 4, 3)), "Apr 3")
    XCTAssertEqual(TimeScale.label(ms(2019, 4, 1)), "Apr")
    XCTAssertEqual(TimeScale.label(ms(2019, 1, 1)), "2019")
    XCTAssertEqual(TimeScale.label(ms(1969, 12, 31, 23, 30)), "23:30")
    XCTAssertEqual(TimeScale.label(ms(1950, 1, 1)), "1950")
  }

  func testFloorIsCalendarAligned() {
    let t = ms(2019, 5, 17, 13, 47, 29) + 123
    XCTAssertEqual(TimeScale.floor(t, TimeInterval(.second, 15)), ms(2019, 5, 17, 13, 47, 15))
    XCTAssertEqual(TimeScale.floor(t, TimeInterval(.minute, 15)), ms(2019, 5, 17, 13, 45))
    XCTAssertEqual(TimeScale.floor(t, TimeInterval(.hour, 6)), ms(2019, 5, 17, 12))
    XCTAssertEqual(TimeScale.floor(t, TimeInterval(.day, 1)), ms(2019, 5, 17))
    XCTAssertEqual(TimeScale.floor(t, TimeInterval(.week, 1)), ms(2019, 5, 12))  // a Sunday
    XCTAssertEqual(TimeScale.floor(t, TimeInterval(.month, 1)), ms(2019, 5, 1))
    XCTAssertEqual(TimeScale.floor(t, TimeInterval(.month, 3)), ms(2019, 4, 1))
    XCTAssertEqual(TimeScale.floor(t, TimeInterval(.year, 1)), ms(2019, 1, 1))
    XCTAssertEqual(TimeScale.floor(t, TimeInterval(.year, 5)), ms(2015, 1, 1))
    XCTAssertEqual(TimeScale.floor(ms(1969, 7, 4), TimeInterval(.year, 10)), ms(1960, 1, 1))
    XCTAssertEqual(TimeScale.next(ms(2019, 12, 1), TimeInterval(.month, 1)), ms(2020, 1, 1))
    XCTAssertEqual(TimeScale.next(ms(2019, 10, 1), TimeInterval(.month, 3)), ms(2020, 1, 1))
  }

  /// The cases of the issue: hourly, 5-minute, ten years daily, yearly.
  func testTheIssuesData() {
    func labels(_ lo: Double, _ hi: Double, _ w: Double = 688) -> [String] {
      TimeScale.make(tLo: lo, tHi: hi, plotWidth: w, spacing: max(width("Sep 30") + 24, w / 7), width: width).ticks.map(\.text)
    }
    // Hourly data over 6 days: one label a day, none missing.
    XCTAssertEqual(labels(ms(2019, 4, 1), ms(2019, 4, 7)), ["Apr", "Apr 2", "Apr 3", "Apr 4", "Apr 5", "Apr 6", "Apr 7"])
    // Five-minute data over 14 hours: round hours.
    XCTAssertEqual(labels(ms(2019, 4, 1, 2), ms(2019, 4, 1, 16)), ["03:00", "06:00", "09:00", "12:00", "15:00"])
    // Ten years of daily data: the years.
    XCTAssertEqual(labels(ms(2010, 1, 1), ms(2020, 1, 1)), ["2010", "2012", "2014", "2016", "2018", "2020"])
    // Fifty years of yearly data.
    XCTAssertEqual(labels(ms(1970, 1, 1), ms(2020, 1, 1)), ["1970", "1980", "1990", "2000", "2010", "2020"])
    // Daily data over a quarter keeps the contest's look.
    XCTAssertEqual(labels(ms(2019, 2, 8), ms(2019, 3, 9)), ["Feb 10", "Feb 17", "Feb 24", "Mar 3"])
  }

  /// Random windows from 1 s to 50 years, 200 to 4,000 px: at rest every label is opaque,
  /// ticks sit on calendar boundaries of the chosen interval, labels are distinct (a text
  /// repeats only across a higher level, as concise formatters do) and never overlap, and
  /// panning keeps the ticks where they are.
  func testRandomWindowsProperties() {
    var rng = SeededRandom(11)
    let year = 365.25 * day
    for _ in 0..<3000 {
      let span = rng.logUniform(1000, 50 * year)
      let lo = rng.uniform(ms(1900, 1, 1), ms(2100, 1, 1))
      let hi = lo + span
      let w = rng.uniform(200, 4000)
      let spacing = max(width("Sep 30") + 24, w / 7)
      let made = TimeScale.make(tLo: lo, tHi: hi, plotWidth: w, spacing: spacing, gap: 8, width: width)
      guard let iv = made.interval else { return XCTFail("no interval for \(lo)…\(hi)") }
      XCTAssertGreaterThanOrEqual(made.ticks.count, 1, "no tick for span \(span) ms at \(w) px")
      var seen = Set<String>()
      var lastRight = -Double.infinity
      for t in made.ticks {
        XCTAssertEqual(t.alpha, 1, "faint label at rest")
        XCTAssertTrue(t.timeMs >= lo && t.timeMs <= hi)
        // Chosen or (faded in to full at rest) the next finer interval: on its boundary either way.
        let finer = TimeScale.intervals[max(0, TimeScale.intervals.firstIndex(of: iv)! - 1)]
        XCTAssertTrue(TimeScale.floor(t.timeMs, iv) == t.timeMs || TimeScale.floor(t.timeMs, finer) == t.timeMs, "\(t.text) not on a \(iv) boundary")
        _ = seen.insert(t.text)
        let x = (t.timeMs - lo) / span * w
        XCTAssertGreaterThanOrEqual(x - width(t.text) / 2, lastRight, "labels overlap at \(t.text) (\(iv), \(w) px)")
        lastRight = x + width(t.text) / 2
      }
      // Concise labels repeat only across a higher level: two `12:00` have a date between
      // them, two `Apr` a year.
      func level(_ s: String) -> Int {
        if s.count == 4 || s.hasPrefix("\u{2212}") || Int(s) != nil { return 4 }
        if s.count == 3 { return 3 }
        if s.contains(":") { return 1 }
        return 2
      }
      let texts = made.ticks.map(\.text)
      for i in 0..<texts.count {
        for j in (i + 1)..<max(i + 1, texts.count) where texts[i] == texts[j] {
          XCTAssertTrue(texts[(i + 1)..<j].contains { level($0) > level(texts[i]) }, "\(texts[i]) twice with no higher level between: \(texts)")
        }
      }
      // Panning by a tenth keeps the ticks both windows share.
      let shift = span * 0.1
      let moved = TimeScale.make(tLo: lo + shift, tHi: hi + shift, plotWidth: w, spacing: spacing, gap: 8, width: width)
      if moved.interval == iv {
        let a = made.ticks.map(\.timeMs).filter { $0 >= lo + shift }
        let b = moved.ticks.map(\.timeMs).filter { $0 <= hi }
        XCTAssertEqual(a, b, "ticks moved while panning (\(iv))")
      }
    }
  }

  func testZoomFadesTheComingLevelOnlyWhileMoving() {
    // Find a width where the finer level is half faded: visible while moving, not at rest.
    let lo = ms(2019, 1, 1), hi = ms(2019, 3, 1)
    var sawFaint = false
    for w in stride(from: 200.0, through: 2000, by: 5) {
      let spacing = max(width("Sep 30") + 24, w / 7)
      let moving = TimeScale.make(tLo: lo, tHi: hi, plotWidth: w, spacing: spacing, rest: 0, width: width)
      let rest = TimeScale.make(tLo: lo, tHi: hi, plotWidth: w, spacing: spacing, rest: 1, width: width)
      if moving.ticks.contains(where: { $0.alpha > 0 && $0.alpha < 1 }) { sawFaint = true }
      XCTAssertTrue(rest.ticks.allSatisfy { $0.alpha == 1 })
    }
    XCTAssertTrue(sawFaint, "no fade while zooming")
  }
}

final class NumberScaleTests: XCTestCase {
  func testCompactAndSmallLabels() {
    XCTAssertEqual(CompactNumber.format(1.5e12, step: 5e11), "1.5T")
    XCTAssertEqual(CompactNumber.format(1.5e9, step: 5e8), "1.5B")
    XCTAssertEqual(CompactNumber.format(1.5e-6, step: 5e-7), "0.0000015")
    XCTAssertEqual(CompactNumber.format(2e-6, step: 5e-7), "0.000002")
    XCTAssertEqual(CompactNumber.format(-20, step: 10), "\u{2212}20")
    XCTAssertEqual(CompactNumber.format(1.5e-15, step: 5e-16), "1.5e\u{2212}15")
    XCTAssertEqual(CompactNumber.grouped(1.5e12), "1,500,000,000,000")
    XCTAssertEqual(CompactNumber.grouped(1.5e-6), "0.0000015")
    XCTAssertEqual(CompactNumber.grouped(0.1 + 0.2), "0.3")
    XCTAssertEqual(CompactNumber.grouped(148.28312345), "148.283")
    XCTAssertEqual(CompactNumber.grouped(-1234.5), "\u{2212}1,234.5")
    XCTAssertEqual(CompactNumber.grouped(4_505_200), "4,505,200")
  }

  /// Random ranges from 1e-9 to 1e15 wide on axes 200 to 4,000 px high: steps of 1, 2, 2.5
  /// or 5 × 10ⁿ, ticks holding the range, distinct labels, no hyphen-minus.
  func testRandomRangesProperties() {
    var rng = SeededRandom(7)
    for _ in 0..<5000 {
      let span = rng.logUniform(1e-9, 1e15)
      let centre = rng.uniform(-1, 1) * span * rng.logUniform(0.01, 100)
      let lo = centre - span / 2, hi = centre + span / 2
      let h = rng.uniform(200, 4000)
      let most = Int((h - 20) / 26)
      let s = YScale.nice(for: ValueRange(lo, hi), maxIntervals: most)
      XCTAssertLessThanOrEqual(s.lo, lo + span * 1e-9)
      XCTAssertGreaterThanOrEqual(s.hi, hi - span * 1e-9)
      let mant = s.step / pow(10, (log10(s.step)).rounded(.down))
      XCTAssertTrue([1, 2, 2.5, 5, 10].contains { abs($0 - mant) < 1e-6 }, "step \(s.step)")
      let labels = s.ticks.map { CompactNumber.format($0, step: s.step) }
      XCTAssertEqual(Set(labels).count, labels.count, "equal labels \(labels) for \(lo)…\(hi)")
      XCTAssertFalse(labels.contains { $0.contains("-") && !$0.contains("e") }, "\(labels)")
    }
  }
}

/// Issue 21, item 16: Y bounds no coarser than they must be.
final class CoarseBoundsTests: XCTestCase {
  func testBoundsAreTightOnRealMaxima() {
    // Round two's views chart: 0–40M for a 25.2M maximum before; 1K–5K for 1.2K–3.6K.
    XCTAssertEqual(YScale.nice(for: ValueRange(0, 25_200_000)), YScale(lo: 0, hi: 30_000_000, step: 10_000_000))
    XCTAssertEqual(YScale.nice(for: ValueRange(1200, 3600)), YScale(lo: 1000, hi: 4000, step: 1000))
    XCTAssertEqual(YScale.nice(for: ValueRange(0, 3600)), YScale(lo: 0, hi: 4000, step: 1000))
    // A short axis (room for 3 labels) too.
    XCTAssertEqual(YScale.nice(for: ValueRange(0, 25_200_000), maxIntervals: 3), YScale(lo: 0, hi: 30_000_000, step: 10_000_000))
    // Over many maxima, no axis leaves more than 30 % of itself empty on a tall plot.
    var worst = 0.0
    var v = 1.0
    while v < 1e9 {
      let s = YScale.nice(for: ValueRange(0, v))
      worst = max(worst, (s.hi - v) / (s.hi - s.lo))
      XCTAssertLessThanOrEqual(s.ticks.count - 1, 6)
      v *= 1.013
    }
    XCTAssertLessThan(worst, 0.30, "worst waste \(worst)")
  }
}
