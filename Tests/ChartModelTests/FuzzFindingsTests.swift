import ChartModel
import XCTest

/// Regression tests for what libFuzzer found in the decoders (docs/fuzzing.md): inputs a
/// decoder accepted and the chart layout or its labels then trapped on; data exactly at the
/// new limits; and a JSON bug found while writing the JSON target.
final class FuzzFindingsTests: XCTestCase {
  func decodeError(_ json: String) -> String? {
    do { _ = try TelegramDecoder.decode(Array(json.utf8), file: "f.json"); return nil } catch { return error.description }
  }
  func csvError(_ csv: String) -> String? {
    do { _ = try CSVDecoder.decode(Array(csv.utf8), file: "f.csv"); return nil } catch { return error.description }
  }

  /// Two columns with one label made two lines with one id; the chart's layout keys its
  /// line state by id (`Dictionary(uniqueKeysWithValues:)`) and trapped.
  func testDuplicateColumnLabelsAreRejected() throws {
    let e = try XCTUnwrap(decodeError("{\"columns\": [[\"x\", 1, 2], [\"y0\", 1, 2], [\"y0\", 3, 4]]}"))
    XCTAssertTrue(e.contains("f.json: .columns[2][0]: a second column labelled 'y0'"), e)
    XCTAssertNotNil(decodeError("{\"columns\": [[\"x\", 1, 2], [\"x\", 3, 4], [\"y0\", 1, 2]]}"))
    // The input the fuzzer found (round 2 overview with 'y4' twice).
    let found = try FileReader.read(Self.crashes + "/telegram-duplicate-label.json")
    XCTAssertThrowsError(try TelegramDecoder.decode(found, file: "f.json"))
  }

  /// A value of 1e308 next to a negative one: the y-range's span overflowed to infinity and
  /// `YScale.best` trapped converting log10(inf) to Int.
  func testHugeValuesAreRejected() throws {
    let e = try XCTUnwrap(decodeError("{\"columns\": [[\"x\", 1, 2], [\"y0\", -490, 1e308]]}"))
    XCTAssertTrue(e.contains(".columns[1][2]: value 1e+308 is out of range (at most 1e300 in magnitude)"), e)
    let c = try XCTUnwrap(csvError("t,a\n2019-01-01,1e301\n"))
    XCTAssertTrue(c.contains("line 2, column 2: value '1e301' is out of range"), c)
    XCTAssertThrowsError(try InlineSeries.make(name: "s", xs: [1, 2], lines: [.init(values: [1, -1e308])]))
    // NaN stays a gap.
    XCTAssertNoThrow(try InlineSeries.make(name: "s", xs: [1, 2], lines: [.init(values: [1, .nan])]))
  }

  /// A time of 1.5e23 ms: the x-axis labels trapped converting it to Int seconds.
  func testTimesOutOfRangeAreRejected() throws {
    let c = try XCTUnwrap(csvError("t,a\n1546300800,1\n154631546300800000443601,3\n"))
    XCTAssertTrue(c.contains("line 3: time '154631546300800000443601' is out of range"), c)
    // Seconds so negative that ×1000 overflows to -inf.
    XCTAssertNotNil(csvError("t,a\n-1e308,1\n0,2\n"))
    let e = try XCTUnwrap(decodeError("{\"columns\": [[\"x\", 1, 1e20], [\"y0\", 1, 2]]}"))
    XCTAssertTrue(e.contains(".columns[0][2]: x value 1e+20 is out of range"), e)
    XCTAssertThrowsError(try InlineSeries.make(name: "s", xs: [0, .infinity], lines: [.init(values: [1, 2])]))
    XCTAssertThrowsError(try InlineSeries.make(name: "s", xs: [.nan], lines: [.init(values: [1])]))
  }

