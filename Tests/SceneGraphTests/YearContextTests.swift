import ChartModel
import Drawing
import Render
@testable import SceneGraph
import XCTest

/// Issue 21 item 5: the X axis always gives its year context. A window whose labels are
/// months or dates (`Apr`, `Mar 5`) shows the year beside its first label with room
/// (`Mar 5 2019`), one of times (`06:00`) the date (`Apr 2 2019`); a row with a year label
/// (`2019`) needs none, as matplotlib's ConciseDateFormatter leaves its offset out then. The
/// context is a text of its own (`ChartAxes.xContext`): the labels keep their texts and
/// fades (XLabelFadeTests).
final class YearContextTests: XCTestCase {
  let measurer = FixedWidthTextMeasurer()

  static let directory: String = {
    var parts = "\(#filePath)".split(separator: "/").map(String.init)
    parts.removeLast(3)  // Tests/SceneGraphTests/YearContextTests.swift
    return "/" + parts.joined(separator: "/") + "/assets/locales"
  }()

  static func ms(_ y: Int, _ m: Int, _ d: Int, _ h: Int = 0) -> Double {
    (Double(ISODate.days(year: y, month: m, day: d)) * 86400 + Double(h * 3600)) * 1000
  }

  func set(from start: Double, step: Double, count: Int) -> ChartSet {
    let xs = (0..<count).map { start + Double($0) * step }
    return ChartSet(name: "S", xs: xs, lines: [Line(id: "a", name: "A", color: Palette.color(0), values: (0..<count).map { Double(($0 * 7) % 23) })])
  }

  func axes(_ set: ChartSet, width: Double = 720, height: Double = 400, format: DisplayFormat = .standard) -> (ChartAxes, ChartParts) {
    var spec = ChartSpec(data: set)
    spec.format = format
    let parts = ChartParts.make(spec: spec, card: false, frame: Rect(0, 0, width, height), measurer: measurer)
    let snap = ChartSnapshot(spec: spec, plot: parts.plot)
    return (ChartAxes(spec: spec, parts: parts, snap: snap, measurer: measurer, rest: 1), parts)
  }

  /// The label the context stands beside (a contextSpace away), or nil.
  func anchor(_ axes: ChartAxes) -> DrawnLabel? {
    guard let c = axes.xContext else { return nil }
    return axes.xLabels.first { abs($0.frame.maxX + ChartAxes.contextSpace - c.frame.minX) < 0.01 || abs(c.frame.maxX + ChartAxes.contextSpace - $0.frame.minX) < 0.01 }
  }

  /// Beside its label, fully drawn at rest, inside the plot, on the labels' row and clear
  /// of every other label.
  func assertPlaced(_ axes: ChartAxes, _ parts: ChartParts, _ what: String, file: StaticString = #filePath, line: UInt = #line) {
    guard let c = axes.xContext else { return XCTFail("\(what): no context; labels \(axes.xLabels.map(\.text))", file: file, line: line) }
    guard let a = anchor(axes) else { return XCTFail("\(what): '\(c.text)' stands beside no label", file: file, line: line) }
    XCTAssertEqual(c.alpha, 1, what, file: file, line: line)
    XCTAssertEqual(c.frame.y, a.frame.y, what, file: file, line: line)
    // Inside the plot, or at most `contextOverhang` (half the chart's padding) past its side.
    let reach = ChartAxes.contextOverhang + 0.01
    XCTAssertTrue(c.frame.minX >= parts.plot.minX - reach && c.frame.maxX <= parts.plot.maxX + reach, "\(what): '\(c.text)' leaves the plot", file: file, line: line)
    for l in axes.xLabels where l != a {
      XCTAssertFalse(l.frame.intersects(c.frame.inset(top: 0, left: -ChartAxes.labelGap + 0.01, bottom: 0, right: -ChartAxes.labelGap + 0.01)),
                     "\(what): '\(c.text)' too close to '\(l.text)'", file: file, line: line)
    }
  }

  /// Daily data from March to December 2019: no label says the year (`Apr`, `Jul`, `Oct`);
  /// the context does, at every width from a small window to a wall.
  func testDailyWindowInsideOneYearShowsTheYear() {
    let s = set(from: Self.ms(2019, 3, 1), step: 86_400_000, count: 306)
    for w in [640.0, 720, 1280, 1920] {
      for (lo, hi) in [(0.0, 1.0), (0.2, 0.5), (0.5, 0.55), (0.9, 1.0)] {
        s.setRange(lo, hi)
        let (axes, parts) = axes(s, width: w)
        XCTAssertFalse(axes.xLabels.contains { $0.text.count == 4 && Int($0.text) != nil }, "a year label in \(axes.xLabels.map(\.text))")
        assertPlaced(axes, parts, "\(w) px \(lo)-\(hi)")
        XCTAssertEqual(axes.xContext?.text, "2019")
        // English writes the year after the date (`Mar 5 2019`) where there is room.
        if w >= 1280, lo == 0, let c = axes.xContext, let a = anchor(axes) { XCTAssertGreaterThan(c.frame.minX, a.frame.minX) }
      }
    }
  }

