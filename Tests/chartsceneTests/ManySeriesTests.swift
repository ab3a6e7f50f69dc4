import Foundation
import XCTest

/// Issue 21 on data shaped like the data that showed each defect: gapminder-like long data
/// (142 countries, yearly rows every 5 years, written as pandas writes it), 50 stacked bar
/// series zoomed into a day. Each test reads `--inspect` (what is drawn) and runs lint.
final class ManySeriesTests: TempFolderCase {

  /// Gapminder's shape: `country,continent,year,lifeExp,pop,gdpPercap`, 142 countries,
  /// 1952 to 2007 every 5 years, sorted by country then year (as plotly ships it).
  static func gapminder(countries: Int = 142) -> String {
    var seed: UInt64 = 7
    func next() -> Double {
      seed = seed &* 6364136223846793005 &+ 1442695040888963407
      return Double(seed >> 11) / Double(1 << 53)
    }
    var out = "country,continent,year,lifeExp,pop,gdpPercap\n"
    for c in 0..<countries {
      let base = 30 + 40 * next(), pop = 200_000 + 120_000_000 * next() * next()
      for (k, year) in stride(from: 1952, through: 2007, by: 5).enumerated() {
        let life = base + Double(k) * (0.2 + 1.3 * next())
        out += "Country \(String(format: "%03d", c)),Asia,\(year),\(String(format: "%.3f", life)),\(Int(pop * pow(1.1, Double(k)))),\(String(format: "%.6f", 300 + 9000 * next()))\n"
      }
    }
    return out
  }

  func write(_ name: String, _ text: String) throws -> URL {
    let u = tmp.appendingPathComponent(name)
    try FileManager.default.createDirectory(at: u.deletingLastPathComponent(), withIntermediateDirectories: true)
    try text.write(to: u, atomically: true, encoding: .utf8)
    return u
  }

  func inspect(_ script: URL, _ extra: [String] = []) throws -> [String: Any] {
    let r = try CLI.run([script.path, "--inspect"] + extra)
    XCTAssertEqual(r.status, 0, r.stderr)
    return try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
  }

  /// Every chart node of an `--inspect` document, depth first.
  func charts(_ doc: [String: Any]) -> [[String: Any]] {
    var out: [[String: Any]] = []
    func visit(_ n: [String: Any]) {
      if n["kind"] as? String == "chart" || n["kind"] as? String == "card" { out.append(n) }
      for c in n["children"] as? [[String: Any]] ?? [] { visit(c) }
    }
    visit(doc["root"] as? [String: Any] ?? [:])
    return out
  }

  static func inside(_ r: [Double], _ outer: [Double]) -> Bool {
    r[0] >= outer[0] - 0.5 && r[1] >= outer[1] - 0.5 && r[0] + r[2] <= outer[0] + outer[2] + 0.5 && r[1] + r[3] <= outer[1] + outer[3] + 0.5
  }

  func lintClean(_ script: URL, sizes: [String?] = [nil, "360x640", "320x240"], file: StaticString = #filePath, line: UInt = #line) throws {
    for size in sizes {
      let r = try CLI.run(["lint", script.path] + (size.map { ["--size", $0] } ?? []))
      XCTAssertEqual(r.status, 0, "\(size ?? "own size"): \(r.stdout)\(r.stderr)", file: file, line: line)
    }
  }

  // MARK: - 10. The poster stays inside its plot

  func gapminderScene() throws -> URL {
    _ = try write("gapminder.csv", ManySeriesTests.gapminder())
    return try write("gap.lua", """
    local cs = require("chartscene")
    local life = cs.data.csv("gapminder.csv", { x = "year", series = "country", value = "lifeExp", timeFormat = "%Y" })
    local pop = cs.data.csv("gapminder.csv", { x = "year", series = "country", value = "pop", timeFormat = "%Y" })
    return cs.scene { width = 720, height = 1280, root = cs.vstack {
      cs.chart { id = "life", data = life, indicatorAt = 0.5 },
      cs.chart { id = "pop", data = pop, indicatorAt = 0.5, type = "area", stacked = true },
    } }
    """)
  }

