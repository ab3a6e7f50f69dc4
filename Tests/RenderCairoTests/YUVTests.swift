import Drawing
import XCTest

@testable import Encoding

/// The frames of MP4 and WebM go to ffmpeg as YUV 4:2:0 converted 16 pixels at a time in
/// SIMD lanes; they must be the very bytes of the one-block-at-a-time reference.
final class YUVTests: XCTestCase {
  func testSIMDRowsGiveTheBytesOfTheScalarReference() {
    var rng = SplitMix(seed: 25)
    // Widths with and without a tail after the last 16 pixels; strides with padding.
    for (w, h) in [(1280, 720), (1286, 130), (18, 4), (2, 2), (30, 6), (16, 2), (322, 242)] {
      let stride = w * 4 + (w % 3) * 16
      var pixels = [UInt8](repeating: 0, count: stride * h)
      for i in pixels.indices { pixels[i] = UInt8(rng.next() * 256) }
      // The extremes: black, white, pure colours, in runs.
      for i in 0..<min(pixels.count, 8192) { pixels[i] = (i / 4) % 5 == 0 ? 0 : (i % 4 == (i / 64) % 4 ? 255 : 0) }
      let image = RasterImage(width: w, height: h, stride: stride, pixels: pixels)
      let n = w * h * 3 / 2
      var fast = [UInt8](repeating: 1, count: n), slow = [UInt8](repeating: 2, count: n)
      // The SIMD rows themselves (a debug build's `convert` goes one block at a time, `scalarRows`,
      // which `convertScalar` runs too).
      image.pixels.withUnsafeBytes { src in
        fast.withUnsafeMutableBytes { dst in
          YUV.simdRows(src.baseAddress!, width: w, height: h, stride: stride, into: dst.baseAddress!, pairs: 0..<h / 2)
        }
      }
      YUV.convertScalar(image, into: &slow)
      XCTAssertEqual(fast, slow, "\(w)x\(h)")
      var converted = [UInt8](repeating: 3, count: n)
      YUV.convert(image, into: &converted)
      XCTAssertEqual(converted, slow, "\(w)x\(h)")
    }
  }

  /// The conversion done on the painting workers: the same bytes, into a spare buffer of
  /// the right size or a new one.
  func testFrameConversionReusesSparesOfTheRightSize() {
    var rng = SplitMix(seed: 6)
    let (w, h) = (66, 10)
    let pixels = (0..<(w * 4 * h)).map { _ in UInt8(rng.next() * 256) }
    let image = RasterImage(width: w, height: h, stride: w * 4, pixels: pixels)
    var expected = [UInt8](repeating: 0, count: w * h * 3 / 2)
    YUV.convertScalar(image, into: &expected)
    let conversion = FrameConversion()
    XCTAssertEqual(conversion.convert(image, reusing: []), expected)
    XCTAssertEqual(conversion.convert(image, reusing: [UInt8](repeating: 9, count: 7)), expected)
    XCTAssertEqual(conversion.convert(image, reusing: [UInt8](repeating: 9, count: expected.count)), expected)
  }

  func testLimitedRangeValuesOfBlackAndWhite() {
    for (value, y) in [(UInt8(0), UInt8(16)), (UInt8(255), UInt8(235))] {
      let image = RasterImage(width: 32, height: 2, stride: 128, pixels: [UInt8](repeating: value, count: 256))
      var out = [UInt8](repeating: 0, count: 96)
      YUV.convert(image, into: &out)
      XCTAssertEqual(Array(out[0..<64]), [UInt8](repeating: y, count: 64))
      XCTAssertEqual(Array(out[64...]), [UInt8](repeating: 128, count: 32))
    }
  }
}

