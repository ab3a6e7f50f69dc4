import ChartSceneHost
import Foundation
import XCTest

/// Zooming into a day: both day-file layouts, the Lua calls and their errors, and the
/// gestures (poster, "Zoom Out", pie slices) through the timeline, so through the same
/// recognisers as live input.
final class ZoomTests: XCTestCase {
  let dir = ScriptFolder()
  static let data = RoundTwoTests.data

  func json(_ script: String, at t: Double = 0) throws -> [String: Any] {
    let s = try dir.session(script)
    return try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(try s.inspect(at: t).utf8)) as? [String: Any])
  }
  func chart(_ doc: [String: Any], _ id: String = "c") -> [String: Any] {
    func find(_ n: [String: Any]) -> [String: Any]? {
      if n["id"] as? String == id { return n }
      for c in n["children"] as? [[String: Any]] ?? [] { if let f = find(c) { return f } }
      return nil
    }
    return (doc["root"] as? [String: Any]).flatMap(find) ?? [:]
  }

  /// A folder with chart n's overview and its day files in the contest's layout
  /// (`YYYY-MM/DD.json`) or the flat one (`YYYY-MM-DD.json`).
  func folder(_ n: Int, nested: Bool) throws -> String {
    let fm = FileManager.default
    let root = dir.path + "/c\(n)" + (nested ? "n" : "f")
    try fm.createDirectory(atPath: root + "/days", withIntermediateDirectories: true)
    try fm.copyItem(atPath: "\(ZoomTests.data)/\(n)/overview.json", toPath: root + "/overview.json")
    for day in ["2018-04-07", "2018-10-06", "2019-04-06"] {
      let src = "\(ZoomTests.data)/\(n)/days/\(day).json"
      let dst = nested ? root + "/days/" + day.prefix(7) + "/" + day.suffix(2) + ".json" : root + "/days/" + day + ".json"
      try fm.createDirectory(atPath: (dst as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
      try fm.copyItem(atPath: src, toPath: dst)
    }
    return root
  }

  func script(_ root: String, _ body: String = "", timeline: String = "", range: String = "0.45, 0.6", days: Bool = true) -> String {
    """
    local s = cs.data.telegram("\(root)/overview.json"\(days ? ", { days = \"\(root)/days\" }" : ""))[1]
    s:setRange(\(range))
    \(body)
    return cs.scene { width = 600, height = 500, fps = 30, duration = 4,
      root = cs.chart { id = "c", data = s }, timeline = { \(timeline) } }
    """
  }

  func testBothDayFileLayoutsZoomFromLua() throws {
    for nested in [false, true] {
      let root = try folder(1, nested: nested)
      let c = chart(try json(script(root, "s:zoom('2018-10-06')")))
      XCTAssertEqual(c["zoom"] as? String, "2018-10-06", "nested \(nested)")
      XCTAssertEqual(c["title"] as? String, "Chart")
      XCTAssertNotNil((c["parts"] as? [String: Any])?["zoomOut"])
      // The detail (168 hourly points, 7 days) with its window on the day: a seventh of it.
      let range = c["range"] as! [Double]
      XCTAssertEqual(range[1] - range[0], 24.0 / 167, accuracy: 0.001)  // 00:00 to 24:00
      // Its values are the detail file's for that day.
      let bytes = try Data(contentsOf: URL(fileURLWithPath: "\(ZoomTests.data)/1/days/2018-10-06.json"))
      let obj = try JSONSerialization.jsonObject(with: bytes) as! [String: Any]
      let cols = obj["columns"] as! [[Any]]
      let xs = cols[0].dropFirst().map { ($0 as! NSNumber).doubleValue }
      let day0 = 1538784000000.0
      var lo = Double.infinity, hi = -Double.infinity
      for col in cols.dropFirst() {
        for (k, v) in col.dropFirst().enumerated() where xs[k] >= day0 && xs[k] < day0 + 86_400_000 {
          lo = min(lo, (v as! NSNumber).doubleValue); hi = max(hi, (v as! NSNumber).doubleValue)
        }
      }
      XCTAssertEqual(c["dataRange"] as? [Double], [lo, hi])
    }
  }

  func testZoomOutFromLuaRestoresTheOverview() throws {
    let root = try folder(1, nested: true)
    let c = chart(try json(script(root, "s:zoom('2018-10-06') s:zoomOut()")))
    XCTAssertTrue(c["zoom"] is NSNull)
    XCTAssertEqual(c["range"] as? [Double], [0.45, 0.6])
    XCTAssertNil((c["parts"] as? [String: Any])?["zoomOut"])
  }

  func testLuaErrors() throws {
    let root = try folder(1, nested: false)
    XCTAssertEqual(dir.error(script(root, "s:zoom('2018-10-07')")),
                   "s.lua:3: no day file for 2018-10-07: looked for 'c1f/days/2018-10-07.json' and 'c1f/days/2018-10/07.json'")
    XCTAssertEqual(dir.error(script(root, "s:zoom('2030-01-01')")), "s.lua:3: 2030-01-01 is not a day of 'Chart' (2018-04-07 to 2019-04-06)")
    XCTAssertEqual(dir.error(script(root, "s:zoom('6 Oct')")), "s.lua:3: bad day '6 Oct' (expected \"YYYY-MM-DD\")")
    XCTAssertEqual(dir.error(script(root, "s:zoom('2018-10-06')", days: false)),
                   "s.lua:3: 'Chart' has no day files (load it with cs.data.telegram(path, { days = \"FOLDER\" }))")
    XCTAssertEqual(dir.error("local s = cs.data.telegram('\(root)/overview.json', { days = 'nope' })"),
                   "s.lua:1: bad field 'days' in cs.data.telegram (no folder 'nope')")
    XCTAssertEqual(dir.error("local s = cs.data.telegram('\(root)/overview.json', { day = 'nope' })"),
                   "s.lua:1: unknown key 'day' in cs.data.telegram (did you mean 'days'? keys are 'days')")
  }

  /// Tap the plot where 6 October is (fraction 0.5 of the axis, a third into the window
  /// 0.45–0.6), then the poster.
  let showDay = "cs.tap { at = 0.2, target = 'c.plot' }"
  func tapDay(_ fraction: Double, plot: [Double] = [16, 0, 568, 0]) -> String {
    // The plot spans x 16...584 in a 600 px wide chart (less its Y-label gutter, for the
    // types that have one: `plot` from --inspect).
    "cs.tap { at = 0.2, pos = { \(plot[0] + plot[2] * (fraction - 0.45) / 0.15), 200 } }"
  }

  func testTappingThePosterZoomsInAndZoomOutReturnsAnimated() throws {
    let root = try folder(1, nested: true)
    let s = script(root, timeline: tapDay(0.5) + ", cs.tap { at = 0.6, target = 'c.poster' }, cs.tap { at = 2.0, target = 'c.zoomOut' }")
    XCTAssertEqual((chart(try json(s, at: 0.5))["indicator"] as? [String: Any])?["index"] as? Int, 182)
    let zoomed = chart(try json(s, at: 1.5))
    XCTAssertEqual(zoomed["zoom"] as? String, "2018-10-06")
    XCTAssertTrue(zoomed["indicator"] is NSNull)
    let back = chart(try json(s, at: 3))
    XCTAssertTrue(back["zoom"] is NSNull)
    let r = back["range"] as! [Double]
    XCTAssertEqual(r[0], 0.45, accuracy: 1e-9)
    XCTAssertEqual(r[1], 0.6, accuracy: 1e-9)
    // Mid-way out, the overview's window is still on its way back from the day.
    let mid = chart(try json(s, at: 2.15))["range"] as! [Double]
    XCTAssertGreaterThan(mid[0], 0.45 + 1e-3)
  }

  func testADayWithoutAFileDoesNothingInAGesture() throws {
    let root = try folder(1, nested: false)
    let s = script(root, timeline: tapDay(0.52) + ", cs.tap { at = 0.6, target = 'c.poster' }")
    let c = chart(try json(s, at: 1.5))
    XCTAssertTrue(c["zoom"] is NSNull)
    XCTAssertNotNil(c["indicator"] as? [String: Any])
  }

  func testPercentageChartZoomsIntoAPieOfTheDaysShares() throws {
    let root = "\(ZoomTests.data)/5"
    let plot = try XCTUnwrap((chart(try json(script(root, days: false), at: 0))["parts"] as? [String: Any])?["plot"] as? [Double])
    let s = script(root, timeline: tapDay(0.5, plot: plot) + ", cs.tap { at = 0.6, target = 'c.poster' }", days: false)
    let c = chart(try json(s, at: 1.5))
    XCTAssertEqual(c["zoom"] as? String, "2018-10-06")
    let pie = try XCTUnwrap(c["pie"] as? [String: Double])
    let bytes = try Data(contentsOf: URL(fileURLWithPath: root + "/overview.json"))
    let cols = (try JSONSerialization.jsonObject(with: bytes) as! [String: Any])["columns"] as! [[Any]]
    let values = Dictionary(uniqueKeysWithValues: cols.dropFirst().map { ($0[0] as! String, ($0[183] as! NSNumber).doubleValue) })
    let total = values.values.reduce(0, +)
    XCTAssertEqual(Set(pie.keys), Set(values.keys))
    for (id, v) in values { XCTAssertEqual(pie[id]!, v / total * 100, accuracy: 1e-9, id) }
    // Zoom out: no pie.
    let out = script(root, timeline: tapDay(0.5, plot: plot) + ", cs.tap { at = 0.6, target = 'c.poster' }, cs.tap { at = 2, target = 'c.zoomOut' }", days: false)
    XCTAssertTrue(chart(try json(out, at: 3))["pie"] is NSNull)
    // From Lua too, and a hidden line leaves the pie.
    let lua = chart(try json(script(root, "s:hide('y0') s:zoom('2018-10-06')", days: false)))
    XCTAssertNil((lua["pie"] as? [String: Double])?["y0"])
    XCTAssertEqual((lua["pie"] as? [String: Double])?.values.reduce(0, +) ?? 0, 100, accuracy: 1e-9)
  }
}
