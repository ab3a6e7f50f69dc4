import ChartSceneHost
import Drawing
import RenderCairo
import XCTest

/// An animation's frames are painted into the pixels of earlier frames: whatever those held,
/// the frame comes out as painted into fresh memory (the background covers every pixel).
final class RasterReuseTests: XCTestCase {
  func testAFramePaintedOverAnEarlierOneIsTheSameAsAFreshOne() throws {
    FontRegistry.configure(fontsDirectory: AssetLocator.assetsDirectory().map { $0 + "/fonts" })
    let painter = CairoPainter(text: PangoText())
    // A translucent background: painted over, not blended with, what the buffer held.
    let list = DisplayList(size: Size(120, 80), background: Color(r: 0.2, g: 0.4, b: 0.6, a: 0.5), items: [
      .path(.rect(Rect(10, 10, 50, 30), radius: 4), .fill(Color(r: 1, g: 0, b: 0, a: 0.7))),
      .text(TextRun("Series 8", font: Font(size: 14, weight: .semibold), color: Color(r: 0, g: 0, b: 0), origin: Point(20, 50))),
    ])
    let fresh = try painter.raster(list, scale: 1)
    let other = try painter.raster(DisplayList(size: Size(120, 80), background: Color(r: 1, g: 1, b: 0)), scale: 1)
    for spare in [other.pixels, [UInt8](repeating: 0xAB, count: fresh.pixels.count), [UInt8](repeating: 1, count: 5), []] {
      let again = try painter.raster(list, scale: 1, reusing: spare)
      XCTAssertEqual(again.pixels, fresh.pixels)
      XCTAssertEqual(again.stride, fresh.stride)
    }
  }
}
