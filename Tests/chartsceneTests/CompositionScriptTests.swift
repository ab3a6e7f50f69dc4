import Foundation
import XCTest

/// Issue 20, item 6: the compositions written in Lua on `cs.view` in examples/ — the cover
/// flow (examples/flow.lua over examples/lib/coverflow.lua) and the grid that opens a chart
/// (examples/grid.lua over examples/lib/grid.lua) — driven by their timelines and by other
/// ones (`--timeline`), asserted through `--inspect`.
final class CompositionScriptTests: TempFolderCase {
  /// The root of the `--inspect` JSON of `script` at `t`, with `timeline` (Lua source) in
  /// place of the script's own when given.
  func root(_ script: String, at t: Double, timeline: String? = nil, file: StaticString = #filePath, line: UInt = #line) throws -> [String: Any] {
    var args = [script, "--inspect", "--at", String(t)]
    if let timeline {
      let u = tmp.appendingPathComponent("timeline-\(UUID().uuidString).lua")
      try timeline.write(to: u, atomically: true, encoding: .utf8)
      args += ["--timeline", u.path]
    }
    let r = try CLI.run(args)
    XCTAssertEqual(r.status, 0, r.stderr, file: file, line: line)
    XCTAssertEqual(r.stderr, "", file: file, line: line)
    let json = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any], file: file, line: line)
    return try XCTUnwrap(json["root"] as? [String: Any], file: file, line: line)
  }

  func children(_ root: [String: Any]) -> [[String: Any]] { root["children"] as? [[String: Any]] ?? [] }
  func rect(_ c: [String: Any], _ key: String = "drawn") -> [Double] { (c[key] as? [Any] ?? []).compactMap { ($0 as? NSNumber)?.doubleValue } }
  func number(_ v: Any?) -> Double { (v as? NSNumber)?.doubleValue ?? .nan }
  func placed(_ c: [String: Any], _ key: String) -> Double { number((c["placed"] as? [String: Any])?[key]) }

  /// The child drawn at the centre of a 1000 px wide cover flow: its drawn frame's centre.
  func centred(_ root: [String: Any]) -> String? {
    children(root).first { c in let r = rect(c); return r.count == 4 && abs(r[0] + r[2] / 2 - 500) < 1 }?["id"] as? String
  }

  // MARK: - Cover flow

  func testTheCentreChartIsFlatLargeAndInFrontTheOthersTurnAway() throws {
    let r = try root("examples/flow.lua", at: 0)
    XCTAssertEqual(r["kind"] as? String, "coverflow")
    XCTAssertEqual(number(r["index"]), 2)
    let c = children(r)
    XCTAssertEqual(c.count, 5)
    XCTAssertEqual(centred(r), "card2")
    XCTAssertEqual(placed(c[1], "rotation3d"), 0)
    XCTAssertEqual(placed(c[1], "scale"), 1)
    for (i, child) in c.enumerated() where i != 1 {
      // Left of the centre turned one way, right the other, by the full angle; smaller, behind.
      XCTAssertEqual(placed(child, "rotation3d"), i < 1 ? 55 : -55, accuracy: 0.01, "\(child["id"] ?? "")")
      XCTAssertLessThan(placed(child, "scale"), 1)
      XCTAssertLessThan(placed(child, "z"), placed(c[1], "z"))
      XCTAssertLessThan(rect(child)[2], rect(c[1])[2])
    }
    // Stacked: the side charts are closer to each other than to the centre one.
    let x = c.map { rect($0)[0] + rect($0)[2] / 2 }
    XCTAssertLessThan(x[3] - x[2] + 1, x[2] - x[1])
    XCTAssertLessThan(x[4] - x[3] + 1, x[2] - x[1])
    // Nearer the centre in front.
    XCTAssertGreaterThan(placed(c[2], "z"), placed(c[3], "z"))
    XCTAssertGreaterThan(placed(c[3], "z"), placed(c[4], "z"))
  }

  /// The script's timeline: a tap on card3 at 0.5 s, a drag back at 1.8 s, a flick at 3.6 s.
  func testATapOnASideChartBringsItToTheCentreWithASpring() throws {
    let moving = try root("examples/flow.lua", at: 0.6)
    let s = number(moving["scroll"])
    XCTAssertGreaterThan(s, 1.01, "not moving yet")
    XCTAssertLessThan(s, 1.99, "not animated")
    let after = try root("examples/flow.lua", at: 1.5)
    XCTAssertEqual(number(after["index"]), 3)
    XCTAssertEqual(number(after["scroll"]), 2, accuracy: 1e-6)
    XCTAssertEqual(centred(after), "card3")
    XCTAssertEqual(placed(children(after)[2], "rotation3d"), 0)
    // A tap on the centre chart changes nothing.
    let still = try root("examples/flow.lua", at: 1.5, timeline: "return { cs.tap { at = 0.5, target = \"card2\" } }")
    XCTAssertEqual(number(still["scroll"]), 1)
    // The spring swings a little past the chart and settles on it.
    let times = stride(from: 0.55, through: 1.3, by: 0.05).map { $0 }
    let path = try times.map { number(try root("examples/flow.lua", at: $0)["scroll"]) }
    XCTAssertGreaterThan(path.max() ?? 0, 2.0, "no overshoot: \(path)")
    XCTAssertEqual(path.last ?? 0, 2, accuracy: 0.01)
  }

  func testADragMovesTheRowUnderTheFingerAndSpringsBackToAChart() throws {
    let timeline = "return { cs.drag { at = 1.0, target = \"flow\", by = { -100, 0 }, duration = 0.4 } }"
    let before = try root("examples/flow.lua", at: 0.9, timeline: timeline)
    // Near the end of the drag (the finger at about -99 px): the centre chart moved with it,
    // one chart's move from the centre to the side being 336 px (0.8 of a 420 px chart).
    let during = try root("examples/flow.lua", at: 1.39, timeline: timeline)
    let moved = rect(children(during)[1])[0] + rect(children(during)[1])[2] / 2 - (rect(children(before)[1])[0] + rect(children(before)[1])[2] / 2)
    XCTAssertEqual(number(during["scroll"]), 1 + 99 / 336.0, accuracy: 0.01)
    XCTAssertEqual(moved, -99, accuracy: 3)
    // Let go slowly, a third of the way: it springs back to the chart it started on.
    let rest = try root("examples/flow.lua", at: 2.5, timeline: timeline)
    XCTAssertEqual(number(rest["scroll"]), 1, accuracy: 1e-6)
    XCTAssertEqual(centred(rest), "card2")
  }

  func testAFlickGlidesAndComesToRestOnAChart() throws {
    // The script's flick at 3.6 s (index 2 after the drag back) glides two charts on.
    let path = try stride(from: 3.7, through: 5.0, by: 0.1).map { number(try root("examples/flow.lua", at: $0)["scroll"]) }
    XCTAssertEqual(zip(path, path.dropFirst()).filter { $1 < $0 - 1e-9 }.count, 0, "a decay goes one way: \(path)")
    let end = try root("examples/flow.lua", at: 5.9)
    XCTAssertEqual(number(end["index"]), 4)
    XCTAssertEqual(number(end["scroll"]), 3, accuracy: 1e-6)
    XCTAssertEqual(centred(end), "card4")
    // Faster flicks go further; each comes to rest exactly on a chart, within the row.
    var last = 1.0
    for speed in [300.0, 600, 1200, 2400, 4000] {
      let timeline = "return { cs.drag { at = 1.0, target = \"flow\", by = { \(-speed * 0.2), 0 }, duration = 0.2, flick = true } }"
      let s = number(try root("examples/flow.lua", at: 5.9, timeline: timeline)["scroll"])
      XCTAssertEqual(s, s.rounded(), accuracy: 1e-6, "flick at \(speed) px/s rests between charts: \(s)")
      XCTAssertTrue((0...4).contains(s), "\(s)")
      XCTAssertGreaterThanOrEqual(s, last, "flick at \(speed) px/s")
      last = s
    }
    XCTAssertEqual(last, 4)
  }

  // MARK: - Grid

  func testTheGridOpensAChartToFillTheViewAndCloses() throws {
    let start = try root("examples/grid.lua", at: 0)
    XCTAssertEqual(start["kind"] as? String, "grid")
    XCTAssertEqual(number(start["open"]), 0)
    var c = children(start)
    XCTAssertEqual(c.count, 8) // six charts, the glass, the close button
    let cell = rect(c[2])
    XCTAssertEqual(cell[2], 304, accuracy: 1)
    // Small in its cell: the plot wins, the legend gave way.
    XCTAssertFalse((c[2]["parts"] as? [String: Any] ?? [:]).keys.contains { $0.hasPrefix("legend") })
    // Half way: it grows from its cell, the others fade.
    let mid = try root("examples/grid.lua", at: 0.6)
    c = children(mid)
    XCTAssertGreaterThan(rect(c[2])[2], 320)
    XCTAssertLessThan(rect(c[2])[2], 930)
    XCTAssertGreaterThan(placed(c[2], "z"), placed(c[0], "z"))
    XCTAssertLessThan(placed(c[0], "opacity"), 1)
    XCTAssertGreaterThan(placed(c[0], "opacity"), 0)
    // Open: the whole view less the margin, a whole chart with mini-map and legend.
    let open = try root("examples/grid.lua", at: 1.5)
    XCTAssertEqual(number(open["open"]), 3)
    c = children(open)
    XCTAssertEqual(rect(c[2]), [12, 12, 936, 436])
    let parts = (c[2]["parts"] as? [String: Any] ?? [:]).keys
    XCTAssertTrue(parts.contains("minimap") && parts.contains { $0.hasPrefix("legend") }, "\(parts.sorted())")
    XCTAssertEqual(placed(c[0], "opacity"), 0)
    XCTAssertEqual(placed(c[7], "opacity"), 1) // Close
    // Closed again by the tap on Close at 2.4 s: back in its cell.
    let closed = try root("examples/grid.lua", at: 3.9)
    XCTAssertEqual(number(closed["open"]), 0)
    XCTAssertEqual(rect(children(closed)[2]), cell)
    XCTAssertEqual(placed(children(closed)[0], "opacity"), 1)
  }

  func testInTheGridATapAnywhereOnACellOpensItOpenTheChartTakesItsOwnTaps() throws {
    // A tap on the plot of a cell opens it (the glass over the cells takes it, not the chart).
    let timeline = """
      return {
        cs.tap { at = 0.3, target = "chart5.plot" },
        cs.tap { at = 1.5, target = "chart5.plot" },
        cs.tap { at = 2.5, target = "chart5.title" },
      }
      """
    let open = try root("examples/grid.lua", at: 1.4, timeline: timeline)
    XCTAssertEqual(number(open["open"]), 5)
    XCTAssertTrue(children(open)[4]["indicator"] is NSNull, "the opening tap reached the chart")
    // Open, a tap on its plot is the chart's: the crosshair; the grid stays open.
    let indicator = try root("examples/grid.lua", at: 2.2, timeline: timeline)
    XCTAssertEqual(number(indicator["open"]), 5)
    XCTAssertNotNil(children(indicator)[4]["indicator"] as? [String: Any])
    // A tap on its title closes it.
    let closed = try root("examples/grid.lua", at: 3.9, timeline: timeline)
    XCTAssertEqual(number(closed["open"]), 0)
    XCTAssertEqual(rect(children(closed)[4])[2], 304, accuracy: 1)
  }

  /// Both examples render (PNG) at the moments the tests look at, with nothing on stderr.
  func testTheExamplesRenderMidMotion() throws {
    for (script, t) in [("examples/flow.lua", 0.6), ("examples/flow.lua", 4.0), ("examples/grid.lua", 0.6)] {
      let out = tmp.appendingPathComponent("f.png")
      let r = try CLI.run([script, "-o", out.path, "--at", String(t)])
      XCTAssertEqual(r.status, 0, r.stderr)
      XCTAssertEqual(r.stderr, "")
      XCTAssertGreaterThan((try? Data(contentsOf: out).count) ?? 0, 10_000)
    }
  }
}
