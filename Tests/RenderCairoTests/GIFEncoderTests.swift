import Drawing
import Foundation
import XCTest

@testable import Encoding

/// The GIF encoder of this process (CFrames' gif.c), read back by ffmpeg's GIF decoder.
final class GIFEncoderTests: TempFolderCase {
  /// A frame of `w`×`h` opaque pixels of `colour(x, y)` (0xRRGGBB).
  func frame(_ w: Int, _ h: Int, _ colour: (Int, Int) -> UInt32) -> RasterImage {
    var px = [UInt8](repeating: 0, count: w * h * 4)
    for y in 0..<h {
      for x in 0..<w {
        let c = colour(x, y), o = (y * w + x) * 4
        px[o] = UInt8(c & 255); px[o + 1] = UInt8(c >> 8 & 255); px[o + 2] = UInt8(c >> 16 & 255); px[o + 3] = 255
      }
    }
    return RasterImage(width: w, height: h, stride: w * 4, pixels: px)
  }

  func encode(_ frames: [RasterImage], fps: Double = 30, name: String = "a.gif") throws -> String {
    let path = tmp.appendingPathComponent(name).path
    let gif = try GIFEncoder(path: path, fps: fps)
    for f in frames { try gif.write(f) }
    try gif.finish()
    return path
  }

  /// Every frame as ffmpeg decodes it, RGB bytes one after another.
  func decoded(_ path: String) throws -> [UInt8] {
    [UInt8](try toolOutput(["ffmpeg", "-v", "error", "-i", path, "-fps_mode", "passthrough", "-f", "rawvideo", "-pix_fmt", "rgb24", "-"]))
  }

  func rgb(_ img: RasterImage) -> [UInt8] {
    var out: [UInt8] = []
    for y in 0..<img.height {
      for x in 0..<img.width {
        let o = y * img.stride + x * 4
        out += [img.pixels[o + 2], img.pixels[o + 1], img.pixels[o]]
      }
    }
    return out
  }

  /// Up to 256 colours in all frames: each is a palette colour, and the frames come back
  /// exactly (a moving box, a frame that repeats the one before, one that changes one pixel).
  func testFramesOfFewColoursComeBackExactly() throws {
    let colours: [UInt32] = [0xF2F2F7, 0x3366CC, 0xFF3B30, 0x000000, 0xFFFFFF]
    var frames: [RasterImage] = []
    for k in 0..<4 {
      frames.append(frame(64, 48) { x, y in
        if x >= 10 + 8 * k && x < 30 + 8 * k && y >= 10 && y < 30 { return colours[1] }
        return colours[(x / 16 + y / 24) % 2 == 0 ? 0 : 2]
      })
    }
    frames.append(frames[3])
    var last = frames[3]
    last.pixels.replaceSubrange(last.pixels.count - 4..<last.pixels.count, with: [255, 255, 255, 255])
    frames.append(last)
    let path = try encode(frames)
    XCTAssertEqual(try decoded(path), frames.flatMap(rgb))
  }

  /// Thousands of colours (a gradient) beside a flat background: the background stays its
  /// exact colour (no dithering noise on it) and the gradient stays close (dithered: the
  /// mean error of a channel is small, single pixels are further off).
  func testTheBackgroundStaysExactAmongThousandsOfColours() throws {
    let bg: UInt32 = 0x1C1C1E
    let frames = (0..<3).map { k in
      frame(256, 64) { x, y in
        guard y < 32 else { return bg }
        let v = UInt32((x + k * 7) % 256), w = UInt32(y * 8)
        return v << 16 | w << 8 | (255 - v)
      }
    }
    let got = try decoded(try encode(frames))
    XCTAssertEqual(got.count, 3 * 256 * 64 * 3)
    let want = frames.flatMap(rgb)
    var total = 0
    for f in 0..<3 {
      for y in 0..<64 {
        for x in 0..<256 {
          let o = ((f * 64 + y) * 256 + x) * 3
          if y >= 32 {
            XCTAssertEqual(Array(got[o..<o + 3]), [0x1C, 0x1C, 0x1E], "frame \(f) (\(x), \(y))")
          } else {
            for c in 0..<3 { total += abs(Int(got[o + c]) - Int(want[o + c])) }
          }
        }
      }
    }
    let mean = Double(total) / Double(3 * 256 * 32 * 3)
    // 4.57 (ffmpeg's palettegen and paletteuse with sierra2_4a, on the same frames: 4.61).
    XCTAssertLessThanOrEqual(mean, 5, "the gradient's mean error")
  }

