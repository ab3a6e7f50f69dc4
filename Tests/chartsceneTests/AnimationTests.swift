import Foundation
import XCTest

/// Animated output through the built executable: formats checked by ffprobe, slices equal
/// to full renders, no partial files.
final class AnimationTests: XCTestCase {
  var tmp: URL!
  enum e2e { static func run(_ args: [String]) throws -> CLI.Result { try CLI.run(args) } }

  override func setUpWithError() throws {
    tmp = FileManager.default.temporaryDirectory.appendingPathComponent("chartscene-anim-" + UUID().uuidString)
    try FileManager.default.createDirectory(at: tmp, withIntermediateDirectories: true)
  }
  override func tearDownWithError() throws { try? FileManager.default.removeItem(at: tmp) }

  func script() throws -> String {
    let u = tmp.appendingPathComponent("a.lua")
    try """
      local s = cs.data.sample()[1]
      s:setRange(0.5, 0.75)
      return cs.scene { width = 320, height = 240, fps = 20, duration = 1.5,
        root = cs.chart { id = "c", data = s },
        timeline = { cs.drag { at = 0.1, target = "c.minimap.window", by = {60, 0}, duration = 0.5 }, cs.tap { at = 0.8, target = "c.legend.y0" } } }
      """.write(to: u, atomically: true, encoding: .utf8)
    return u.path
  }

  func probe(_ path: String) throws -> String {
    let p = Process()
    p.executableURL = URL(fileURLWithPath: "/usr/bin/ffprobe")
    p.arguments = ["-v", "error", "-count_frames", "-show_entries", "stream=codec_name,pix_fmt,width,height,nb_read_frames", "-of", "csv=p=0", path]
    let out = Pipe()
    p.standardOutput = out
    try p.run()
    let data = out.fileHandleForReading.readDataToEndOfFile()
    p.waitUntilExit()
    return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
  }

  func testEveryFormatIsValid() throws {
    let s = try script()
    let expected = ["mp4": "h264,320,240,yuv420p,30", "webm": "vp9,320,240,yuv420p,30", "gif": "gif,320,240,bgra,30", "apng": "apng,320,240,rgba,30"]
    for (ext, want) in expected {
      let out = tmp.appendingPathComponent("a.\(ext)")
      let r = try e2e.run([s, "-o", out.path])
      XCTAssertEqual(r.status, 0, "\(ext): \(r.stderr)")
      XCTAssertEqual(r.stderr, "", "no progress bar when stderr is not a terminal")
      XCTAssertEqual(try probe(out.path), want, ext)
    }
    let webp = tmp.appendingPathComponent("a.webp")
    XCTAssertEqual(try e2e.run([s, "-o", webp.path]).status, 0)
    let bytes = try Data(contentsOf: webp)
    XCTAssertEqual(String(decoding: bytes[8..<12], as: UTF8.self), "WEBP")
    XCTAssertNotNil(bytes.range(of: Data("ANIM".utf8)), "an animated WebP")
    // Without -o an animated scene becomes SCRIPT.mp4.
    XCTAssertEqual(try e2e.run([s]).status, 0)
    XCTAssertTrue(FileManager.default.fileExists(atPath: tmp.appendingPathComponent("a.mp4").path))
  }

  func testEveryFormatIsTheSameBytesOnEveryRun() throws {
    let s = try script()
    for ext in ["mp4", "webm", "gif", "apng", "webp"] {
      let a = tmp.appendingPathComponent("1.\(ext)"), b = tmp.appendingPathComponent("2.\(ext)")
      XCTAssertEqual(try e2e.run([s, "-o", a.path]).status, 0)
      XCTAssertEqual(try e2e.run([s, "-o", b.path]).status, 0)
      XCTAssertEqual(try Data(contentsOf: a), try Data(contentsOf: b), ext)
    }
  }

  func testSliceEqualsTheSameFramesOfAFullRender() throws {
    let s = try script()
    try FileManager.default.createDirectory(at: tmp.appendingPathComponent("full"), withIntermediateDirectories: true)
    try FileManager.default.createDirectory(at: tmp.appendingPathComponent("part"), withIntermediateDirectories: true)
    XCTAssertEqual(try e2e.run([s, "-o", tmp.appendingPathComponent("full/f-%03d.png").path]).status, 0)
    XCTAssertEqual(try e2e.run([s, "-o", tmp.appendingPathComponent("part/f-%03d.png").path, "--frames", "12-17"]).status, 0)
    let full = try FileManager.default.contentsOfDirectory(atPath: tmp.appendingPathComponent("full").path)
    let part = try FileManager.default.contentsOfDirectory(atPath: tmp.appendingPathComponent("part").path).sorted()
    XCTAssertEqual(full.count, 30)
    XCTAssertEqual(part, (12...17).map { String(format: "f-%03d.png", $0) })
    for name in part {
      XCTAssertEqual(try Data(contentsOf: tmp.appendingPathComponent("full/" + name)), try Data(contentsOf: tmp.appendingPathComponent("part/" + name)), name)
    }
    // Frames differ over time (the animation is in the pictures).
    XCTAssertNotEqual(try Data(contentsOf: tmp.appendingPathComponent("full/f-000.png")), try Data(contentsOf: tmp.appendingPathComponent("full/f-029.png")))
  }

  func testBadAnimatedOutputsLeaveNothing() throws {
    let s = try script()
    let earlier = tmp.appendingPathComponent("keep.mp4")
    try Data("earlier".utf8).write(to: earlier)
    for (args, expected) in [
      (["--frames", "5-99", "-o", earlier.path], "bad --frames 5-99: the scene has frames 0-29"),
      (["--frames", "3-1", "-o", earlier.path], "bad --frames '3-1'"),
      (["--at", "1", "--frames", "1-2", "-o", earlier.path], "--at and --frames cannot be used together"),
      (["--at", "1", "-o", earlier.path], "--at picks one frame of a still output"),
      (["--frames", "1-2", "-o", tmp.appendingPathComponent("x.png").path], "--frames needs an animated output"),
      (["-o", tmp.appendingPathComponent("nope/f-%03d.png").path], "the folder"),
    ] {
      let before = Set(try FileManager.default.contentsOfDirectory(atPath: tmp.path))
      let r = try e2e.run([s] + args)
      XCTAssertNotEqual(r.status, 0, "\(args)")
      XCTAssertTrue(r.stderr.hasPrefix("error: ") && r.stderr.contains(expected), "\(args): \(r.stderr)")
      XCTAssertEqual(r.stderr.split(separator: "\n").count, 1)
      XCTAssertEqual(Set(try FileManager.default.contentsOfDirectory(atPath: tmp.path)), before)
      XCTAssertEqual(try Data(contentsOf: earlier), Data("earlier".utf8))
    }
    // A script error mid-render: nothing written, the earlier file kept.
    let broken = tmp.appendingPathComponent("b.lua")
    try "return cs.scene { width = 100, height = 100, duration = 1, fps = 10, root = cs.spacer {}, update = function(t) if t > 0.5 then error('boom') end end }"
      .write(to: broken, atomically: true, encoding: .utf8)
    let before = Set(try FileManager.default.contentsOfDirectory(atPath: tmp.path))
    let r = try e2e.run([broken.path, "-o", earlier.path])
    XCTAssertTrue(r.stderr.contains("b.lua:1: boom"), r.stderr)
    XCTAssertEqual(Set(try FileManager.default.contentsOfDirectory(atPath: tmp.path)), before)
    XCTAssertEqual(try Data(contentsOf: earlier), Data("earlier".utf8))
  }
}
