import Platform
import Drawing
import Encoding
import RenderCairo

/// Renders one still to PNG. The frame is painted ONCE, into one surface, by one painter:
/// a still is then the same pixels as the same frame of a PNG sequence or a live window
/// (painting separate bands changed pixels: cairo samples patterns and rasterises edges
/// against each surface's extents, so a band's pixels differed from the same rows of a
/// whole paint). The compression is what runs on several threads: the one buffer is cut
/// into horizontal stripes, each filtered against its real previous row (`PNGEncoder`).
enum StillRenderer {
  /// Stripes below this many device pixels are not worth a second thread.
  static let minimumPixelsPerStripe = 400_000

  /// `threads`: how many stripes may be compressed at once. `painter`: the painter to
  /// paint with (a worker's, in an animation); a fresh one otherwise.
  static func png(_ list: DisplayList, scale: Double, threads: Int = 2, painter: CairoPainter? = nil) throws -> [UInt8] {
    let (w, h) = CairoPainter.deviceSize(list, scale: scale)
    let stripes = max(1, min(threads, w * h / minimumPixelsPerStripe, h))
    let image = try StageTiming.measure(.paint) { try (painter ?? CairoPainter(text: PangoText())).raster(list, scale: scale) }
    return try StageTiming.measure(.encode) { try PNGEncoder(threads: Int32(stripes)).encode(image, opaque: list.background.a >= 1) }
  }
}