  /// A row with a year label (`Nov`, `Dec`, `2019`, `Feb`) says the year: no context. Yearly
  /// data (labels are years) needs none either.
  func testAYearLabelNeedsNoContext() {
    let s = set(from: Self.ms(2018, 9, 1), step: 86_400_000, count: 240)
    let (a, _) = axes(s, width: 1280)
    XCTAssertTrue(a.xLabels.contains { $0.text == "2019" }, "\(a.xLabels.map(\.text))")
    XCTAssertNil(a.xContext)
    let years = ChartSet(name: "Y", xs: (1990...2020).map { Self.ms($0, 1, 1) }, lines: [Line(id: "a", name: "A", color: Palette.color(0), values: (0...30).map(Double.init))])
    for w in [320.0, 720, 1920] { XCTAssertNil(axes(years, width: w).0.xContext) }
  }

  /// Monthly data in one year: `Apr 2019`.
  func testMonthlyData() {
    let xs = (3...11).map { Self.ms(2019, $0, 1) }
    let s = ChartSet(name: "M", xs: xs, lines: [Line(id: "a", name: "A", color: Palette.color(0), values: xs.indices.map(Double.init))])
    let (a, parts) = axes(s, width: 1280)
    assertPlaced(a, parts, "monthly")
    XCTAssertEqual(a.xContext?.text, "2019")
  }

  /// Hourly data that starts at 05:00: the first label is a time (`12:00`), the context the
  /// date with its year; zoomed into a day (only times on the axis) too.
  func testHourlyDataShowsTheDate() {
    let s = set(from: Self.ms(2019, 4, 2, 5), step: 3_600_000, count: 60)
    let (a, parts) = axes(s, width: 1280)
    assertPlaced(a, parts, "hourly")
    XCTAssertEqual(a.xContext?.text, "Apr 2 2019")
    let long = set(from: Self.ms(2019, 6, 1), step: 3_600_000, count: 24 * 20)
    long.setRange(0.51, 0.53)  // Jun 11, 04:17 to 13:52
    let (z, zp) = axes(long, width: 1280)
    XCTAssertTrue(z.xLabels.allSatisfy { $0.text.contains(":") }, "\(z.xLabels.map(\.text))")
    assertPlaced(z, zp, "a day")
    XCTAssertEqual(z.xContext?.text, "Jun 11 2019")
  }

  /// Sliding a quarter-year window across two years day by day, the row always says the
  /// year: a year label, or the context with the year of the label it stands beside.
  func testEveryWindowSaysTheYear() {
    let s = set(from: Self.ms(2018, 1, 1), step: 86_400_000, count: 730)
    for w in [480.0, 720, 1280] {
      for k in 0...75 {
        let lo = Double(k) / 100
        s.setRange(lo, lo + 0.25)
        let (a, parts) = axes(s, width: w)
        if a.xLabels.contains(where: { $0.text == "2018" || $0.text == "2019" }) { continue }
        assertPlaced(a, parts, "\(w) px from \(lo)")
        XCTAssertTrue(["2018", "2019"].contains(a.xContext?.text ?? ""), "\(w) px from \(lo): \(a.xContext?.text ?? "none")")
      }
    }
  }

  /// Locales: the year in the locale's pattern (`2019年`), before the label where the
  /// locale writes the year first (ja, zh, ko), after it elsewhere; in a right-to-left
  /// locale the sides swap on the left-to-right axis.
  func testLocalesWriteAndPlaceTheContext() throws {
    let s = set(from: Self.ms(2019, 3, 1), step: 86_400_000, count: 306)
    for (name, text, before) in [("ja", "2019年", true), ("zh-Hans", "2019年", true), ("ko", "2019년", true), ("de", "2019", false), ("ru", "2019", false),
                                 ("ar", "2019", true), ("he", "2019", true)] {
      let f = try DisplayFormat.resolve(locale: name, timezone: nil, localesDirectory: Self.directory)
      let (a, parts) = axes(s, width: 1280, format: f)
      assertPlaced(a, parts, name)
      XCTAssertEqual(a.xContext?.text, text, name)
      if let c = a.xContext, let l = anchor(a) { XCTAssertEqual(c.frame.maxX <= l.frame.minX, before, "\(name): '\(c.text)' beside '\(l.text)'") }
    }
    // Japanese times: the date first (`2019年4月2日`), as its date-time pattern joins them.
    let ja = try DisplayFormat.resolve(locale: "ja", timezone: nil, localesDirectory: Self.directory)
    let c = try XCTUnwrap(ja.axisContext(Self.ms(2019, 4, 2, 6)))
    XCTAssertEqual(c.text, "2019年4月2日")
    XCTAssertTrue(c.before)
    XCTAssertFalse(c.year)
  }

