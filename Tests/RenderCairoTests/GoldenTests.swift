import ChartSceneHost
import Drawing
import Encoding
import Foundation
import RenderCairo
import XCTest

final class GoldenTests: TempFolderCase {
  func render(_ script: String, scale: Double = 1) throws -> RasterImage {
    let path = dir + "/s.lua"
    try script.write(toFile: path, atomically: true, encoding: .utf8)
    let session = try Session(scriptPath: path, quiet: true)
    return try CairoPainter(text: session.text).raster(try session.displayList(at: 0), scale: scale)
  }

  func testChartDay() throws {
    let img = try render("""
      local s = cs.data.sample()[1]
      s:setRange(0.75, 1)
      return cs.scene{ width = 360, height = 320, root = cs.chart{ data = s, title = "Followers", indicatorAt = 0.9 } }
      """)
    try Golden.assertMatches(img, "chart-day")
  }

  func testChartNightHiddenLineAtScale2() throws {
    let img = try render("""
      local s = cs.data.sample()[5]
      s:setRange(0.4, 0.6)
      s:hide("y1")
      return cs.scene{ width = 240, height = 220, theme = "night", root = cs.chart{ data = s, title = "Night" } }
      """, scale: 2)
    XCTAssertEqual(img.width, 480)
    try Golden.assertMatches(img, "chart-night-2x")
  }

  func testCardsTextAndCanvasInStacks() throws {
    let img = try render("""
      local sets = cs.data.sample()
      return cs.scene{ width = 320, height = 300, background = "#EFEFF4", root = cs.vstack{ padding = 12, spacing = 12,
        cs.text{ text = "Cards", size = 20, weight = "bold" },
        cs.hstack{ spacing = 12, cs.card{ data = sets[2] }, cs.card{ data = sets[3], title = "Shares" } },
        cs.canvas{ frame = { height = 40 }, draw = function(g, w, h)
          g:color("#3497ED"):rect(0, 0, w * 0.6, h, 8):fill()
          g:color("#FFFFFF"):text("60%", 10, 10, { size = 16, weight = "bold" })
        end },
      } }
      """)
    try Golden.assertMatches(img, "cards-stack")
  }

  func testCarouselTurnsItemsInPerspective() throws {
    let img = try render("""
      local sets = cs.data.sample()
      local items = { itemWidth = 160, spacing = 12, angle = 40, scroll = 172 }
      for i = 1, 3 do items[i] = cs.card{ id = "k" .. i, data = sets[i] } end
      return cs.scene{ width = 400, height = 220, background = "#EFEFF4", root = cs.carousel(items) }
      """)
    try Golden.assertMatches(img, "carousel")
    // True perspective: the turned item's near edge is taller than its far edge.
    // (Measured on the right item: its left edge is nearer the viewer.)
    func columnHeight(_ x: Int) -> Int {
      (0..<img.height).filter { let p = img.rgba(x: x, y: $0); return p.r > 246 && p.g > 246 && p.b > 246 }.count
    }
    let right = (325...395).map(columnHeight)
    XCTAssertGreaterThan(right.first!, right.last! + 5, "\(right.first!) vs \(right.last!)")
  }

  func testCardsWithModal() throws {
    let img = try render("""
      local sets = cs.data.sample()
      return cs.scene{ width = 300, height = 420, background = "#EFEFF4", root = cs.cards{ padding = 20, modal = "b", order = { "b", "a" },
        cs.card{ id = "a", data = sets[1] }, cs.card{ id = "b", data = sets[4], title = "Joined" } } }
      """)
    try Golden.assertMatches(img, "cards-modal")
  }

  func testTabs() throws {
    let img = try render("""
      local sets = cs.data.sample()
      return cs.scene{ width = 300, height = 320, theme = "night", root = cs.tabs{ selected = 2,
        { title = "List", icon = "list", view = cs.list{ rowHeight = 200, cs.chart{ data = sets[1] } } },
        { title = "Chart", icon = "chart", view = cs.chart{ data = sets[2], legend = false } } } }
      """)
    try Golden.assertMatches(img, "tabs")
  }

  func testEdgeData() throws {
    // One point, all-equal values, negative values with gaps, 50 lines.
    var lines: [String] = []
    for k in 0..<50 { lines.append("{ values = { \((0..<20).map { String(($0 * (k + 1)) % 23 - 5) }.joined(separator: ",")) } }") }
    let img = try render("""
      local one = cs.data.series{ name = "One point", x = {0}, lines = { { values = {5} } } }
      local flat = cs.data.series{ name = "Flat", x = {0, 86400000, 172800000}, lines = { { values = {7, 7, 7} } } }
      local neg = cs.data.series{ name = "Negative", x = {0, 86400000, 172800000, 259200000}, lines = { { values = {-5, 0/0, -7, 3} } } }
      local xs = {}
      for i = 1, 20 do xs[i] = i * 3600000 end
      local many = cs.data.series{ name = "Fifty", x = xs, lines = { \(lines.joined(separator: ",")) } }
      return cs.scene{ width = 400, height = 900, root = cs.vstack{ spacing = 0,
        cs.chart{ data = one, legend = false }, cs.chart{ data = flat }, cs.chart{ data = neg }, cs.chart{ data = many } } }
      """)
    try Golden.assertMatches(img, "edge-data")
  }
}

