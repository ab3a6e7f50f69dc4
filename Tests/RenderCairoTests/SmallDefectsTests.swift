import ChartSceneHost
import SceneGraph
import Drawing
import Foundation
import RenderCairo
import XCTest

/// Issue 21, item 16: a single bar is a bar, not a hairline; a stack of zeros stands on 0–1.
final class SmallDefectsTests: TempFolderCase {
  func session(_ body: String) throws -> Session {
    let path = dir + "/s.lua"
    try body.write(toFile: path, atomically: true, encoding: .utf8)
    return try Session(scriptPath: path, quiet: true)
  }

  /// One day of one bar line (a pandas frame of one row): its column is a third of the plot
  /// wide, at most 80 px, and the bar four fifths of it (the gap between bars of issue 39).
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
    XCTAssertGreaterThanOrEqual(red, 62, "the bar is \(red) px wide")
    XCTAssertLessThanOrEqual(red, 66)
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

  /// A year of hourly points (8,759, a daily cycle of constant size on a seasonal swing) in
  /// the mini-map: the band is as thick everywhere (no moiré of beads where the daily
  /// rhythm beats against the pixel columns).
  func testMinimapOfAnHourlyYearIsAnEvenBand() throws {
    let s = try session("""
      local x, v = {}, {}
      for i = 0, 8758 do
        x[#x+1] = 1546300800000 + i * 3600000
        v[#v+1] = 10 + 8 * math.sin(2 * math.pi * i / 8760) + 5 * math.sin(2 * math.pi * i / 24)
      end
      local set = cs.data.series{ name = "Hourly", x = x, lines = { { id = "t", name = "T", color = "#FF0000", values = v } } }
      set:setRange(0.4, 0.45)
      return cs.scene{ width = 720, height = 500, root = cs.chart{ id = "c", data = set, legend = false } }
      """)
    let image = try CairoPainter(text: s.text).raster(try s.displayList(at: 0), scale: 1)
    guard let node = s.scene.node(id: "c"), let spec = node.chart else { return XCTFail("no chart") }
    let parts = ChartParts.make(spec: spec, card: false, frame: node.contentFrame, measurer: s.text)
    let mm = try XCTUnwrap(parts.minimap)
    // Thickness of the red band in each column of the left third (outside the window).
    var thickness: [Int] = []
    for x in Int(mm.x) + 12..<Int(mm.x + mm.width / 3) {
      var n = 0
      for y in Int(mm.y)..<Int(mm.maxY) { let p = image.rgba(x: x, y: y); if p.r > 180 && p.g < 190 && Int(p.r) - Int(p.g) > 40 { n += 1 } }
      thickness.append(n)
    }
    let lo = try XCTUnwrap(thickness.min()), hi = try XCTUnwrap(thickness.max())
    XCTAssertGreaterThan(lo, 0)
    // Even within 2 px (the beads made it vary by half the band).
    XCTAssertLessThanOrEqual(hi - lo, 2, "band thickness \(lo)…\(hi) px")
  }

  /// examples/zoom.lua zooms into a day at 1.2 s (0.4 s): in no frame does the "Zoom Out"
  /// magnifier (accent strokes in the title band) show while the outgoing title does.
  func testMagnifierNeverShowsOverTheOutgoingTitle() throws {
    var parts = "\(#filePath)".split(separator: "/").map(String.init)
    parts.removeLast(3)
    let s = try Session(scriptPath: "/" + parts.joined(separator: "/") + "/examples/zoom.lua", quiet: true)
    let accent = Theme.day.accent
    var sawTitle = false, sawMagnifier = false
    for k in 36...50 {
      let t = Double(k) / 30 + 0.001
      var groups: [Double] = [1]
      var title = false, magnifier = false
      func walk(_ items: [DisplayItem]) {
        for item in items {
          switch item {
          case .pushGroup(let o): groups.append(groups.last! * o)
          case .popGroup: if groups.count > 1 { groups.removeLast() }
          case .cached(_, _, let inner): walk(inner)
          case .text(let run) where run.text == "Followers" && run.color.a * groups.last! > 0.05: title = true
          case .path(let path, .stroke(let c, _, _, _, _)) where c.r == accent.r && c.g == accent.g && c.b == accent.b && c.a * groups.last! > 0.05:
            if path.elements.contains(where: { if case .circle(let p, _) = $0 { return p.y < 40 }; return false }) { magnifier = true }
          default: break
          }
        }
      }
      walk(try s.displayList(at: t).items)
      XCTAssertFalse(title && magnifier, "t=\(t): the magnifier shows over the title")
      sawTitle = sawTitle || title; sawMagnifier = sawMagnifier || magnifier
    }
    XCTAssertTrue(sawTitle && sawMagnifier, "the zoom did not run")
  }

  /// examples/cards.lua sends the top card to the back at about 1.7 s: the card passing
  /// behind the front one dissolves into it with no double exposure. Its drawing over the
  /// front card (a group clipped to the front card) is either opaque, or, while it fades,
  /// ends with its own body colour covering all its lines (an empty card fading out).
  func testACardSentBackShowsNoDoubleExposure() throws {
    var parts = "\(#filePath)".split(separator: "/").map(String.init)
    parts.removeLast(3)
    let s = try Session(scriptPath: "/" + parts.joined(separator: "/") + "/examples/cards.lua", quiet: true)
    let body = Theme.day.cardBackground
    var fading = 0
    for k in 45...75 {
      let items = try s.displayList(at: Double(k) / 30 + 0.001).items
      for (i, item) in items.enumerated() {
        guard case .pushGroup(let o) = item, o < 0.999, i > 0, case .pushClip = items[i - 1] else { continue }
        // The group's items up to its popGroup.
        var depth = 0, end = i
        for j in (i + 1)..<items.count {
          if case .pushGroup = items[j] { depth += 1 }
          if case .popGroup = items[j] { if depth == 0 { end = j; break }; depth -= 1 }
        }
        guard end > i + 1, case .path(_, .fill(let c)) = items[end - 1] else { return XCTFail("t=\(Double(k) / 30): a fading card without its cover") }
        XCTAssertEqual(c.r, body.r); XCTAssertEqual(c.g, body.g); XCTAssertEqual(c.b, body.b)
        XCTAssertGreaterThan(c.a, 0.999, "t=\(Double(k) / 30): its lines show through (cover \(c.a)) while it fades (\(o))")
        fading += 1
      }
    }
    XCTAssertGreaterThan(fading, 0, "no card passed behind")
  }
}
