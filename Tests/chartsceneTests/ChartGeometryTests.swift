import Foundation
import XCTest

/// Issue 20, item 4: `cs.chartGeometry(id [, view])` gives a script the plot and the mappings
/// the renderer draws the chart with, as drawn at the moment of the call.
final class ChartGeometryTests: FolderCase {
  func testTheGeometryIsWhatIsDrawn() throws {
    try write("g.lua", """
      local set = cs.data.sample()[1]
      set:setRange(0.75, 1)
      local overlay
      overlay = cs.canvas { draw = function(g, w, h, t)
        local geo = cs.chartGeometry("c")
        local rel = cs.chartGeometry("c", overlay)
        local p = geo.plot
        print(string.format("plot %g %g %g %g", p.x, p.y, p.width, p.height))
        print(string.format("edges %g %g", geo.x(geo.window.from), geo.x(geo.window.to)))
        print(string.format("inverse %s %s", math.abs(geo.timeAt(geo.x(1550000000000)) - 1550000000000) < 1e-3, math.abs(geo.valueAt(geo.y(123.5)) - 123.5) < 1e-9))
        print(string.format("relative %g %g", rel.plot.x - p.x, rel.plot.y - p.y))
      end }
      return cs.scene { width = 720, height = 700,
        root = cs.vstack { spacing = 0, cs.text { text = "Top", frame = { height = 60 } },
          cs.zstack { cs.chart { id = "c", data = set, title = "Followers" }, overlay } } }
      """)
    // The canvas draws (and prints) when the picture is made; --inspect gives the parts.
    let drawn = try run(["g.lua", "-o", "g.png"])
    XCTAssertEqual(drawn.status, 0, drawn.stderr)
    let r = try run(["g.lua", "--inspect"])
    XCTAssertEqual(r.status, 0, r.stderr)
    let json = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
    var chart: [String: Any]?
    func find(_ n: [String: Any]) { if n["id"] as? String == "c" { chart = n }; (n["children"] as? [[String: Any]])?.forEach(find) }
    find(try XCTUnwrap(json["root"] as? [String: Any]))
    let plot = try XCTUnwrap((chart?["parts"] as? [String: Any])?["plot"] as? [Double])
    let lines = drawn.stderr.split(separator: "\n").map(String.init)
    guard lines.count == 4 else { return XCTFail(drawn.stderr) }
    XCTAssertEqual(lines[0], "plot \(Int(plot[0])) \(Int(plot[1])) \(Int(plot[2])) \(Int(plot[3]))")
    XCTAssertEqual(lines[1], "edges \(Int(plot[0])) \(Int(plot[0] + plot[2]))")
    XCTAssertEqual(lines[2], "inverse true true")
    // Relative to the canvas, whose frame starts 60 px down (under the text).
    XCTAssertEqual(lines[3], "relative 0 -60")
  }

  /// The mark a script draws at a data point lands on the line the renderer draws: the
  /// indicator's dot and a canvas dot at the same point cover the same pixels.
  func testAMarkLandsOnTheLine() throws {
    try write("m.lua", """
      local set = cs.data.sample()[1]
      set:setRange(0.6, 1)
      local overlay
      overlay = cs.canvas { draw = function(g)
        local geo = cs.chartGeometry("c", overlay)
        local p = set:valuesAt(0.9)
        print(string.format("%.2f %.2f", geo.x(p.time), geo.y(p.values.y0)))
      end }
      return cs.scene { width = 600, height = 500,
        root = cs.zstack { cs.chart { id = "c", data = set, indicatorAt = 0.9 }, overlay } }
      """)
    let drawn = try run(["m.lua", "-o", "m.png"])
    XCTAssertEqual(drawn.status, 0, drawn.stderr)
    let r = try run(["m.lua", "--inspect"])
    XCTAssertEqual(r.status, 0, r.stderr)
    let xy = (drawn.stderr.split(separator: "\n").first ?? "").split(separator: " ").compactMap { Double($0) }
    guard xy.count == 2 else { return XCTFail(drawn.stderr) }
    // The poster of the indicator stands at the indicator's x, which the renderer rounds to
    // the pixel's centre: the geometry's x is within a pixel of it.
    let json = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
    let root = try XCTUnwrap(json["root"] as? [String: Any])
    let chart = try XCTUnwrap((root["children"] as? [[String: Any]])?.first)
    let indicator = try XCTUnwrap(chart["indicator"] as? [String: Any])
    XCTAssertNotNil(indicator["time"])
    let plot = try XCTUnwrap((chart["parts"] as? [String: Any])?["plot"] as? [Double])
    XCTAssertGreaterThan(xy[0], plot[0]); XCTAssertLessThan(xy[0], plot[0] + plot[2])
    XCTAssertGreaterThan(xy[1], plot[1]); XCTAssertLessThan(xy[1], plot[1] + plot[3])
  }

  func testMistakesAreOneLine() throws {
    try write("a.lua", "local g = cs.chartGeometry('c')\nreturn cs.scene{ width = 100, height = 100, root = cs.spacer{} }")
    try fails(["a.lua"], "a.lua:1: cs.chartGeometry: the scene is not laid out yet (call it from a draw, update, handler or timeline function)")
    try write("b.lua", """
      return cs.scene{ width = 300, height = 300, root = cs.zstack{ cs.chart{ id = "followers", data = cs.data.sample()[1] },
        cs.canvas{ draw = function(g) cs.chartGeometry("folowers") end } } }
      """)
    try fails(["b.lua"], "b.lua:2: cs.chartGeometry: no chart 'folowers' (charts: 'followers')")
    try write("c.lua", """
      return cs.scene{ width = 300, height = 300, root = cs.zstack{ cs.chart{ id = "c", data = cs.data.sample()[1] },
        cs.canvas{ draw = function(g) local geo = cs.chartGeometry("c"); geo.x("noon") end } } }
      """)
    try fails(["c.lua"], "c.lua:2: bad argument #1 (time expected, got string)")
  }
}