final class OutputTests: XCTestCase {
  func testPNGEncoderIsLossless() throws {
    for (w, h, alpha) in [(1, 1, false), (37, 19, true), (300, 200, false)] {
      let stride = w * 4
      var px = [UInt8](repeating: 0, count: stride * h)
      for i in 0..<(w * h) {
        let a: UInt8 = alpha ? UInt8(i % 256) : 255
        // Premultiplied: colour channels never exceed alpha.
        px[i * 4] = UInt8((i * 7 % 256) * Int(a) / 255)
        px[i * 4 + 1] = UInt8((i * 13 % 256) * Int(a) / 255)
        px[i * 4 + 2] = UInt8((i * 29 % 256) * Int(a) / 255)
        px[i * 4 + 3] = a
      }
      let image = RasterImage(width: w, height: h, stride: stride, pixels: px)
      for threads: Int32 in [1, 2, 5] {
        let png = try PNGEncoder(threads: threads).encode(image)
        XCTAssertEqual(Array(png.prefix(8)), [137, 80, 78, 71, 13, 10, 26, 10])
        let path = NSTemporaryDirectory() + "png-\(w)-\(threads).png"
        try Data(png).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let back = try XCTUnwrap(Golden.load(path))
        XCTAssertEqual(Golden.difference(image, back, channelTolerance: alpha ? 2 : 0), 0, "\(w)x\(h) threads \(threads)")
        XCTAssertEqual(png[25], alpha ? 6 : 2)  // colour type: RGBA or RGB
      }
    }
  }

  func testPNGEncoderHandlesNoiseRunsAndOddShapes() throws {
    // Seeded noise (DenseLineTests' SplitMix64): the same pixels on every run, so a failure reproduces.
    var rng = SplitMix(seed: 0x5EED)
    let shapes: [(Int, Int, (Int, Int) -> UInt32)] = [
      (257, 31, { _, _ in UInt32(rng.next() * 0x100_0000) | 0xFF00_0000 }),  // noise: all literals
      (1000, 7, { x, _ in x < 990 ? 0xFF00_0000 : 0xFFFF_FFFF }),  // long runs across the 258 limit
      (1, 600, { _, y in 0xFF00_0000 | UInt32(y % 256) }),  // one pixel wide
      (700, 3, { x, y in 0xFF00_0000 | UInt32((x / 259 + y) % 2 * 255) }),  // runs of exactly 258-260
    ]
    for (w, h, pixel) in shapes {
      var px = [UInt8](repeating: 0, count: w * h * 4)
      for y in 0..<h { for x in 0..<w { withUnsafeBytes(of: pixel(x, y).littleEndian) { px.replaceSubrange((y * w + x) * 4..<(y * w + x) * 4 + 4, with: $0) } } }
      let image = RasterImage(width: w, height: h, stride: w * 4, pixels: px)
      for threads: Int32 in [1, 3] {
        let path = NSTemporaryDirectory() + "png-shape-\(w)-\(threads).png"
        try Data(try PNGEncoder(threads: threads).encode(image)).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let back = try XCTUnwrap(Golden.load(path), "\(w)x\(h) does not decode")
        XCTAssertEqual(Golden.difference(image, back, channelTolerance: 0), 0, "\(w)x\(h) threads \(threads)")
      }
    }
  }

  func testAtomicOutputNeverLeavesPartialFiles() throws {
    let dir = NSTemporaryDirectory() + "atomic-" + UUID().uuidString
    try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: dir) }
    try AtomicOutput.write(Array("one".utf8), to: dir + "/a.txt")
    try AtomicOutput.write(Array("two".utf8), to: dir + "/a.txt")
    XCTAssertEqual(try String(contentsOfFile: dir + "/a.txt", encoding: .utf8), "two")
    XCTAssertThrowsError(try AtomicOutput.write([1], to: dir + "/missing/a.txt")) {
      XCTAssertTrue("\($0)".contains("does not exist"))
    }
    try FileManager.default.createDirectory(atPath: dir + "/sub", withIntermediateDirectories: true)
    XCTAssertThrowsError(try AtomicOutput.write([1], to: dir + "/sub"))
    XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: dir).sorted(), ["a.txt", "sub"])
  }
}
