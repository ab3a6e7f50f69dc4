import ChartSceneHost
import Foundation
import XCTest

/// Round-two charts through real sessions: the Lua keys, their errors, `--inspect`, and the
/// gestures on each type (through the timeline, so the same recognisers as live input).
final class RoundTwoTests: XCTestCase {
  let dir = ScriptFolder()
  static let data: String = {
    var parts = "\(#filePath)".split(separator: "/").map(String.init)
    parts.removeLast(2)
    return "/" + parts.joined(separator: "/") + "/Fixtures/telegram/round2"
  }()

  func json(_ script: String, at t: Double = 0) throws -> [String: Any] {
    let s = try dir.session(script)
    return try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(try s.inspect(at: t).utf8)) as? [String: Any])
  }
  func root(_ doc: [String: Any]) -> [String: Any] { doc["root"] as? [String: Any] ?? [:] }

  func chart(_ n: Int, _ extra: String = "", range: String = "0.5, 0.75", timeline: String = "") -> String {
    """
    local s = cs.data.telegram("\(RoundTwoTests.data)/\(n)/overview.json")[1]
    s:setRange(\(range))
    return cs.scene { width = 600, height = 500, fps = 30, duration = 3,
      root = cs.chart { id = "c", data = s \(extra) }, timeline = { \(timeline) } }
    """
  }

  func testInspectReportsEachType() throws {
    let expect: [(String, Bool, Bool, Bool)] = [("line", false, false, false), ("line", false, false, true), ("bar", true, false, false),
                                                ("bar", false, false, false), ("area", true, true, false)]
    for (n, e) in expect.enumerated() {
      let c = root(try json(chart(n + 1)))
      XCTAssertEqual(c["type"] as? String, e.0, "chart \(n + 1)")
      XCTAssertEqual(c["stacked"] as? Bool, e.1, "chart \(n + 1)")
      XCTAssertEqual(c["percentage"] as? Bool, e.2, "chart \(n + 1)")
      XCTAssertEqual(c["yScaled"] as? Bool, e.3, "chart \(n + 1)")
      XCTAssertTrue(c["zoom"] is NSNull)
      XCTAssertTrue(c["pie"] is NSNull)
      let parts = c["parts"] as? [String: [Double]] ?? [:]
      XCTAssertEqual(parts["yAxis.right"] != nil, e.3)
      XCTAssertNil(parts["poster"], "no indicator, no poster")
      XCTAssertEqual(c["yRanges"] is NSNull, !e.3)
    }
    // Keys come after `indicator`, before `parts`.
    let text = try dir.session(chart(2)).inspect(at: 0)
    let order = ["\"indicator\"", "\"type\"", "\"stacked\"", "\"percentage\"", "\"yScaled\"", "\"zoom\"", "\"yRanges\"", "\"pie\"", "\"parts\""]
    let positions = order.map { text.range(of: $0)!.lowerBound }
    XCTAssertEqual(positions, positions.sorted())
  }

  func testAxisRangesPerType() throws {
    // Bars start at 0; stacked bars hold the stacked sums; percentages are 0–100.
    for n in [3, 4] {
      let y = root(try json(chart(n)))["yRange"] as! [Double]
      let data = root(try json(chart(n)))["dataRange"] as! [Double]
      XCTAssertEqual(y[0], 0, "chart \(n)")
      XCTAssertGreaterThanOrEqual(y[1], data[1])
    }
    XCTAssertEqual(root(try json(chart(5)))["yRange"] as? [Double], [0, 100])
    // The same lines drawn as lines start near the data instead.
    XCTAssertGreaterThan((root(try json(chart(4, ", type = 'line'")))["yRange"] as! [Double])[0], 0)
    // Two axes: each holds its own line.
    let c2 = root(try json(chart(2)))
    let ranges = c2["yRanges"] as! [String: [Double]]
    XCTAssertEqual(ranges["left"], c2["yRange"] as? [Double])
    XCTAssertLessThan(ranges["right"]![1], ranges["left"]![0])
  }

  func testStackedSumAxisOfTheThirdChartEqualsTheTallestColumn() throws {
    // Independently: sum the seven columns over the points in the window.
    let bytes = try Data(contentsOf: URL(fileURLWithPath: RoundTwoTests.data + "/3/overview.json"))
    let obj = try JSONSerialization.jsonObject(with: bytes) as! [String: Any]
    let cols = (obj["columns"] as! [[Any]])
    let xs = cols[0].dropFirst().map { ($0 as! NSNumber).doubleValue }
    var sums = [Double](repeating: 0, count: xs.count)
    for c in cols.dropFirst() { for (i, v) in c.dropFirst().enumerated() { sums[i] += (v as! NSNumber).doubleValue } }
    let t0 = xs.first!, span = xs.last! - xs.first!
    let lo = t0 + 0.5 * span - 43_200_000, hi = t0 + 0.75 * span + 43_200_000
    let tallest = zip(xs, sums).filter { $0.0 >= lo && $0.0 <= hi }.map(\.1).max()!
    let y = root(try json(chart(3)))["yRange"] as! [Double]
    XCTAssertGreaterThanOrEqual(y[1], tallest)
    XCTAssertLessThan(y[1], tallest * 1.3, "nice bounds close above the tallest column")
  }

  func testHidingALineShrinksTheStackAnimated() throws {
    let s = chart(3, timeline: "cs.tap { at = 0.1, target = 'c.legend.y0' }")
    let before = root(try json(s, at: 0))["yRange"] as! [Double]
    let mid = root(try json(s, at: 0.25))["yRange"] as! [Double]
    let after = root(try json(s, at: 1.5))
    let end = after["yRange"] as! [Double]
    XCTAssertEqual(after["hidden"] as? [String], ["y0"])
    XCTAssertLessThan(end[1], before[1])
    XCTAssertLessThan(mid[1], before[1])
    XCTAssertGreaterThan(mid[1], end[1])
    // The percentage chart's axis does not move.
    let p = chart(5, timeline: "cs.tap { at = 0.1, target = 'c.legend.y0' }")
    XCTAssertEqual(root(try json(p, at: 0.25))["yRange"] as? [Double], [0, 100])
  }

  func testLongPressOnAChipShowsOnlyThatLineForEveryType() throws {
    for n in 1...5 {
      let s = chart(n, timeline: "cs.tap { at = 0.05, target = 'c.legend.y0' }, cs.longpress { at = 0.5, target = 'c.legend.y0' }")
      let c = root(try json(s, at: 1.5))
      let ids = (c["parts"] as! [String: Any]).keys.filter { $0.hasPrefix("legend.") }.map { String($0.dropFirst(7)) }
      XCTAssertEqual(Set(c["hidden"] as! [String]), Set(ids).subtracting(["y0"]), "chart \(n)")
    }
  }

  func testHidingTheSecondLineFadesItsAxisButKeepsTheScale() throws {
    let s = chart(2, timeline: "cs.tap { at = 0.1, target = 'c.legend.y1' }")
    let before = root(try json(s, at: 0))["yRanges"] as! [String: [Double]]
    let after = root(try json(s, at: 1.5))["yRanges"] as! [String: [Double]]
    XCTAssertEqual(after["left"], before["left"])
    XCTAssertEqual(after["right"], before["right"])
  }

  func testPosterPartWhileTheIndicatorShows() throws {
    let c = root(try json(chart(5, ", indicatorAt = 0.6")))
    let parts = c["parts"] as! [String: [Double]]
    let poster = try XCTUnwrap(parts["poster"])
    let plot = try XCTUnwrap(parts["plot"])
    XCTAssertGreaterThan(poster[2], 0)
    XCTAssertTrue(poster[0] >= 0 && poster[0] + poster[2] <= 600)
    XCTAssertTrue(poster[1] >= plot[1] - 8 && poster[1] < plot[1] + plot[3])
  }

  func testLuaKeysOverrideTheData() throws {
    let c = root(try json(chart(3, ", type = 'area', stacked = false")))
    XCTAssertEqual(c["type"] as? String, "area")
    XCTAssertEqual(c["stacked"] as? Bool, false)
    let p = root(try json(chart(1, ", percentage = true")))
    XCTAssertEqual(p["percentage"] as? Bool, true)
    XCTAssertEqual(p["stacked"] as? Bool, true)
    XCTAssertEqual(p["yRange"] as? [Double], [0, 100])
    let two = root(try json(chart(1, ", yScaled = true")))
    XCTAssertEqual(two["yScaled"] as? Bool, true)
    // Cards take the keys too.
    let card = root(try json("""
      local s = cs.data.telegram("\(RoundTwoTests.data)/4/overview.json")[1]
      return cs.scene { width = 300, height = 300, root = cs.card { data = s, type = "line" } }
      """))
    XCTAssertEqual(card["type"] as? String, "line")
  }

  func testPercentageOfNegativesIsOneClearError() throws {
    let script = """
      local s = cs.data.telegram("\(RoundTwoTests.data)/../stress/negpct.json")[1]
      return cs.scene { width = 600, height = 500,
        root = cs.chart { data = s, title = "Share" } }
      """
    XCTAssertThrowsError(try dir.session(script)) { e in
      XCTAssertEqual("\(e)".split(separator: "\n").count, 1)
      XCTAssertTrue("\(e)".contains(":3: percentage chart 'Share': line 'B' has negative values ("), "\(e)")
      XCTAssertTrue("\(e)".contains(" at 2019-01-11); shares need values of 0 or more"), "\(e)")
    }
    // The same data stacked (not as shares) draws its negatives below 0.
    let y = root(try json(script.replacingOccurrences(of: "title = \"Share\"", with: "percentage = false")))["yRange"] as! [Double]
    XCTAssertLessThanOrEqual(y[0], -9.9)
    XCTAssertGreaterThan(y[1], 30)
  }

  func testBadKeysAreOneClearError() {
    XCTAssertEqual(dir.error(scene("cs.chart{ data = cs.data.sample()[1], type = 'pie' }")),
                   "s.lua:1: invalid type 'pie' in cs.chart, expected one of: 'line', 'bar', 'area'")
    XCTAssertEqual(dir.error(scene("cs.chart{ data = cs.data.sample()[1], stacked = 1 }")),
                   "s.lua:1: bad field 'stacked' in cs.chart (boolean expected, got number)")
    XCTAssertEqual(dir.error(scene("cs.card{ data = cs.data.sample()[1], yScaled = 'yes' }")),
                   "s.lua:1: bad field 'yScaled' in cs.card (boolean expected, got string)")
  }

  func testRoundTwoDataLoadsWithoutWarnings() throws {
    for n in 1...5 {
      let s = try dir.session(chart(n))
      _ = try s.displayList(at: 0)
      XCTAssertEqual(s.warnings, [], "chart \(n)")
    }
  }
}
