import ChartSceneHost
import Drawing
import Foundation
import RenderCairo
import XCTest

/// Issue 21, item 16: a single bar is a bar, not a hairline; a stack of zeros stands on 0–1.
final class SmallDefectsTests: XCTestCase {
  var dir: String = ""
  override func setUp() {
    dir = NSTemporaryDirectory() + "chartscene-small-" + UUID().uuidString
    try? FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
  }
  override func tearDown() { try? FileManager.default.removeItem(atPath: dir) }

  func session(_ body: String) throws -> Session {
    let path = dir + "/s.lua"
    try body.write(toFile: path, atomically: true, encoding: .utf8)
    return try Session(scriptPath: path, quiet: true)
  }

  /// One day of one bar line (a pandas frame of one row): the bar is a third of the plot
  /// wide, at most 80 px.
  func testASingleBarIsABar() throws {
    let s = try session("""
      local set = cs.data.series{ name = "One day", x = { 1551398400000 }, lines = {
        { id = "v", name = "Views", color = "#FF0000", values = { 25200000 }, type = "bar" } } }
      return cs.scene{ width = 400, height = 300, root = cs.chart{ data = set, minimap = false, legend = false } }
      """)
    let image = try CairoPainter(text: s.text).raster(try s.displayList(at: 0), scale: 1)
    // Count the red pixels across the middle row of the plot.
    var red = 0
    for y in [150] { for x in 0..<image.width { let p = image.rgba(x: x, y: y); if p.r > 200 && p.g < 60 && p.b < 60 { red += 1 } } }
    XCTAssertGreaterThanOrEqual(red, 78, "the bar is \(red) px wide")
    XCTAssertLessThanOrEqual(red, 82)
  }

  /// Stacked bars of nothing but zeros (a week with no sales): the axis is 0 up, not −1…1.
  func testAllZeroStacksStandOnZero() throws {
    let s = try session("""
      local x, a, b = {}, {}, {}
      for i = 0, 6 do x[#x+1] = 1551398400000 + i * 86400000; a[#a+1] = 0; b[#b+1] = 0 end
      local set = cs.data.series{ name = "Nothing sold", x = x, lines = {
        { id = "a", name = "A", color = "#FF0000", values = a, type = "bar" },
        { id = "b", name = "B", color = "#0000FF", values = b, type = "bar" } } }
      return cs.scene{ width = 400, height = 300, root = cs.chart{ id = "c", data = set, stacked = true } }
      """)
    let doc = try s.inspect(at: 0)
    XCTAssertTrue(doc.contains("\"yRange\": [0.0, 1.0]"), doc)
    let lines = try session("""
      local x, a = {}, {}
      for i = 0, 6 do x[#x+1] = 1551398400000 + i * 86400000; a[#a+1] = 0 end
      return cs.scene{ width = 400, height = 300, root = cs.chart{ id = "c", data = cs.data.series{ name = "Flat", x = x,
        lines = { { id = "a", name = "A", color = "#FF0000", values = a, type = "area" } } } } }
      """)
    XCTAssertTrue(try lines.inspect(at: 0).contains("\"yRange\": [0.0, 1.0]"))
  }
}