  func testPosterOf142SeriesShowsWhatFitsAndSaysHowManyMore() throws {
    let script = try gapminderScene()
    for size in [[], ["--size", "320x240"], ["--size", "360x640"]] {
      let all = charts(try inspect(script, size))
      XCTAssertEqual(all.count, 2)
      for chart in all {
        let parts = try XCTUnwrap(chart["parts"] as? [String: [Double]])
        let plot = try XCTUnwrap(parts["plot"]), box = try XCTUnwrap(parts["poster"], "\(size) no poster")
        XCTAssertTrue(ManySeriesTests.inside(box, plot), "\(size) \(chart["id"]!): poster \(box) outside plot \(plot)")
        let poster = try XCTUnwrap(chart["poster"] as? [String: Any])
        XCTAssertEqual(poster["date"] as? String, "1977")
        let rows = try XCTUnwrap(poster["rows"] as? [[String]])
        let left = try XCTUnwrap(poster["left"] as? Int)
        // Every line is accounted for: the rows shown plus the ones the last row counts;
        // with room for one row (320×240), the biggest value alone (issue 39, item 11).
        let counted = rows.count > 1 ? 1 : 0
        XCTAssertEqual(rows.count - counted + left, 142, "\(size)")
        if counted == 1 { XCTAssertEqual(rows.last, ["+ \(left) more", ""]) } else { XCTAssertFalse(rows.last?[1].isEmpty ?? true, "\(size)") }
        // Rows are 20 px: the box holds the date and every row, no more.
        XCTAssertLessThanOrEqual(Double(rows.count) * 20, box[3])
        // The biggest values show, biggest first.
        let values = rows.dropLast(counted).map { Double($0[1].replacingOccurrences(of: ",", with: ""))! }
        XCTAssertEqual(values, values.sorted(by: >), "\(size) \(chart["id"]!)")
      }
    }
    // At the scene's own size the line chart's poster (a 311 px plot) shows 12 countries and
    // says "+ 130 more".
    let life = charts(try inspect(script))[0]["poster"] as? [String: Any]
    XCTAssertEqual(life?["left"] as? Int, 130)
    try lintClean(script)
  }

  /// 50 stacked bar series zoomed into a day (the detail file of hours): the same rule, the
  /// total last, also at 320×240 where only the date and one row fit.
  func testPosterOfFiftyStackedBarsInAZoomedDay() throws {
    let day0 = 1_546_300_800_000.0, d = 86_400_000.0
    func set(_ xs: [Double], scale: Double) -> String {
      var cols = ["[\"x\"," + xs.map { String(Int($0)) }.joined(separator: ",") + "]"]
      for k in 0..<50 { cols.append("[\"y\(k)\"," + xs.indices.map { i in String(Int(scale * Double(1 + (k * 7 + i * 3) % 11))) }.joined(separator: ",") + "]") }
      let types = (0..<50).map { "\"y\($0)\":\"bar\"" }.joined(separator: ",")
      let names = (0..<50).map { "\"y\($0)\":\"Series \($0)\"" }.joined(separator: ",")
      let colors = (0..<50).map { "\"y\($0)\":\"#\(String(format: "%06X", ($0 * 2_654_435) % 0xFFFFFF))\"" }.joined(separator: ",")
      return "{\"columns\":[\(cols.joined(separator: ","))],\"types\":{\(types)},\"names\":{\(names)},\"colors\":{\(colors)},\"stacked\":true}"
    }
    _ = try write("many/overview.json", set((0..<90).map { day0 + Double($0) * d }, scale: 1000))
    let mid = day0 + 69 * d
    _ = try write("many/2019-03/11.json", set((0..<(7 * 24)).map { mid - 3 * d + Double($0) * 3_600_000 }, scale: 40))
    let script = try write("zoom.lua", """
    local cs = require("chartscene")
    local set = cs.data.telegram("many/overview.json", { days = "many" })[1]
    set:zoom("2019-03-11")
    return cs.scene { width = 720, height = 640, root = cs.chart { id = "z", data = set, indicatorAt = 0.5 } }
    """)
    for size in [[], ["--size", "320x240"]] {
      let chart = try XCTUnwrap(charts(try inspect(script, size)).first)
      XCTAssertEqual(chart["zoom"] as? String, "2019-03-11")
      let parts = try XCTUnwrap(chart["parts"] as? [String: [Double]])
      let box = try XCTUnwrap(parts["poster"], "\(size)")
      XCTAssertTrue(ManySeriesTests.inside(box, try XCTUnwrap(parts["plot"])), "\(size)")
      let poster = try XCTUnwrap(chart["poster"] as? [String: Any])
      let rows = try XCTUnwrap(poster["rows"] as? [[String]])
      let left = try XCTUnwrap(poster["left"] as? Int)
      XCTAssertGreaterThan(left, 0)
      // With room for one row (320×240) the biggest value alone, no "+ N more" (issue 39).
      let more = rows.firstIndex { $0[0] == "+ \(left) more" } ?? rows.count
      if more == rows.count { XCTAssertEqual(rows.count, 1, "\(size)") }
      let lines = rows.prefix(more).count
      XCTAssertEqual(lines + left, 50)
      if size.isEmpty { XCTAssertEqual(rows.last?[0], "All") }
    }
    try lintClean(script)
  }

