import ChartModel
import ChartSceneHost
import Drawing
import Render
import RenderCairo
import XCTest

/// A dense line's outline carries its bands, which the raster painter fills a pixel column at
/// a time (`CairoPainter+Band`). They must give the pixels cairo gives the outline polygon
/// (up to antialiasing), honour the clip, the scale and the colour's opacity, and step aside
/// (the polygon is filled by cairo, pixel for pixel) whenever the case is not the plain one.
final class DenseBandTests: XCTestCase {
  lazy var painter: CairoPainter = {
    FontRegistry.configure(fontsDirectory: AssetLocator.assetsDirectory().map { $0 + "/fonts" })
    return CairoPainter(text: PangoText())
  }()

  func outline(_ values: [Double], plot: Rect, width: Double = 2) throws -> Path {
    let n = Double(values.count)
    let finite = values.filter { !$0.isNaN }
    let lo = finite.min()!, hi = finite.max()!
    let pls = MinMaxPyramid(values).polylines(
      xs: (0..<values.count).map(Double.init), indices: 0..<values.count,
      xToPixel: { plot.x + $0 / n * plot.width },
      yToPixel: { plot.maxY - ($0 - lo) / (hi - lo) * plot.height })
    let path = try XCTUnwrap(DenseLine.outline(pls, width: width))
    XCTAssertNotNil(path.bands)
    return path
  }

  func walk(_ count: Int, seed: UInt64) -> [Double] {
    var rng = SplitMix(seed: seed)
    var y = 0.0
    return (0..<count).map { _ in y += rng.next() - 0.5; return y }
  }

  func noise(_ count: Int, seed: UInt64) -> [Double] {
    var rng = SplitMix(seed: seed)
    return (0..<count).map { _ in rng.next() }
  }

  func px(_ img: RasterImage, _ x: Int, _ y: Int) -> [UInt8] { let p = img.rgba(x: x, y: y); return [p.r, p.g, p.b, p.a] }

  func raster(_ items: [DisplayItem], background: Color = Color(r: 1, g: 1, b: 1), scale: Double = 1) throws -> RasterImage {
    try painter.raster(DisplayList(size: Size(400, 200), background: background, items: items), scale: scale)
  }

  struct Difference { var largest = 0, over16 = 0, differing = 0 }

  func difference(_ a: RasterImage, _ b: RasterImage) -> Difference {
    var d = Difference()
    for y in 0..<a.height {
      for x in 0..<a.width {
        let p = a.rgba(x: x, y: y), q = b.rgba(x: x, y: y)
        let m = max(abs(Int(p.r) - Int(q.r)), abs(Int(p.g) - Int(q.g)), abs(Int(p.b) - Int(q.b)), abs(Int(p.a) - Int(q.a)))
        d.largest = max(d.largest, m)
        if m > 16 { d.over16 += 1 }
        if m > 0 { d.differing += 1 }
      }
    }
    return d
  }

  /// The polygon alone, without its bands: cairo fills it.
  func polygon(_ p: Path) -> Path { Path(elements: p.elements) }

  func testBandsFillLikeTheOutlinePolygon() throws {
    let plot = Rect(10, 10, 380, 180)
    for (name, values) in [("walk", walk(100_000, seed: 5)), ("noise", noise(40_000, seed: 6))] {
      for width in [1.0, 2.0, 4.5] {
        let path = try outline(values, plot: plot, width: width)
        for scale in [1.0, 2.0] {
          let color = Color(r: 0.2, g: 0.6, b: 0.3)
          let bands = try raster([.path(path, .fill(color))], scale: scale)
          let cairo = try raster([.path(polygon(path), .fill(color))], scale: scale)
          let d = difference(bands, cairo)
          print("bands \(name) width \(width) scale \(scale): largest \(d.largest), \(d.over16) over 16, \(d.differing) differ")
          // Antialiasing only: cairo samples coverage on a grid, the bands integrate it.
          XCTAssertLessThanOrEqual(d.largest, 48, "\(name) \(width) \(scale)")
          XCTAssertLessThan(Double(d.over16), Double(bands.width * bands.height) * 0.002, "\(name) \(width) \(scale)")
        }
      }
    }
  }