  /// More colours than the encoder counts one by one (131,072): the palette is made from
  /// cells of 5 bits a channel, and the frames stay close.
  func testMoreColoursThanItCountsExactly() throws {
    // 5 frames of 32,768 colours, no colour in two frames: 163,840.
    let frames = (0..<5).map { k in frame(256, 128) { x, y in UInt32(x) << 16 | UInt32(y * 2) << 8 | UInt32(k * 40 + (x + y) % 40) } }
    let got = try decoded(try encode(frames))
    let want = frames.flatMap(rgb)
    XCTAssertEqual(got.count, want.count)
    let total = zip(got, want).reduce(0) { $0 + abs(Int($1.0) - Int($1.1)) }
    let mean = Double(total) / Double(want.count)
    // 11.48 (ffmpeg's palettegen and paletteuse with sierra2_4a, on the same frames: 11.52).
    XCTAssertLessThanOrEqual(mean, 12, "the mean error of a channel")
  }

  /// The same frames give the same bytes, and the frames' delays add up to their duration.
  func testTheSameBytesAndDelaysThatAddUp() throws {
    let frames = (0..<7).map { k in frame(40, 30) { x, y in x < 5 * k ? 0x3366CC : UInt32(x * 6 << 16 | y * 8) } }
    let first = try encode(frames, fps: 30, name: "a.gif"), second = try encode(frames, fps: 30, name: "b.gif")
    let bytes = try Data(contentsOf: URL(fileURLWithPath: first))
    XCTAssertEqual(bytes, try Data(contentsOf: URL(fileURLWithPath: second)))
    // The blocks after the header and the global colour table: the graphic control
    // extensions' delays of 7 frames at 30 fps, 23 cs in all.
    let b = [UInt8](bytes)
    var delays: [Int] = []
    var i = 13 + 768
    func skipBlocks() { while b[i] != 0 { i += Int(b[i]) + 1 }; i += 1 }
    while b[i] != 0x3B {
      if b[i] == 0x21 {
        if b[i + 1] == 0xF9 { delays.append(Int(b[i + 4]) | Int(b[i + 5]) << 8) }
        i += 2
        skipBlocks()
      } else {
        XCTAssertEqual(b[i], 0x2C)
        i += 11  // the image descriptor (no colour table of its own), the LZW code size
        skipBlocks()
      }
    }
    XCTAssertEqual(i, b.count - 1)
    XCTAssertEqual(delays, [3, 4, 3, 3, 4, 3, 3])
    XCTAssertEqual(Array(bytes.prefix(6)), Array("GIF89a".utf8))
    XCTAssertEqual(bytes.last, 0x3B)
  }

  /// A folder that does not exist: one line, and nothing written.
  func testAMissingFolderIsOneLine() {
    let path = tmp.appendingPathComponent("no/a.gif").path
    XCTAssertThrowsError(try GIFEncoder(path: path, fps: 30)) { e in
      XCTAssertEqual("\(e)", "cannot write '\(path)': No such file or directory")
    }
  }

  /// A frame of another size, or no frames at all, fail with one line and leave no file.
  func testAFrameOfAnotherSizeOrNoFramesLeaveNothing() throws {
    let path = tmp.appendingPathComponent("a.gif").path
    let gif = try GIFEncoder(path: path, fps: 30)
    try gif.write(frame(8, 8) { _, _ in 0 })
    XCTAssertThrowsError(try gif.write(frame(9, 8) { _, _ in 0 })) { e in
      XCTAssertEqual("\(e)", "cannot write '\(path)': a frame of 9x8 in a GIF of 8x8")
    }
    let none = try GIFEncoder(path: path, fps: 30)
    XCTAssertThrowsError(try none.finish()) { e in XCTAssertEqual("\(e)", "cannot write '\(path)': no frames") }
    XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: dir), [])
  }
}