  // MARK: - 11. Pie labels scale with the pie and never clip

  /// Shares like the contest's fruits (47 %, 32 %, 9 %, 7 %, 3 %) and a sliver (0.4 %): the
  /// pie of one day at its own size, 360×640 (where "47%" spilled out as "47°") and 320×240.
  func testPieLabelsFitTheirSlicesOrGoOutside() throws {
    let day0 = 1_538_352_000_000.0, d = 86_400_000.0
    let shares = [470.0, 320, 90, 70, 30, 4]
    var cols = ["[\"x\"," + (0..<30).map { String(Int(day0 + Double($0) * d)) }.joined(separator: ",") + "]"]
    for (k, v) in shares.enumerated() { cols.append("[\"y\(k)\"," + (0..<30).map { i in String(Int(v * 100 + Double((i * 37 + k * 11) % 50))) }.joined(separator: ",") + "]") }
    let ids = shares.indices.map { "y\($0)" }
    func obj(_ f: (Int) -> String) -> String { "{" + ids.indices.map { "\"\(ids[$0])\":\"\(f($0))\"" }.joined(separator: ",") + "}" }
    _ = try write("fruits.json", "{\"columns\":[\(cols.joined(separator: ","))],\"types\":\(obj { _ in "area" }),\"names\":\(obj { "Fruit \($0)" }),"
      + "\"colors\":\(obj { ["#3896E8", "#246FD9", "#9ED448", "#5FB641", "#F5BD25", "#F79E39"][$0] }),\"percentage\":true,\"stacked\":true}")
    let script = try write("pie.lua", """
    local cs = require("chartscene")
    local set = cs.data.telegram("fruits.json")[1]
    set:zoom("2018-10-06")
    return cs.scene { width = 720, height = 640, root = cs.chart { id = "pie", data = set, title = "Fruits" } }
    """)
    var sizes: [String: Double] = [:]
    for size in [[], ["--size", "360x640"], ["--size", "480x300"], ["--size", "320x240"]] {
      let chart = try XCTUnwrap(charts(try inspect(script, size)).first)
      let plot = try XCTUnwrap((chart["parts"] as? [String: [Double]])?["plot"])
      let labels = try XCTUnwrap(chart["pieLabels"] as? [[String: Any]], "\(size)")
      for l in labels {
        let frame = try XCTUnwrap(l["frame"] as? [Double])
        XCTAssertTrue(ManySeriesTests.inside(frame, plot), "\(size) \(l)")
        if l["id"] as? String == "y0" { sizes[size.last ?? "own"] = l["size"] as? Double }
      }
      // The sliver (0.4 %) is never labelled inside; the big slices always are, somewhere.
      XCTAssertFalse(labels.contains { $0["id"] as? String == "y5" && $0["outside"] as? Bool == false })
    }
    // Scales with the pie: smaller in a 480×300 scene than at the scene's own size.
    let own = try XCTUnwrap(sizes["own"]), small = try XCTUnwrap(sizes["480x300"])
    XCTAssertLessThan(small, own)
    try lintClean(script, sizes: [nil, "360x640", "480x300", "320x240"])
  }

  // MARK: - 14. A legend of 142 lines wraps into what fits and says how many more

  func testLegendOf142LinesEndsInMoreAndLeavesThePlotHalf() throws {
    let script = try gapminderScene()
    for size in [[], ["--size", "360x640"], ["--size", "1920x1080"]] {
      for chart in charts(try inspect(script, size)) {
        let parts = try XCTUnwrap(chart["parts"] as? [String: [Double]])
        let frame = try XCTUnwrap(chart["frame"] as? [Double])
        let chips = parts.keys.filter { $0.hasPrefix("legend.") }
        let more = try XCTUnwrap(parts["legendMore"], "\(size): the legend was dropped")
        XCTAssertGreaterThan(chips.count, 0)
        // The chips and the "+ N more" chip stay inside the chart, under the mini-map.
        let mm = try XCTUnwrap(parts["minimap"])
        for key in chips + ["legendMore"] {
          let r = try XCTUnwrap(parts[key])
          XCTAssertTrue(ManySeriesTests.inside(r, frame), "\(size) \(key)")
          XCTAssertGreaterThanOrEqual(r[1], mm[1] + mm[3])
        }
        XCTAssertGreaterThanOrEqual(more[1], chips.map { parts[$0]![1] }.max()!)
        // The chart keeps most of the space: the plot is at least 40 % of the frame.
        let plot = try XCTUnwrap(parts["plot"])
        XCTAssertGreaterThanOrEqual(plot[3], 0.4 * frame[3], "\(size)")
      }
    }
    // The chip says how many lines have no chip.
    for chart in charts(try inspect(script)) {
      let chips = (chart["parts"] as? [String: [Double]] ?? [:]).keys.filter { $0.hasPrefix("legend.") }.count
      XCTAssertEqual(chart["legendMore"] as? String, "+ \(142 - chips) more")
    }
    let r = try CLI.run(["lint", script.path])
    XCTAssertEqual(r.status, 0, r.stdout)
  }

  // MARK: - 16. Zooming out of a day: no empty plot, no lines dropping in

  /// examples/zoom.lua taps "Zoom Out" at 3.4 s (0.4 s back to the overview): at every frame
  /// the chart's Y axis holds what its window shows (before, it still showed the day's 0–250
  /// while the overview's 1K–3.5K lines were above the plot, then dropped in), and it does
  /// not move after the crossfade ends.
  func testZoomingOutKeepsTheLinesInThePlot() throws {
    var last: [Double]? = nil
    for k in 102...120 {
      // Just after each frame of the 30 fps scene (the axes move at frames).
      let t = Double(k) / 30 + 0.001
      let r = try CLI.run(["examples/zoom.lua", "--inspect", "--at", String(format: "%.4f", t)])
      XCTAssertEqual(r.status, 0, r.stderr)
      let doc = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
      let chart = try XCTUnwrap(charts(doc).first { $0["id"] as? String == "joined" })
      let y = try XCTUnwrap(chart["yRange"] as? [Double]), data = try XCTUnwrap(chart["dataRange"] as? [Double])
      XCTAssertTrue(y[0] <= data[0] + 1e-9 && y[1] >= data[1] - 1e-9, "t=\(t): axis \(y) misses the lines \(data)")
      if t > 3.82 { if let last { XCTAssertEqual(y, last, "t=\(t): the axis moves after the zoom") }; last = y }
    }
  }
}