  /// Data at the limits decodes, and everything the views compute from it stays finite.
  func testDataAtTheLimitsIsDrawable() throws {
    let m = DataLimits.maxTimeMs, v = DataLimits.maxValue
    let json = "{\"columns\": [[\"x\", -\(Int64(m)), 0, \(Int64(m))], [\"y0\", -1e300, 5e-324, 1e300], [\"y1\", 5e-324, 0, null]]}"
    let set = try TelegramDecoder.decode(Array(json.utf8))[0]
    XCTAssertEqual(set.lines[0].values, [-v, Double.leastNonzeroMagnitude, v])
    for w in [TimeWindow.all, TimeWindow(0.99, 1), TimeWindow(0.5, 0.51)] {
      set.setRange(w.lo, w.hi)
      for hidden in [false, true] {
        set.setHidden("y0", hidden)
        let range = try XCTUnwrap(set.drawnRange(in: set.window))
        let scale = YScale.nice(for: range, maxIntervals: 5)
        XCTAssertTrue(scale.lo.isFinite && scale.hi.isFinite && scale.step > 0, "\(scale)")
        XCTAssertLessThanOrEqual(scale.lo, range.min)
        XCTAssertGreaterThanOrEqual(scale.hi, range.max)
        XCTAssertTrue((2...7).contains(scale.ticks.count), "\(scale.ticks)")
        for t in scale.ticks { XCTAssertFalse(CompactNumber.format(t, step: scale.step).isEmpty) }
      }
      let tLo = set.time(atFraction: set.window.lo), tHi = set.time(atFraction: set.window.hi)
      let made = TimeScale.make(tLo: tLo, tHi: tHi, plotWidth: 400, spacing: 60) { Double($0.count) * 7 }
      XCTAssertFalse(made.ticks.isEmpty)
    }
    XCTAssertEqual(DateText.iso(set.firstMs), "-271821-04-20")
    XCTAssertEqual(DateText.iso(set.lastMs), "275760-09-13")
    XCTAssertEqual(CompactNumber.grouped(v), "1e+300")
    let csv = try CSVDecoder.decode(Array("t,a\n-8640000000000000,1e300\n8640000000000000,-1e300\n".utf8))
    XCTAssertEqual(csv.xs, [-m, m])
  }

  /// The axis and label helpers never trap, whatever they are given.
  func testAxisHelpersNeverTrap() {
    for (lo, hi) in [(-1e308, 1e308), (0, Double.leastNonzeroMagnitude), (1e-250, 2e-250), (-.greatestFiniteMagnitude, .greatestFiniteMagnitude)] {
      let s = YScale.nice(for: ValueRange(lo, hi))
      XCTAssertLessThanOrEqual(s.lo, lo)
      XCTAssertGreaterThanOrEqual(s.hi, hi)
      XCTAssertFalse(s.ticks.isEmpty)
      for t in s.ticks { _ = CompactNumber.format(t, step: s.step) }
    }
    XCTAssertEqual(YScale(lo: 0, hi: 1, step: 1e-300).ticks, [0, 1])
    for ms in [1e300, -1e300, .nan, .infinity, -.infinity, 1.5e23] {
      _ = DateText.monthDay(ms)
      _ = DateText.hourMinute(ms)
      _ = DateText.poster(ms)
      _ = DateText.iso(ms)
    }
    XCTAssertEqual(CompactNumber.grouped(1e20), "1e+20")
    XCTAssertEqual(CompactNumber.grouped(-.infinity), "\u{2212}inf")
    XCTAssertEqual(CompactNumber.grouped(4_505_200), "4,505,200")
  }

  /// Found by reading the parser while writing the JSON target: a high surrogate followed by
  /// an escape that is not a low surrogate swallowed that escape.
  func testLoneHighSurrogateKeepsTheNextCharacter() throws {
    XCTAssertEqual(try JSONParser.parse(Array("\"\\ud800\\u0041\"".utf8)), .string("\u{FFFD}A"))
    XCTAssertEqual(try JSONParser.parse(Array("\"\\ud800\\ud83d\\ude00\"".utf8)), .string("\u{FFFD}😀"))
    XCTAssertEqual(try JSONParser.parse(Array("\"\\ud83d\\ude00\"".utf8)), .string("😀"))
  }

  static let crashes: String = {
    var parts = "\(#filePath)".split(separator: "/").map(String.init)
    parts.removeLast(3)  // Tests/ChartModelTests/FuzzFindingsTests.swift
    return "/" + parts.joined(separator: "/") + "/fuzz/crashes-found"
  }()
}
