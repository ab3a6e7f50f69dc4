import Foundation
import SceneGraph
import XCTest

@testable import Encoding

/// Issue 37, items 5 and 16: the MP4 box walker of `concat` reads sizes someone else wrote,
/// with checked arithmetic (a box of 2^63 − 1 bytes trapped it), and the caption files are
/// fuzzed (`fuzz/`, targets `mp4` and `captions`). These replay the seeds of those targets
/// and every cut and one-byte change of them, as a short deterministic run in the suite.
final class MP4BoxTests: XCTestCase {
  static let corpus = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("fuzz/corpus")

  func seeds(_ target: String) throws -> [(String, [UInt8])] {
    let dir = MP4BoxTests.corpus.appendingPathComponent(target)
    return try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted().map { ($0, Array(try Data(contentsOf: dir.appendingPathComponent($0)))) }
  }

  func u32(_ v: UInt32) -> [UInt8] { [UInt8(v >> 24), UInt8(v >> 16 & 0xff), UInt8(v >> 8 & 0xff), UInt8(v & 0xff)] }
  func u64(_ v: UInt64) -> [UInt8] { u32(UInt32(v >> 32)) + u32(UInt32(v & 0xffff_ffff)) }

  /// The crash as found: 56 bytes, a box of 8, then one whose 64-bit size is 2^63 − 1.
  func testTheBoxOfIssue37IsNoBox() {
    let evil = u32(8) + Array("free".utf8) + u32(1) + Array("mdat".utf8) + u64(UInt64(Int64.max)) + [UInt8](repeating: 0, count: 32)
    XCTAssertEqual(evil.count, 56)
    XCTAssertNil(MP4Boxes.metadataKeys(bytes: evil))
    XCTAssertEqual(MP4Boxes.boxes(evil, 0..<evil.count).map(\.type), ["free"])
    // A largesize past Int64.max, one that wraps, a negative 32-bit-looking one, a size under
    // its header: none is a box.
    for size in [UInt64.max, UInt64(Int64.max) + 1, UInt64(Int64.max) - 7, 15, 0] {
      let b = u32(1) + Array("moov".utf8) + u64(size) + [UInt8](repeating: 0, count: 8)
      XCTAssertNil(MP4Boxes.header(b[...], at: 8, end: 40), "\(size)")
    }
    XCTAssertNil(MP4Boxes.header((u32(0xffff_ffff) + Array("moov".utf8))[...], at: Int64.max - 4, end: Int64.max))
    XCTAssertNil(MP4Boxes.header((u32(7) + Array("moov".utf8))[...], at: 0, end: 100))
    // A size of 0 runs to the end of the parent.
    XCTAssertEqual(MP4Boxes.header((u32(0) + Array("mdat".utf8))[...], at: 10, end: 100), MP4Boxes.Box(code: 0x6d64_6174, body: 18, length: 82))
  }

  /// A segment's tags as `MP4Writer` writes them (moov/meta) and as ffmpeg does
  /// (moov/udta/meta), also with a 64-bit moov size.
  func testTagsAreRead() throws {
    let byName = Dictionary(uniqueKeysWithValues: try seeds("mp4"))
    for name in ["segment-meta.mp4", "segment-udta.mp4", "largesize-moov.mp4"] {
      let tags = try XCTUnwrap(MP4Boxes.metadataKeys(bytes: try XCTUnwrap(byName[name])), name)
      XCTAssertEqual(tags["chartscene_shard"], "1/1", name)
      XCTAssertEqual(tags["chartscene_frames"], "0-9", name)
      XCTAssertTrue(tags["chartscene_media"]?.hasPrefix("{\"start\":0") == true, name)
    }
  }

  /// Every prefix, and every single byte set to 0x00, 0x01, 0x7f, 0xff, of every seed:
  /// tags or nil, never a trap, never a box outside what was walked.
  func testCutsAndChangedBytesNeverTrap() throws {
    for (name, seed) in try seeds("mp4") {
      var inputs: [[UInt8]] = (0...seed.count).map { Array(seed.prefix($0)) }
      for i in 0..<seed.count {
        for v: UInt8 in [0x00, 0x01, 0x7f, 0xff] {
          var b = seed
          b[i] = v
          inputs.append(b)
        }
      }
      for b in inputs {
        _ = MP4Boxes.metadataKeys(bytes: b)
        for box in MP4Boxes.boxes(b, 0..<b.count) {
          XCTAssertTrue(box.body >= 0 && box.body + box.length <= Int64(b.count), "\(name): \(box)")
        }
      }
    }
  }

  /// The caption seeds, cut and changed the same way: cues or one error on a line of the
  /// file, never a trap; accepted cues in order.
  func testCaptionFilesNeverTrap() throws {
    for (name, seed) in try seeds("captions") {
      XCTAssertFalse(try Captions.parse(seed).isEmpty, name)
      var inputs: [[UInt8]] = (0...seed.count).map { Array(seed.prefix($0)) }
      for i in 0..<seed.count {
        for v: UInt8 in [0x00, 0x0a, 0x0d, 0x2c, 0x2e, 0x3a, 0x3e, 0x39, 0xff] {
          var b = seed
          b[i] = v
          inputs.append(b)
        }
      }
      for b in inputs {
        do {
          var last = 0.0
          for c in try Captions.parse(b) {
            XCTAssertTrue(c.from >= last && c.to > c.from, "\(name): \(c)")
            last = c.to
          }
        } catch {
          XCTAssertTrue(error.line >= 1 && error.line <= b.count(where: { $0 == 10 }) + 2, "\(name): line \(error.line)")
        }
      }
    }
  }
}
