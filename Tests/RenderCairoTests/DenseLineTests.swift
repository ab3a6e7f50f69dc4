import ChartModel
import ChartSceneHost
import Drawing
import Encoding
import Foundation
import Render
import RenderCairo
import XCTest

/// A dense window is filled as the outline of its stroke (`DenseLine`) instead of stroked:
/// the pixels must be those of the stroke the chart drew before (bevel joins, round caps).
/// `DENSE_LINE_PNGS=DIR` writes both pictures of every case for a look.
final class DenseLineTests: XCTestCase {
  static let size = Size(640, 240)
  /// The painter, made after the bundled fonts are configured as a Session does it (the
  /// first text measurer fixes the fonts for the whole process: the goldens need Inter).
  lazy var painter: CairoPainter = {
    FontRegistry.configure(fontsDirectory: AssetLocator.assetsDirectory().map { $0 + "/fonts" })
    return CairoPainter(text: PangoText())
  }()

  /// M4 polylines of `values` over `width` columns, as the chart gets them from the pyramid.
  func polylines(_ values: [Double], plot: Rect) -> [[Point]] {
    let xs = (0..<values.count).map(Double.init)
    let finite = values.filter { !$0.isNaN }
    let lo = finite.min()!, hi = finite.max()!
    let n = Double(values.count)
    return MinMaxPyramid(values).polylines(
      xs: xs, indices: 0..<values.count,
      xToPixel: { plot.x + $0 / n * plot.width },
      yToPixel: { plot.maxY - ($0 - lo) / (hi - lo) * plot.height })
  }

  func image(_ path: Path, _ paint: Paint) throws -> RasterImage {
    let list = DisplayList(size: Self.size, background: Color(r: 1, g: 1, b: 1),
                           items: [.path(path, paint)])
    return try painter.raster(list, scale: 1)
  }

  struct Comparison { var inkOld = 0, inkNew = 0, differing = 0, largest = 0, rowsOff = 0 }

  /// Renders the old stroke and the new fill of `values` and compares them pixel by pixel.
  func compare(_ name: String, _ values: [Double], width: Double) throws -> Comparison {
    let plot = Rect(20, 20, 600, 200)
    let pls = polylines(values, plot: plot)
    XCTAssertGreaterThan(pls.reduce(0) { $0 + $1.count }, 600, name)
    let color = Color(r: 0.1, g: 0.3, b: 0.8)
    var stroke = Path()
    for pl in pls where pl.count > 1 {
      stroke.move(to: pl[0])
      for p in pl.dropFirst() { stroke.line(to: p) }
    }
    let outline = try XCTUnwrap(DenseLine.outline(pls, width: width), name)
    let old = try image(stroke, .stroke(color, width: width, join: .bevel))
    let new = try image(outline, .fill(color))
    if let dir = ProcessInfo.processInfo.environment["DENSE_LINE_PNGS"] {
      try Data(PNGEncoder(threads: 1).encode(old)).write(to: URL(fileURLWithPath: "\(dir)/\(name)-stroke.png"))
      try Data(PNGEncoder(threads: 1).encode(new)).write(to: URL(fileURLWithPath: "\(dir)/\(name)-fill.png"))
    }
    var c = Comparison()
    for x in 0..<old.width {
      // The rows a column inks, old and new: its top and bottom may move by at most a pixel.
      var topOld = Int.max, topNew = Int.max, botOld = -1, botNew = -1
      for y in 0..<old.height {
        let p = old.rgba(x: x, y: y), q = new.rgba(x: x, y: y)
        let d = max(abs(Int(p.r) - Int(q.r)), abs(Int(p.g) - Int(q.g)), abs(Int(p.b) - Int(q.b)))
        c.largest = max(c.largest, d)
        if d > 64 { c.differing += 1 }
        if p.r < 160 { c.inkOld += 1; topOld = min(topOld, y); botOld = y }
        if q.r < 160 { c.inkNew += 1; topNew = min(topNew, y); botNew = y }
      }
      if (topOld == Int.max) != (topNew == Int.max) || abs(topOld - topNew) > 1 || abs(botOld - botNew) > 1 { c.rowsOff += 1 }
    }
    return c
  }

  func assertAlike(_ c: Comparison, _ name: String, file: StaticString = #filePath, line: UInt = #line) {
    print("dense line \(name): ink \(c.inkOld) -> \(c.inkNew), \(c.differing) pixels differ by more than 64 (largest \(c.largest)), \(c.rowsOff) columns off")
    XCTAssertGreaterThan(c.inkOld, 400, "\(name): nothing drawn", file: file, line: line)
    // The same amount of ink, within 3 %.
    XCTAssertLessThan(abs(Double(c.inkNew - c.inkOld)) / Double(c.inkOld), 0.03, "\(name): ink \(c.inkOld) → \(c.inkNew)", file: file, line: line)
    // Antialiased edges may move a little; whole pixels of line may not.
    XCTAssertLessThan(Double(c.differing) / Double(c.inkOld), 0.02, "\(name): \(c.differing) of \(c.inkOld) pixels differ", file: file, line: line)
    XCTAssertLessThanOrEqual(c.rowsOff, 3, "\(name): \(c.rowsOff) columns reach other rows", file: file, line: line)
  }