  func testBandsHonourTheClipAndOpacity() throws {
    let path = try outline(walk(50_000, seed: 9), plot: Rect(0, 0, 400, 200), width: 3)
    let color = Color(r: 0.9, g: 0.1, b: 0.2, a: 0.5)
    let background = Color(r: 0.2, g: 0.3, b: 0.9)
    let clip = Rect(100, 40, 150, 90)
    for scale in [1.0, 2.0] {
      let items: (Path) -> [DisplayItem] = { [.path(.rect(Rect(0, 0, 400, 200)), .fill(Color(r: 1, g: 1, b: 0.8))),
                                             .pushClip(.rect(clip)), .path($0, .fill(color)), .popClip] }
      let bands = try raster(items(path), background: background, scale: scale)
      let cairo = try raster(items(polygon(path)), background: background, scale: scale)
      let d = difference(bands, cairo)
      XCTAssertLessThanOrEqual(d.largest, 24, "scale \(scale)")
      XCTAssertLessThan(Double(d.over16), Double(bands.width * bands.height) * 0.002, "scale \(scale)")
      // Nothing outside the clip changes.
      let backdrop = try raster([.path(.rect(Rect(0, 0, 400, 200)), .fill(Color(r: 1, g: 1, b: 0.8)))], background: background, scale: scale)
      var inside = 0
      for y in 0..<bands.height {
        for x in 0..<bands.width {
          let inClip = Double(x) >= clip.minX * scale && Double(x) < clip.maxX * scale && Double(y) >= clip.minY * scale && Double(y) < clip.maxY * scale
          if inClip { if px(bands, x, y) != px(backdrop, x, y) { inside += 1 }; continue }
          XCTAssertEqual(px(bands, x, y), px(backdrop, x, y), "ink outside the clip at \(x),\(y)")
          if px(bands, x, y) != px(backdrop, x, y) { return }
        }
      }
      XCTAssertGreaterThan(inside, 200, "the line is drawn inside the clip")
    }
  }

  /// Rotated, in a group, under a clip off whole pixels: cairo fills the polygon itself, so
  /// the pixels are exactly those of the polygon without bands.
  func testOtherCasesFillThePolygon() throws {
    let path = try outline(walk(30_000, seed: 2), plot: Rect(20, 20, 360, 160))
    let color = Color(r: 0.1, g: 0.2, b: 0.7)
    // (A rectangle clip is put on whole pixels by the painter; a polygon one is not.)
    var offPixels = Path()
    offPixels.move(to: Point(50.5, 30.25)); offPixels.line(to: Point(250.5, 30.25))
    offPixels.line(to: Point(250.5, 130.25)); offPixels.line(to: Point(50.5, 130.25)); offPixels.close()
    let cases: [String: (Path) -> [DisplayItem]] = [
      "rotated": { [.pushTransform(Affine(a: 0.98, b: 0.2, c: -0.2, d: 0.98, tx: 20, ty: -30)), .path($0, .fill(color)), .popTransform] },
      "group": { [.pushGroup(opacity: 0.6), .path($0, .fill(color)), .popGroup] },
      "clip off pixels": { [.pushClip(offPixels), .path($0, .fill(color)), .popClip] },
      "round clip": { [.pushClip(.circle(Point(200, 100), 80)), .path($0, .fill(color)), .popClip] },
    ]
    for (name, items) in cases {
      let a = try raster(items(path)), b = try raster(items(polygon(path)))
      XCTAssertEqual(difference(a, b).differing, 0, name)
    }
  }

  func testChangingThePathDropsItsBands() throws {
    var path = try outline(walk(20_000, seed: 4), plot: Rect(0, 0, 400, 200))
    XCTAssertEqual(path.bands?.count, 1)
    path.line(to: Point(0, 0))
    XCTAssertNil(path.bands)
  }
}