  /// Time zones: the context is the local date and year (New Year's Eve 20:00 UTC is
  /// already 2019 in Tokyo).
  func testTimeZones() throws {
    let t = Self.ms(2018, 12, 31, 20)
    XCTAssertEqual(DisplayFormat.standard.axisContext(t)?.text, "Dec 31 2018")
    let tokyo = try DisplayFormat.resolve(locale: "en", timezone: "Asia/Tokyo", localesDirectory: Self.directory)
    XCTAssertEqual(tokyo.axisContext(t)?.text, "Jan 1 2019")
    // Midnight in Tokyo is a date label (`Jan 2`): its context is the year.
    XCTAssertEqual(tokyo.axisContext(Self.ms(2019, 1, 1, 15))?.text, "2019")
    XCTAssertNil(tokyo.axisContext(Self.ms(2018, 12, 31, 15)))  // Tokyo's New Year: the label is `2019`
  }

  /// Small charts: where no label has room beside it, the context takes the room of the
  /// labels next to the first one (`Mar 2019  May  Jun`, not drawn at rest), never a year
  /// label's; it is never drawn over a label or out of the plot.
  func testSmallSizesNeverCrowd() {
    let s = set(from: Self.ms(2019, 3, 1), step: 86_400_000, count: 306)
    for w in [160.0, 200, 240, 320, 360] {
      for (lo, hi) in [(0.0, 1.0), (0.3, 0.4), (0.7, 0.72), (0.2, 0.5)] {
        s.setRange(lo, hi)
        let (a, parts) = axes(s, width: w, height: 240)
        if !a.xLabels.isEmpty || a.xContext != nil { assertPlaced(a, parts, "\(w) px \(lo)-\(hi)") }
      }
    }
  }

  /// The crowded row of a phone (`Sep 23  Oct 7  Oct 21  Nov 4` at 320 px): the context
  /// stands beside the first label in the room of the second, which is not drawn at rest;
  /// in the room of the first where the locale writes the context first (a date before
  /// times: `Jun 11 2019 06:00`, not `03:00 Jun 11 2019`).
  func testACrowdedRowGivesALabelsRoomToTheContext() throws {
    let s = set(from: Self.ms(2018, 9, 16), step: 86_400_000, count: 30)
    let (a, parts) = axes(s, width: 320, height: 240)
    assertPlaced(a, parts, "320 px")
    XCTAssertEqual(a.xContext?.text, "2018")
    XCTAssertEqual(anchor(a), a.xLabels.first)
    // While the window moves (no context) the label is there.
    var spec = ChartSpec(data: s)
    spec.format = .standard
    let moving = ChartAxes(spec: spec, parts: parts, snap: ChartSnapshot(spec: spec, plot: parts.plot), measurer: measurer, rest: 0)
    XCTAssertNil(moving.xContext)
    let gone = moving.xLabels.filter { l in !a.xLabels.contains { $0.text == l.text } }.map(\.text)
    XCTAssertEqual(gone, ["Sep 23"], "\(moving.xLabels.map(\.text)) → \(a.xLabels.map(\.text))")
    // Hourly, a date context before times.
    let h = set(from: Self.ms(2019, 6, 11, 1), step: 3_600_000, count: 20)
    let (b, bp) = axes(h, width: 300, height: 240)
    assertPlaced(b, bp, "hourly 300 px")
    XCTAssertEqual(b.xContext?.text, "Jun 11 2019")
    if let c = b.xContext, let l = anchor(b) { XCTAssertLessThan(c.frame.maxX, l.frame.minX, "'\(c.text)' after '\(l.text)'") }
  }

  /// `--inspect` lists the context after `xLabels` (null when there is none); the display
  /// list draws it.
  func testInspectAndDraw() throws {
    let s = set(from: Self.ms(2019, 3, 1), step: 86_400_000, count: 306)
    let scene = Scene(width: 720, height: 400, theme: .day, root: Node(id: "c", kind: .chart(ChartSpec(data: s))))
    try Layout(measurer: measurer).layout(scene)
    let json = Inspector(measurer: measurer).inspect(scene, time: 0).render()
    let labels = try XCTUnwrap(json.range(of: "\"xLabels\"")), context = try XCTUnwrap(json.range(of: "\"xContext\": {"))
    XCTAssertLessThan(labels.lowerBound, context.lowerBound)
    XCTAssertTrue(json[context.upperBound...].hasPrefix("\n") && json.contains("\"text\": \"2019\""), json)
    let list = try DisplayListBuilder(measurer: measurer).build(scene, time: 0)
    XCTAssertTrue(list.items.contains { if case .text(let r) = $0 { return r.text == "2019" }; return false })

    let years = ChartSet(name: "Y", xs: (1990...2020).map { Self.ms($0, 1, 1) }, lines: [Line(id: "a", name: "A", color: Palette.color(0), values: (0...30).map(Double.init))])
    let yearly = Scene(width: 720, height: 400, theme: .day, root: Node(id: "c", kind: .chart(ChartSpec(data: years))))
    try Layout(measurer: measurer).layout(yearly)
    XCTAssertTrue(Inspector(measurer: measurer).inspect(yearly, time: 0).render().contains("\"xContext\": null"))
  }
}