  func testNoisyDenseLineCoversTheSamePixels() throws {
    var rng = SplitMix(seed: 7)
    var y = 0.0
    let walk = (0..<200_000).map { _ in y += rng.next() - 0.5; return y }
    let noise = (0..<50_000).map { _ in rng.next() }
    for width in [1.0, 2.0, 5.0] {
      let name = "walk-\(Int(width))"
      assertAlike(try compare(name, walk, width: width), name)
      let noiseName = "noise-\(Int(width))"
      assertAlike(try compare(noiseName, noise, width: width), noiseName)
    }
  }

  func testSmoothDenseLineLooksStroked() throws {
    let sine = (0..<20_000).map { sin(Double($0) / 20_000 * 9) + Double($0) / 20_000 }
    let sorted = (0..<10_000).map { pow(Double($0) / 10_000, 3) }
    let steep = (0..<10_000).map { tanh((Double($0) - 5000) / 300) }
    for width in [1.0, 2.0, 4.0] {
      for (name, values) in [("sine", sine), ("sorted", sorted), ("steep", steep)] {
        assertAlike(try compare("\(name)-\(Int(width))", values, width: width), "\(name)-\(Int(width))")
      }
    }
  }

  func testGapsStayBreaks() throws {
    var rng = SplitMix(seed: 3)
    var values = (0..<30_000).map { _ in rng.next() }
    for i in 10_000..<14_000 { values[i] = .nan }  // a gap of 80 px
    let c = try compare("gap", values, width: 2)
    assertAlike(c, "gap")
    // Nothing is drawn in the middle of the gap.
    let plot = Rect(20, 20, 600, 200)
    let outline = try XCTUnwrap(DenseLine.outline(polylines(values, plot: plot), width: 2))
    let img = try image(outline, .fill(Color(r: 0, g: 0, b: 0)))
    for x in 230..<290 { for y in 0..<img.height { XCTAssertEqual(img.rgba(x: x, y: y).r, 255, "ink at \(x),\(y) in the gap"); if img.rgba(x: x, y: y).r != 255 { return } } }
  }

  func testOutlineFallsBackWhenXGoesBack() {
    XCTAssertNil(DenseLine.outline([[Point(10, 10), Point(5, 20)]], width: 2))
    XCTAssertNil(DenseLine.outline([[Point(10, 10), Point(12, .nan)]], width: 2))
    XCTAssertEqual(DenseLine.outline([[Point(10, 10)]], width: 2)?.isEmpty, true)  // a lone point: the caller's dot
  }

  /// Issue 19: a polyline far wider than its plot is sampled across the plot only (and 64 px
  /// beyond): a line from -1e9 to 1e9 px costs what 100 px cost, and the visible part is the
  /// same as without the bound.
  func testOnlyTheVisibleRangeIsSampled() throws {
    let wide: [[Point]] = [[Point(-1e9, 10), Point(-5, 20), Point(50, 40), Point(120, 5), Point(1e9, 30)]]
    let start = Date()
    let bounded = try XCTUnwrap(DenseLine.outline(wide, width: 2, visible: 0...100))
    XCTAssertLessThan(Date().timeIntervalSince(start), 1)
    let xs = try XCTUnwrap(bounded.bands?.first?.xs)
    XCTAssertLessThan(xs.count, 2000)
    XCTAssertGreaterThanOrEqual(xs.min()!, -70)
    XCTAssertLessThanOrEqual(xs.max()!, 170)
    // Inside the plot the edges are those of a line that ends just outside it.
    let near: [[Point]] = [[Point(-5, 20), Point(50, 40), Point(120, 5)]]
    let plain = try XCTUnwrap(DenseLine.outline(near, width: 2))
    let a = try XCTUnwrap(bounded.bands?.first), b = try XCTUnwrap(plain.bands?.first)
    for x in stride(from: 1.0, to: 100, by: 7.25) {
      func top(_ band: Band) -> Double { band.top[band.xs.firstIndex { $0 >= x }!] }
      XCTAssertEqual(top(a), top(b), accuracy: 0.05, "at x = \(x)")
    }
  }
}

/// A small deterministic generator (SplitMix64) of doubles in [0, 1).
struct SplitMix {
  var state: UInt64
  init(seed: UInt64) { state = seed }
  mutating func next() -> Double {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return Double((z ^ (z >> 31)) >> 11) / Double(1 << 53)
  }
}
