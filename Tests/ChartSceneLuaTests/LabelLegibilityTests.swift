import ChartModel
@testable import ChartSceneHost
import Drawing
import Foundation
import SceneGraph
import XCTest

/// Issue 21, items 6, 12, 15 and 17: axis labels read at WCAG AA (4.5:1) in both themes,
/// bars and stacks put them in a gutter, a right axis labels the left axis's grid lines,
/// small sizes keep a plot, and `chartscene lint` fails on each of these when it is put back.
final class LabelLegibilityTests: XCTestCase {
  let dir = ScriptFolder()

  func json(_ script: String, overrides: Session.Overrides = Session.Overrides()) throws -> [String: Any] {
    let s = try dir.session(script, overrides: overrides)
    return try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(try s.inspect(at: 0).utf8)) as? [String: Any])
  }

  func lint(_ script: String, _ overrides: Session.Overrides = Session.Overrides()) throws -> [String] {
    try Lint(session: try dir.session(script, overrides: overrides)).run().map(\.message)
  }

  func frame(_ v: Any?) -> Rect {
    let a = (v as? [Double]) ?? [0, 0, 0, 0]
    return Rect(a[0], a[1], a[2], a[3])
  }

  /// Daily bars shaped like the round-two fruit stacks: two saturated series.
  static func bars(_ chart: String, theme: String = "night") -> String {
    """
    local x, a, b = {}, {}, {}
    for i = 0, 29 do x[#x+1] = 1546300800000 + i * 86400000; a[#a+1] = 20 + (i % 7) * 3; b[#b+1] = 10 + (i % 5) * 2 end
    local set = cs.data.series{ name = "Fruit", x = x, lines = {
      { id = "a", name = "Apples", color = "#3497ED", values = a }, { id = "b", name = "Pears", color = "#F34C44", values = b } } }
    return cs.scene{ width = 400, height = 300, theme = \(theme),
      root = cs.chart{ id = "c", data = set, legend = false, minimap = false, indicator = false, \(chart) } }
    """
  }

  // MARK: - Item 6: contrast

  func testAxisTextReadsAtAAOnEveryBackgroundOfBothThemes() {
    for theme in [Theme.day, Theme.night] {
      for bg in [theme.background, theme.cardBackground, theme.groupedBackground] {
        XCTAssertGreaterThanOrEqual(Color.contrast(theme.axisText, bg), 4.5, "\(theme.name) axisText on \(bg.hexString)")
      }
    }
    // What they were: 2.6:1 (day) and 2.3:1 (night).
    XCTAssertEqual(Color.contrast(Color(hex: "#96A2AA")!, Theme.day.background), 2.61, accuracy: 0.01)
    XCTAssertEqual(Color.contrast(Color(hex: "#546778")!, Theme.night.background), 2.31, accuracy: 0.01)
  }

  func testReadableKeepsAColourThatReadsAndDarkensOrLightensOneThatDoesNot() {
    let blue = Color(hex: "#3497ED")!, yellow = Color(hex: "#F5BD25")!
    XCTAssertEqual(yellow.readable(on: Theme.night.background), yellow)
    let dark = yellow.readable(on: .white)
    XCTAssertGreaterThanOrEqual(Color.contrast(dark, .white), 4.5)
    XCTAssertLessThan(Color.contrast(dark, .white), 4.6, "the least change that reads")
    XCTAssertGreaterThanOrEqual(Color.contrast(blue.readable(on: Theme.night.background), Theme.night.background), 4.5)
  }

  func testBarsStacksAndPercentagesPutTheirYLabelsInAGutterWithTheirFullText() throws {
    for (chart, percent) in [("type = 'bar'", false), ("type = 'bar', stacked = true", false), ("type = 'area', percentage = true", true)] {
      let c = try XCTUnwrap(try json("local cs = require('chartscene')\n" + LabelLegibilityTests.bars(chart))["root"] as? [String: Any])
      let parts = try XCTUnwrap(c["parts"] as? [String: Any])
      let gutter = frame(parts["yGutter"])
      XCTAssertGreaterThan(gutter.width, 0, chart)
      let labels = try XCTUnwrap(c["yLabels"] as? [[String: Any]])
      XCTAssertFalse(labels.isEmpty)
      for l in labels {
        let text = l["text"] as? String ?? ""
        // `--inspect` gives the text drawn ("20%", not "20") and a box inside the gutter.
        XCTAssertEqual(text.hasSuffix("%"), percent, "\(chart): \(text)")
        let f = frame(l["frame"])
        XCTAssertTrue(f.x >= gutter.x - 0.5 && f.maxX <= gutter.maxX + 0.5, "\(chart): '\(text)' \(f) outside \(gutter)")
      }
    }
    // Plain lines keep the contest's labels inside; asking for inside on bars is honoured.
    for chart in ["type = 'line'", "type = 'bar', yLabels = 'inside'"] {
      let c = try XCTUnwrap(try json("local cs = require('chartscene')\n" + LabelLegibilityTests.bars(chart))["root"] as? [String: Any])
      XCTAssertNil((c["parts"] as? [String: Any])?["yGutter"], chart)
    }
  }

  func testLintPassesLabelsInsideBarsOnTheirBackingAndFailsTheOldGreyInBothThemes() throws {
    for theme in ["'day'", "'night'"] {
      for chart in ["type = 'bar', stacked = true", "type = 'bar', stacked = true, yLabels = 'inside'", "type = 'area', percentage = true, yLabels = 'inside'", "type = 'line'"] {
        XCTAssertEqual(try lint("local cs = require('chartscene')\n" + LabelLegibilityTests.bars(chart, theme: theme)), [], "\(theme) \(chart)")
      }
    }
    // The defect put back: the old axis colours (2.6:1 on white, 2.3:1 on night's blue).
    for (theme, ratio) in [("{ base = 'day', axisText = '#96A2AA' }", "2.6"), ("{ base = 'night', axisText = '#546778' }", "2.3")] {
      let found = try lint("local cs = require('chartscene')\n" + LabelLegibilityTests.bars("type = 'line'", theme: theme))
      XCTAssertTrue(found.contains("label '20' has contrast \(ratio):1 against what is under it (at least 4.5:1 needed)"), "\(theme): \(found)")
      XCTAssertTrue(found.contains { $0.hasPrefix("label 'Jan 13' has contrast \(ratio):1") }, "\(theme): \(found)")
    }
  }

  /// The defect of the issue rebuilt as a display list: grey text with a halo in the
  /// background colour over a saturated bar (1.89:1 at night) fails; the same text on an
  /// opaque backing passes.
  func testLintFailsAHaloedLabelOnASaturatedFill() throws {
    let s = try dir.session("local cs = require('chartscene')\n" + LabelLegibilityTests.bars("type = 'bar'"))
    let lint = Lint(session: s)
    let night = Theme.night
    let old = Color(hex: "#546778")!
    let bar = DisplayItem.path(.rect(Rect(10, 10, 200, 100)), .fill(Color(hex: "#3497ED")!))
    let text = DisplayItem.text(TextRun("20K", font: ChartMetrics.axisFont, color: old, origin: Point(20, 40), halo: night.background, isLabel: true))
    var out: [String] = []
    var more = 0
    lint.checkDisplayList(DisplayList(size: Size(300, 200), background: night.background, items: [bar, text]), viewports: [], into: &out, more: &more)
    XCTAssertEqual(out.count, 1, "\(out)")
    XCTAssertEqual(out.first, "label '20K' has contrast 1.8:1 against what is under it (at least 4.5:1 needed)")
    out = []
    let backing = DisplayItem.path(.rect(Rect(17, 39, 30, 16), radius: 3), .fill(night.background))
    let fixed = DisplayItem.text(TextRun("20K", font: ChartMetrics.axisFont, color: night.axisText, origin: Point(20, 40), isLabel: true))
    lint.checkDisplayList(DisplayList(size: Size(300, 200), background: night.background, items: [bar, backing, fixed]), viewports: [], into: &out, more: &more)
    XCTAssertEqual(out, [])
    // Texts that are not axis labels (a chip's white name on its line colour) are not judged.
    let chip = DisplayItem.text(TextRun("Joined", font: ChartMetrics.chipFont, color: .white, origin: Point(20, 40)))
    lint.checkDisplayList(DisplayList(size: Size(300, 200), background: night.background, items: [bar, chip]), viewports: [], into: &out, more: &more)
    XCTAssertEqual(out, [])
  }

  // MARK: - Item 15: the "%" in the gutter

  /// A percentage chart's labels measured without their "%" (the old gutter and `--inspect`
  /// said "20" where "20%" was drawn): lint says the label reaches into the plot.
  func testLintFailsAPercentLabelThatReachesIntoThePlot() throws {
    let s = try dir.session("local cs = require('chartscene')\n" + LabelLegibilityTests.bars("type = 'area', percentage = true"))
    let n = try XCTUnwrap(s.scene.root.children.first { $0.chart != nil } ?? (s.scene.root.chart != nil ? s.scene.root : nil))
    let spec = try XCTUnwrap(n.chart)
    let parts = ChartParts.make(spec: spec, card: false, frame: n.contentFrame, measurer: s.text)
    let snap = ChartSnapshot(spec: spec, plot: parts.plot)
    var axes = ChartAxes(spec: spec, parts: parts, snap: snap, measurer: s.text, rest: 1)
    var pairs = Set<String>()
    XCTAssertEqual(Lint.labelFindings(name: "chart 'c'", spec: spec, parts: parts, snap: snap, axes: axes, frame: n.contentFrame, opacity: 1, pairs: &pairs), [])
    // Put the defect back: each label placed by the width of its number, drawn with its "%".
    let percent = s.text.measure("%", font: ChartMetrics.axisFont).width
    for k in axes.yLabels.indices {
      axes.yLabels[k].frame = Rect(axes.yLabels[k].frame.x + percent, axes.yLabels[k].frame.y, axes.yLabels[k].frame.width, axes.yLabels[k].frame.height)
    }
    let found = Lint.labelFindings(name: "chart 'c'", spec: spec, parts: parts, snap: snap, axes: axes, frame: n.contentFrame, opacity: 1, pairs: &pairs)
    XCTAssertTrue(found.contains("chart 'c': Y label '100%' does not fit its gutter (it reaches into the plot)"), "\(found)")
  }

  // MARK: - Item 12: two Y axes

  /// Two lines whose nice axes have different interval counts on their own (0–1000 in five
  /// steps of 200, 0–35 in four of 10): the right axis takes the left's count.
  static let twoAxes = """
    local cs = require('chartscene')
    local x, a, b = {}, {}, {}
    for i = 0, 59 do x[#x+1] = 1546300800000 + i * 86400000; a[#a+1] = 500 + 480 * math.sin(i / 6); b[#b+1] = 18 + 16 * math.cos(i / 9) end
    local set = cs.data.series{ name = "Stocks", x = x, lines = {
      { id = "a", name = "GOOG", color = "#3497ED", values = a }, { id = "b", name = "MSFT", color = "#F5BD25", values = b } } }
    return cs.scene{ width = 600, height = 400, theme = cs.args.theme or "day",
      root = cs.chart{ id = "c", data = set, yScaled = true, legend = false, minimap = false, indicator = false, yLabels = cs.args.place } }
    """

  func testTheRightAxisLabelsTheLeftAxisGridLines() throws {
    for place in ["inside", "outside"] {
      for theme in ["day", "night"] {
        var o = Session.Overrides()
        o.args = [("place", place), ("theme", theme)]
        let c = try XCTUnwrap(try json(LabelLegibilityTests.twoAxes, overrides: o)["root"] as? [String: Any])
        let ranges = try XCTUnwrap(c["yRanges"] as? [String: [Double]])
        let left = try XCTUnwrap(ranges["left"]), right = try XCTUnwrap(ranges["right"])
        let lefts = try XCTUnwrap(c["yLabels"] as? [[String: Any]]).map { frame($0["frame"]) }
        let rights = try XCTUnwrap(c["rightLabels"] as? [[String: Any]]).map { frame($0["frame"]) }
        XCTAssertEqual(lefts.count, rights.count, "\(place): \(left) \(right)")
        // Same heights: every right label is level with a left one (so on its grid line).
        for r in rights { XCTAssertTrue(lefts.contains { abs($0.midY - r.midY) < 0.5 }, "\(place): \(r) not level with a left label") }
        if place == "outside" {
          let g = frame((c["parts"] as? [String: Any])?["yGutter.right"])
          XCTAssertGreaterThan(g.width, 0)
          for r in rights { XCTAssertTrue(r.x >= g.x && r.maxX <= g.maxX + 0.5, "\(r) outside \(g)") }
        }
        XCTAssertEqual(try lint(LabelLegibilityTests.twoAxes, o), [], "\(place) \(theme)")
      }
    }
  }

  /// The defect put back: a right axis with its own nice steps (four intervals against the
  /// left's five) has labels between the grid lines, and lint says so.
  func testLintFailsARightAxisWithItsOwnSteps() throws {
    let s = try dir.session(LabelLegibilityTests.twoAxes)
    let n = s.scene.root
    let spec = try XCTUnwrap(n.chart)
    let parts = ChartParts.make(spec: spec, card: false, frame: n.contentFrame, measurer: s.text)
    var snap = ChartSnapshot(spec: spec, plot: parts.plot)
    var pairs = Set<String>()
    var axes = ChartAxes(spec: spec, parts: parts, snap: snap, measurer: s.text, rest: 1)
    XCTAssertEqual(Lint.labelFindings(name: "chart 'c'", spec: spec, parts: parts, snap: snap, axes: axes, frame: n.contentFrame, opacity: 1, pairs: &pairs), [])
    let own = YScale.nice(for: try XCTUnwrap(spec.data.rightAxisRange(spec.style)), maxIntervals: ChartMetrics.maxIntervals(plot: parts.plot, lineWidth: spec.lineWidth))
    XCTAssertNotEqual(((own.hi - own.lo) / own.step).rounded(), ((snap.targetScale.hi - snap.targetScale.lo) / snap.targetScale.step).rounded())
    snap.rightRange = ValueRange(own.lo, own.hi)
    snap.rightTicks = [(own, 1)]
    axes = ChartAxes(spec: spec, parts: parts, snap: snap, measurer: s.text, rest: 1)
    let found = Lint.labelFindings(name: "chart 'c'", spec: spec, parts: parts, snap: snap, axes: axes, frame: n.contentFrame, opacity: 1, pairs: &pairs)
    XCTAssertTrue(found.contains { $0.hasSuffix("is not on a grid line") }, "\(found)")
  }

  func testNiceScaleWithAGivenIntervalCount() {
    let s = YScale.nice(for: ValueRange(2, 35), intervals: 5)
    XCTAssertEqual(s.lo, 0); XCTAssertEqual(s.step, 10); XCTAssertEqual(s.hi, 50)
    let t = YScale.nice(for: ValueRange(612_000, 987_000), intervals: 4)
    XCTAssertEqual(t.lo, 600_000); XCTAssertEqual(t.hi, 1_000_000)
    for n in 1...8 {
      let u = YScale.nice(for: ValueRange(-3.3, 71.2), intervals: n)
      XCTAssertEqual(u.ticks.count, n + 1)
      XCTAssertLessThanOrEqual(u.lo, -3.3); XCTAssertGreaterThanOrEqual(u.hi, 71.2)
    }
  }

  // MARK: - Item 15: small sizes

  func testFiveChartsAt320x240KeepAPlot() throws {
    let script = """
      local cs = require('chartscene')
      local charts = { spacing = 0 }
      for i, set in ipairs(cs.data.sample()) do charts[#charts + 1] = cs.chart { id = "c" .. i, data = set, title = "Chart " .. i } end
      return cs.scene { width = 720, height = 2600, root = cs.vstack(charts) }
      """
    let doc = try json(script, overrides: Session.Overrides(width: 320, height: 240))
    let charts = try XCTUnwrap((doc["root"] as? [String: Any])?["children"] as? [[String: Any]])
    XCTAssertEqual(charts.count, 5)
    for c in charts {
      let plot = frame((c["parts"] as? [String: Any])?["plot"])
      // 48 px each: 8 px above and below, 32 px of plot (none before).
      XCTAssertGreaterThanOrEqual(plot.height, 32, "\(c["id"] ?? "")")
      XCTAssertGreaterThanOrEqual((c["yLabels"] as? [Any])?.count ?? 0, 1)
    }
    XCTAssertEqual(try lint(script, Session.Overrides(width: 320, height: 240)), [])
    // A chart with no room for a plot is a finding.
    let squeezed = """
      local cs = require('chartscene')
      return cs.scene { width = 320, height = 240, root = cs.vstack {
        cs.chart { id = "tiny", data = cs.data.sample()[1], frame = { height = 30 } }, cs.spacer {} } }
      """
    XCTAssertEqual(try lint(squeezed), ["chart 'tiny': its plot is 14 px high (at least 16 show the data; the chart is 30 px high)"])
  }

  /// Issue 21 item 5: a row at rest whose labels need the year and that has no room for it
  /// (a chart 70 px wide: `Mar` alone) is a finding; 80 px has room (`Mar 2019`).
  func testAnAxisWithNoRoomForTheYearIsAFinding() throws {
    func script(_ width: Int) -> String {
      """
      local cs = require('chartscene')
      local x, v = {}, {}
      for i = 0, 20 do x[#x+1] = 1551398400000 + i * 86400000; v[#v+1] = i % 5 end
      local set = cs.data.series{ name = "S", x = x, lines = { { id = "a", name = "A", color = "#3DC23F", values = v } } }
      return cs.scene{ width = 200, height = 200, root = cs.hstack{
        cs.chart{ id = "thin", data = set, legend = false, minimap = false, frame = { width = \(width) } }, cs.spacer{} } }
      """
    }
    XCTAssertEqual(try lint(script(70)), ["chart 'thin': its X axis does not say '2019' (its row has no room for it)"])
    XCTAssertEqual(try lint(script(80)), [])
  }

  func testLongTabTitlesEndInAnEllipsis() throws {
    let script = """
      local cs = require('chartscene')
      local sets = cs.data.sample()
      return cs.scene{ width = 320, height = 240, root = cs.tabs{ id = "tabs", selected = 1,
        { title = "Followers and subscribers", view = cs.chart{ data = sets[1] } },
        { title = "Views per country and day", icon = "carousel", view = cs.chart{ data = sets[2] } },
        { title = "Shares", icon = "cards", view = cs.chart{ data = sets[3] } } } }
      """
    let s = try dir.session(script)
    var texts: [String] = []
    func walk(_ items: [DisplayItem]) {
      for i in items {
        switch i {
        case .text(let r): texts.append(r.text)
        case .cached(_, _, let inner): walk(inner)
        case .layer(let l): walk(l.items)
        default: break
        }
      }
    }
    walk(try s.displayList(at: 0).items)
    XCTAssertTrue(texts.contains("Shares"), "\(texts)")
    let cut = texts.filter { $0.hasSuffix("…") }
    XCTAssertEqual(cut.count, 2, "\(texts)")
    XCTAssertTrue(cut.allSatisfy { $0.hasPrefix("Followers") || $0.hasPrefix("Views") }, "\(cut)")
    XCTAssertEqual(try lint(script), [])
  }

  func testACarouselInAPortraitSceneShowsItsNeighbours() throws {
    let script = """
      local cs = require('chartscene')
      local items = { id = "carousel", spacing = 24, itemWidth = 420, angle = 35 }
      for i, set in ipairs(cs.data.sample()) do items[#items + 1] = cs.card { id = "card" .. i, data = set } end
      return cs.scene{ width = 360, height = 640, root = cs.carousel(items) }
      """
    let doc = try json(script)
    let items = try XCTUnwrap((doc["root"] as? [String: Any])?["children"] as? [[String: Any]])
    let drawn = items.map { frame($0["drawn"]) }
    XCTAssertLessThanOrEqual(drawn[0].width, 360 * 0.6 + 0.5)
    // The second card shows at the right edge.
    XCTAssertLessThan(drawn[1].x, 360 - 20, "\(drawn[1])")
  }
}
