import Drawing
import Foundation
import XCTest

@testable import Encoding

/// The frames of MP4 and WebM go to ffmpeg as YUV 4:2:0 converted 16 pixels at a time in
/// SIMD lanes; they must be the very bytes of the one-block-at-a-time reference.
final class YUVTests: XCTestCase {
  /// Random pixels on a stride with padding (`w * 4 + (w % 3) * 16`), the extremes in runs at
  /// the start (black, white, pure colours), then, with `stripe`, every pixel of one value.
  static func noise(_ w: Int, _ h: Int, _ rng: inout SplitMix, stripe: Bool) -> RasterImage {
    let stride = w * 4 + (w % 3) * 16
    var pixels = [UInt8](repeating: 0, count: stride * h)
    for i in pixels.indices { pixels[i] = UInt8(rng.next() * 256) }
    for i in 0..<min(pixels.count, 8192) { pixels[i] = (i / 4) % 5 == 0 ? 0 : (i % 4 == (i / 64) % 4 ? 255 : 0) }
    if stripe { for i in min(pixels.count, 8192)..<min(pixels.count, 16384) { pixels[i] = i % 8 < 4 ? 255 : 0 } }
    return RasterImage(width: w, height: h, stride: stride, pixels: pixels)
  }

  func testSIMDRowsGiveTheBytesOfTheScalarReference() {
    var rng = SplitMix(seed: 25)
    // Widths with and without a tail after the last 16 pixels; strides with padding.
    for (w, h) in [(1280, 720), (1286, 130), (18, 4), (2, 2), (30, 6), (16, 2), (322, 242)] {
      let image = YUVTests.noise(w, h, &rng, stripe: false)
      let stride = image.stride
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

  /// The AVX2 rows (C, `CFrames`; a row's last pixels after the last 16 one block at a time)
  /// give the very bytes of the reference too, on a processor that has AVX2.
  func testAVX2RowsGiveTheBytesOfTheScalarReference() throws {
    try XCTSkipUnless(YUV.hasAVX2, "this processor has no AVX2")
    var rng = SplitMix(seed: 26)
    for (w, h) in [(1280, 720), (1286, 130), (18, 4), (2, 2), (30, 6), (16, 2), (322, 242), (720, 900)] {
      let image = YUVTests.noise(w, h, &rng, stripe: true)
      let stride = image.stride
      let n = w * h * 3 / 2
      var fast = [UInt8](repeating: 1, count: n), slow = [UInt8](repeating: 2, count: n)
      image.pixels.withUnsafeBytes { src in
        fast.withUnsafeMutableBytes { dst in
          // In two parts, as the workers split a frame.
          YUV.avx2Rows(src.baseAddress!, width: w, height: h, stride: stride, into: dst.baseAddress!, pairs: 0..<h / 4)
          YUV.avx2Rows(src.baseAddress!, width: w, height: h, stride: stride, into: dst.baseAddress!, pairs: h / 4..<h / 2)
        }
      }
      YUV.convertScalar(image, into: &slow)
      XCTAssertEqual(fast, slow, "\(w)x\(h)")
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

  /// Frames larger than the pipe go into it as their pages (vmsplice), and the caller fills
  /// the buffer of the frame before the last one written with the next frame at once: the
  /// MP4 is byte for byte the one of the same frames copied into the pipe (write).
  func testSplicedFramesMakeTheFileOfCopiedOnes() throws {
    // An FFmpegEncoder always sends its frames down the pipe (`FFmpegEncoder.encoder` gives
    // an H264Encoder for an MP4 where x264 loads).
    let (w, h) = (640, 480)
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("yuv-splice-\(getpid())")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: dir) }
    let frames = (0..<12).map { k in
      var pixels = [UInt8](repeating: 255, count: w * h * 4)
      for y in 0..<h { for x in 0..<w { let o = (y * w + x) * 4; pixels[o] = UInt8((x + 9 * k) & 255); pixels[o + 1] = UInt8((y * 3 + k * 20) & 255); pixels[o + 2] = UInt8(((x ^ y) + k) & 255) } }
      return FrameConversion().convert(RasterImage(width: w, height: h, stride: w * 4, pixels: pixels), reusing: [])
    }
    func encode(splicing: Bool) throws -> Data {
      let path = dir.appendingPathComponent(splicing ? "spliced.mp4" : "copied.mp4").path
      let encoder = try FFmpegEncoder(path: path, format: .mp4, width: w, height: h, fps: 10)
      XCTAssertLessThan(encoder.pipeCapacity, w * h * 3 / 2, "the pipe holds less than a frame")
      encoder.splices = splicing
      // Two buffers taking turns, as the painting workers' spares do, each filled again
      // as soon as the frame after it is written (ffmpeg is still encoding then).
      var buffers = [[UInt8](repeating: 0, count: w * h * 3 / 2), [UInt8](repeating: 0, count: w * h * 3 / 2)]
      for (k, frame) in frames.enumerated() {
        var buffer: [UInt8] = []
        swap(&buffer, &buffers[k % 2])
        buffer.withUnsafeMutableBytes { dst in frame.withUnsafeBytes { dst.copyMemory(from: $0) } }
        try encoder.write(converted: buffer)
        buffers[k % 2] = buffer
        XCTAssertEqual(encoder.spliced != nil, splicing)
      }
      try encoder.finish()
      XCTAssertNil(encoder.spliced)
      return try Data(contentsOf: URL(fileURLWithPath: path))
    }
    let spliced = try encode(splicing: true), copied = try encode(splicing: false)
    XCTAssertGreaterThan(copied.count, 1000)
    XCTAssertEqual(spliced, copied)
  }

  /// x264 in this process (where libx264 loads) and x264 in ffmpeg, given the same frames
  /// and options, make MP4s that decode to the very same frames, at the same times; the
  /// in-process one (written by MP4Writer) is the same bytes on a second run, and its
  /// container says what ffmpeg's says: frame times, duration, key frames, metadata.
  func testInProcessX264MakesTheFramesOfFFmpegs() throws {
    let (w, h) = (320, 240)
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("yuv-h264-\(getpid())")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: dir) }
    // 45 frames at 15 fps: three groups of pictures, the last one short.
    let frames = (0..<45).map { k in
      var pixels = [UInt8](repeating: 255, count: w * h * 4)
      for y in 0..<h { for x in 0..<w { let o = (y * w + x) * 4; pixels[o] = UInt8((x + 5 * k) & 255); pixels[o + 1] = UInt8((y * 2 + k) & 255); pixels[o + 2] = UInt8(((x / 8) ^ (y / 8) + k) & 255) } }
      return RasterImage(width: w, height: h, stride: w * 4, pixels: pixels)
    }
    let inProcess = FFmpegEncoder.inProcessH264
    defer { FFmpegEncoder.inProcessH264 = inProcess }
    func encode(_ name: String, linked: Bool) throws -> (path: String, linked: Bool) {
      FFmpegEncoder.inProcessH264 = linked
      let path = dir.appendingPathComponent(name).path
      let encoder = try FFmpegEncoder.encoder(path: path, format: .mp4, width: w, height: h, fps: 15, metadata: [("comment", "a test"), ("chartscene_shard", "1/2")])
      let used = encoder is H264Encoder
      for (k, frame) in frames.enumerated() {
        if k % 2 == 0 { try encoder.write(frame) } else { try encoder.write(converted: FrameConversion().convert(frame, reusing: [])) }
      }
      try encoder.finish()
      XCTAssertNil((encoder as? H264Encoder)?.x264)
      return (path, used)
    }
    func decoded(_ path: String) throws -> String {
      let data = try toolOutput(["ffmpeg", "-v", "error", "-i", path, "-f", "framemd5", "-"])
      return String(decoding: data, as: UTF8.self).split(separator: "\n").filter { !$0.hasPrefix("#") }.joined(separator: "\n")
    }
    let viaFFmpeg = try encode("ffmpeg.mp4", linked: false)
    XCTAssertFalse(viaFFmpeg.linked)
    let linked = try encode("linked.mp4", linked: true)
    try XCTSkipUnless(linked.linked, "libx264 does not load here (or this build has no x264.h): MP4s are encoded by ffmpeg")
    let again = try encode("again.mp4", linked: true)
    let a = try decoded(viaFFmpeg.path), b = try decoded(linked.path)
    XCTAssertEqual(a.split(separator: "\n").count, 45)
    XCTAssertEqual(a, b)
    XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: linked.path)), try Data(contentsOf: URL(fileURLWithPath: again.path)))
    func probe(_ path: String) throws -> String {
      String(decoding: try toolOutput(["ffprobe", "-v", "error", "-show_entries", "format=duration:format_tags=comment,chartscene_shard:stream=codec_name,profile,width,height,r_frame_rate,duration,nb_frames:frame=best_effort_timestamp_time,key_frame",
                                       "-of", "default=nw=1", path]), as: UTF8.self)
    }
    // What `concat` reads without ffprobe: the same keys from either writer.
    for path in [linked.path, viaFFmpeg.path] {
      let keys = MP4Writer.metadataKeys(path)
      XCTAssertEqual(keys?["comment"], "a test", path)
      XCTAssertEqual(keys?["chartscene_shard"], "1/2", path)
    }
    XCTAssertNil(MP4Writer.metadataKeys(dir.path))
    let info = try probe(linked.path)
    XCTAssertEqual(info, try probe(viaFFmpeg.path))
    XCTAssertTrue(info.contains("TAG:chartscene_shard=1/2\n") && info.contains("TAG:comment=a test\n") && info.contains("duration=3.000000\n"), info)
    XCTAssertEqual(info.components(separatedBy: "key_frame=1").count - 1, 3, info)
    // moov before mdat: it plays while it downloads (ffmpeg's +faststart).
    let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: linked.path)))
    XCTAssertEqual(String(decoding: bytes[4..<8], as: UTF8.self), "ftyp")
    let moov = Int(bytes[0]) << 24 | Int(bytes[1]) << 16 | Int(bytes[2]) << 8 | Int(bytes[3])
    XCTAssertEqual(String(decoding: bytes[(moov + 4)..<(moov + 8)], as: UTF8.self), "moov")
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

