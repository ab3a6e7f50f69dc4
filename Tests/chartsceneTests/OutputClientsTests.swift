import Foundation
import XCTest

/// Every output is opened by a real client, for every example: PDFs pass `qpdf --check`,
/// SVGs render in `rsvg-convert` like the PNG, PNGs pass `pngcheck`, videos have their frame
/// count and duration in `ffprobe` (WebP: `webpmux`, as ffmpeg cannot read animated WebP).
/// And a still is the same pixels as the same frame rendered any other way.
final class OutputClientsTests: XCTestCase {
  var tmp: URL!

  override func setUpWithError() throws {
    tmp = FileManager.default.temporaryDirectory.appendingPathComponent("chartscene-clients-" + UUID().uuidString)
    try FileManager.default.createDirectory(at: tmp, withIntermediateDirectories: true)
  }
  override func tearDownWithError() throws { try? FileManager.default.removeItem(at: tmp) }

  func examples() throws -> [String] {
    try FileManager.default.contentsOfDirectory(atPath: EndToEndTests.repo.appendingPathComponent("examples").path)
      .filter { $0.hasSuffix(".lua") }.sorted()
  }

  /// Renders with the chartscene binary; fails the test on a non-zero status or any stderr.
  func render(_ args: [String], file: StaticString = #filePath, line: UInt = #line) throws {
    let r = try CLI.run(args)
    XCTAssertEqual(r.status, 0, "\(args): \(r.stderr)", file: file, line: line)
    XCTAssertEqual(r.stderr, "", "\(args)", file: file, line: line)
  }

  /// Renders every job in one `chartscene batch` run (what these tests check is the files),
  /// failing the test on a failed job, a non-zero status or any output.
  func renderAll(_ jobs: [[String]], file: StaticString = #filePath, line: UInt = #line) {
    do {
      let (r, errors) = try CLI.batch(jobs, in: tmp)
      for (job, e) in zip(jobs, errors) where e != nil { XCTFail("\(job): \(e!)", file: file, line: line) }
      XCTAssertEqual(r.status, 0, r.stderr, file: file, line: line)
      XCTAssertEqual(r.stderr + r.stdout, "", file: file, line: line)
    } catch { XCTFail("\(error)", file: file, line: line) }
  }

  struct Failure: Error, CustomStringConvertible {
    var description: String
    init(_ d: String) { description = d }
  }

  /// Runs a system tool (found on PATH's usual places).
  func tool(_ name: String, _ args: [String]) throws -> CLI.Result {
    let path = ["/usr/bin/", "/usr/local/bin/", "/bin/"].map { $0 + name }.first { FileManager.default.isExecutableFile(atPath: $0) }
    guard let path else { throw Failure("\(name) is not installed (scripts/install-deps installs it)") }
    return try CLI.run(args, executable: URL(fileURLWithPath: path))
  }

  /// Decoded straight RGBA pixels of an image file, by ffmpeg (a client independent of
  /// cairo and of our encoder). PNG files only.
  struct Pixels { var width: Int; var height: Int; var rgba: [UInt8] }
  func decode(_ path: String, file: StaticString = #filePath, line: UInt = #line) throws -> Pixels {
    let raw = path + ".rgba"
    if !FileManager.default.fileExists(atPath: raw) { try decodeAll([path], file: file, line: line) }
    // The size from the PNG header (IHDR).
    let head = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)).prefix(24))
    XCTAssertEqual(Array(head.prefix(8)), [137, 80, 78, 71, 13, 10, 26, 10], "\(path) is not a PNG", file: file, line: line)
    guard head.count == 24 else { throw Failure("\(path) is not a PNG") }
    func be32(_ o: Int) -> Int { head[o..<o + 4].reduce(0) { $0 << 8 | Int($1) } }
    let wh = [be32(16), be32(20)]
    let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: raw)))
    XCTAssertEqual(bytes.count, wh[0] * wh[1] * 4, path, file: file, line: line)
    try? FileManager.default.removeItem(atPath: raw)
    return Pixels(width: wh[0], height: wh[1], rgba: bytes)
  }

  /// Decodes PNG files by one ffmpeg (its start, ~70 ms of CPU, is most of the cost of one
  /// image) into raw RGBA files beside them, which `decode` then reads.
  func decodeAll(_ paths: [String], file: StaticString = #filePath, line: UInt = #line) throws {
    var args = ["-v", "error", "-y"]
    for p in paths { args += ["-i", p] }
    for (k, p) in paths.enumerated() { args += ["-map", "\(k):v", "-f", "rawvideo", "-pix_fmt", "rgba", p + ".rgba"] }
    let r = try tool("ffmpeg", args)
    XCTAssertEqual(r.status, 0, "ffmpeg cannot decode \(paths): \(r.stderr)", file: file, line: line)
  }

  /// How many pixels have a channel off by more than each of `thresholds` (unsafe pointers:
  /// the tests run unoptimised).
  func differing(_ a: Pixels, _ b: Pixels, over thresholds: [Int]) -> [Int] {
    var counts = [Int](repeating: 0, count: thresholds.count)
    a.rgba.withUnsafeBufferPointer { p in
      b.rgba.withUnsafeBufferPointer { q in
        var i = 0
        let end = min(p.count, q.count)
        while i < end {
          let d = max(max(abs(Int(p[i]) - Int(q[i])), abs(Int(p[i + 1]) - Int(q[i + 1]))),
                      max(abs(Int(p[i + 2]) - Int(q[i + 2])), abs(Int(p[i + 3]) - Int(q[i + 3]))))
          if d > 0 { for (k, t) in thresholds.enumerated() where d > t { counts[k] += 1 } }
          i += 4
        }
      }
    }
    return counts
  }
  func differing(_ a: Pixels, _ b: Pixels, over threshold: Int) -> Int { differing(a, b, over: [threshold])[0] }

  /// The largest difference of the mean colour of any 8×8 block.
  func blockDifference(_ a: Pixels, _ b: Pixels) -> Double {
    let bw = a.width / 8, bh = a.height / 8
    guard bw > 0, bh > 0 else { return 0 }
    // Per block and channel: the sum of the differences.
    var sums = [Int](repeating: 0, count: bw * bh * 4)
    a.rgba.withUnsafeBufferPointer { p in
      b.rgba.withUnsafeBufferPointer { q in
        sums.withUnsafeMutableBufferPointer { s in
          for y in 0..<(bh * 8) {
            let row = y * a.width * 4, brow = (y / 8) * bw * 4
            for x in 0..<(bw * 8) {
              let i = row + x * 4, j = brow + (x / 8) * 4
              s[j] += Int(p[i]) - Int(q[i]); s[j + 1] += Int(p[i + 1]) - Int(q[i + 1])
              s[j + 2] += Int(p[i + 2]) - Int(q[i + 2]); s[j + 3] += Int(p[i + 3]) - Int(q[i + 3])
            }
          }
        }
      }
    }
    return Double(sums.map(abs).max() ?? 0) / 64
  }

  // MARK: PDF

  func testEveryPDFPassesQpdfCheck() throws {
    let names = try examples()
    renderAll(names.map { ["examples/" + $0, "-o", tmp.appendingPathComponent($0 + ".pdf").path] })
    for name in names {
      let pdf = tmp.appendingPathComponent(name + ".pdf").path
      let r = try tool("qpdf", ["--check", pdf])
      // 0: no problem; 3: warnings (e.g. carousel's duplicated keys, once); 2: errors.
      XCTAssertEqual(r.status, 0, "\(name).pdf: qpdf --check exited \(r.status): \(r.stdout.suffix(600)) \(r.stderr.suffix(600))")
      XCTAssertFalse((r.stdout + r.stderr).contains("WARNING"), "\(name).pdf: \(r.stdout.prefix(600))")
    }
  }

  // MARK: SVG

  /// The SVG in rsvg-convert against the PNG, both at 1.5 device pixels per scene pixel (a
  /// fractional zoom, where hairline seams between pieces show). The tolerance, measured on
  /// every example: the two rasterisers place and hint glyphs differently, so text edges
  /// differ (up to ~160 in a channel, in up to 1.2 % of the pixels by more than 2 and 0.5 %
  /// by more than 32; an 8×8 block's mean colour by up to 20). So a pixel is "off" above 2,
  /// and the SVG fails when more than 4 % of the pixels are off (the carousel's strip seams
  /// put 12 % off), when more than 1 % are off by more than 32, or when any 8×8 block's
  /// mean colour differs by more than 40 (a missing or misplaced line, bar or label).
  func testEverySVGRendersInRsvgAndMatchesThePNG() throws {
    let names = try examples()
    renderAll(names.flatMap { name in
      [["examples/" + name, "-o", tmp.appendingPathComponent(name + ".svg").path],
       ["examples/" + name, "--scale", "1.5", "-o", tmp.appendingPathComponent(name + "-1.5.png").path]]
    })
    for name in names {
      let svg = tmp.appendingPathComponent(name + ".svg").path
      let rendered = tmp.appendingPathComponent(name + "-rsvg.png").path
      let r = try tool("rsvg-convert", ["--zoom", "1.5", "--dpi-x", "72", "--dpi-y", "72", "-o", rendered, svg])
      XCTAssertEqual(r.status, 0, "\(name).svg: rsvg-convert: \(r.stderr)")
      XCTAssertEqual(r.stderr, "", "\(name).svg: rsvg-convert warned")
    }
    try decodeAll(names.flatMap { [tmp.appendingPathComponent($0 + "-1.5.png").path, tmp.appendingPathComponent($0 + "-rsvg.png").path] })
    for name in names {
      let png = tmp.appendingPathComponent(name + "-1.5.png").path, rendered = tmp.appendingPathComponent(name + "-rsvg.png").path
      let a = try decode(png), b = try decode(rendered)
      XCTAssertEqual([a.width, a.height], [b.width, b.height], name)
      guard a.width == b.width, a.height == b.height else { continue }
      let total = Double(a.width * a.height)
      let counts = differing(a, b, over: [2, 32])
      let off = Double(counts[0]) / total, far = Double(counts[1]) / total
      let block = blockDifference(a, b)
      XCTAssertLessThanOrEqual(off, 0.04, "\(name).svg: \(String(format: "%.2f", off * 100)) % of pixels differ from the PNG by more than 2")
      XCTAssertLessThanOrEqual(far, 0.01, "\(name).svg: \(String(format: "%.2f", far * 100)) % of pixels differ from the PNG by more than 32")
      XCTAssertLessThanOrEqual(block, 40, "\(name).svg: an 8×8 block's mean colour differs by \(block)")
    }
  }

  func testTheSVGComparisonSeesADifferentPicture() throws {
    // The same scene in another theme must fail the comparison above (it is not vacuous).
    let svg = tmp.appendingPathComponent("c.svg").path, png = tmp.appendingPathComponent("c.png").path
    let rendered = tmp.appendingPathComponent("c-rsvg.png").path
    try render(["examples/chart.lua", "-o", svg])
    try render(["examples/chart.lua", "--theme", "night", "--scale", "1.5", "-o", png])
    XCTAssertEqual(try tool("rsvg-convert", ["--zoom", "1.5", "--dpi-x", "72", "--dpi-y", "72", "-o", rendered, svg]).status, 0)
    let a = try decode(png), b = try decode(rendered)
    XCTAssertGreaterThan(Double(differing(a, b, over: 2)) / Double(a.width * a.height), 0.04)
    XCTAssertGreaterThan(blockDifference(a, b), 40)
  }

  /// An SVG is as large as the PNG in a browser: its size is in CSS pixels (cairo writes
  /// points by default, which a viewer at 96 dpi shows 4/3 larger), so rsvg-convert at its
  /// default resolution gives the PNG's size.
  func testTheSVGIsThePNGsSizeInPixels() throws {
    let svg = tmp.appendingPathComponent("s.svg").path, png = tmp.appendingPathComponent("s.png").path
    try render(["examples/chart.lua", "-o", svg])
    try render(["examples/chart.lua", "-o", png])
    let text = try String(contentsOfFile: svg, encoding: .utf8)
    XCTAssertTrue(text.contains("width=\"720px\" height=\"640px\""), String(text.prefix(300)))
    let rendered = tmp.appendingPathComponent("s-rsvg.png").path
    XCTAssertEqual(try tool("rsvg-convert", ["-o", rendered, svg]).status, 0)
    let a = try decode(png), b = try decode(rendered)
    XCTAssertEqual([a.width, a.height], [b.width, b.height])
  }

  // MARK: PNG

  func testEveryPNGPassesPngcheck() throws {
    let names = try examples()
    // Scale 2 also makes most examples big enough to be compressed in two stripes.
    let scales = ["1", "2"]
    renderAll(names.flatMap { name in scales.map { ["examples/" + name, "--scale", $0, "-o", tmp.appendingPathComponent("\(name)-\($0).png").path] } })
    for name in names {
      for scale in scales {
        let png = tmp.appendingPathComponent("\(name)-\(scale).png").path
        let r = try tool("pngcheck", ["-q", png])
        XCTAssertEqual(r.status, 0, "\(name) at scale \(scale): pngcheck: \(r.stdout) \(r.stderr)")
      }
    }
  }

  /// A still and frame 0 of a PNG sequence of the same scene: decoded, the same pixels.
  func assertStillEqualsSequenceFrame(width: Int, height: Int, scale: String, background: String = "#FFFFFF",
                                      file: StaticString = #filePath, line: UInt = #line) throws {
    let script = tmp.appendingPathComponent("s-\(width)x\(height).lua")
    try """
      local sets = cs.data.sample()
      local items = { spacing = 0 }
      for i = 1, 5 do
        sets[i]:setRange(0.6, 1)
        items[#items + 1] = cs.hstack { spacing = 8,
          cs.chart { data = sets[i], title = "Set " .. i },
          cs.carousel { itemWidth = \(width / 3), angle = 30, scroll = \(width / 6), cs.card { data = sets[(i % 5) + 1] }, cs.card { data = sets[((i + 1) % 5) + 1] } } }
      end
      return cs.scene { width = \(width), height = \(height), background = "\(background)", fps = 10, duration = 1, root = cs.vstack(items) }
      """.write(to: script, atomically: true, encoding: .utf8)
    let still = tmp.appendingPathComponent("still.png").path
    renderAll([[script.path, "--scale", scale, "-o", still],
               [script.path, "--scale", scale, "--frames", "0-0", "-o", tmp.appendingPathComponent("seq-%02d.png").path]], file: file, line: line)
    for p in [still, tmp.appendingPathComponent("seq-00.png").path] {
      let r = try tool("pngcheck", ["-q", p])
      XCTAssertEqual(r.status, 0, "pngcheck \(p): \(r.stdout)", file: file, line: line)
    }
    let a = try decode(still), b = try decode(tmp.appendingPathComponent("seq-00.png").path)
    XCTAssertEqual([a.width, a.height], [b.width, b.height], file: file, line: line)
    let n = differing(a, b, over: 0)
    XCTAssertEqual(n, 0, "\(width)x\(height) at scale \(scale): \(n) pixels of the still differ from frame 0 of the sequence", file: file, line: line)
  }

  /// An APNG (written by chartscene: changed rectangles, blended over or not) holds the very
  /// pixels of the PNG sequence, frame by frame, as ffmpeg decodes both: an opaque scene, and
  /// a transparent one with half-transparent changes and frames that change nothing.
  func testAnAPNGHoldsThePixelsOfThePNGSequence() throws {
    let clear = tmp.appendingPathComponent("clear.lua")
    try """
      return cs.scene{ width = 160, height = 120, fps = 30, duration = 1, background = "#00000000",
        root = cs.canvas{ draw = function(g, w, h, t)
          local s = math.min(t, 0.5)
          g:color("#FF000080"):rect(10 + 100 * s, 20, 40, 40):fill()
          g:color("#0000FF"):rect(60, 60 + 30 * math.min(t, 0.7), 20, 20):fill()
        end } }
      """.write(to: clear, atomically: true, encoding: .utf8)
    for (script, frames) in [("examples/cards.lua", "30-41"), (clear.path, "0-29")] {
      let name = URL(fileURLWithPath: script).deletingPathExtension().lastPathComponent
      let apng = tmp.appendingPathComponent(name + ".apng").path
      try render([script, "--frames", frames, "-o", apng])
      try render([script, "--frames", frames, "-o", tmp.appendingPathComponent(name + "-%03d.png").path])
      let bounds = frames.split(separator: "-").map { Int($0)! }
      let pngs = (bounds[0]...bounds[1]).map { tmp.appendingPathComponent(String(format: "\(name)-%03d.png", $0)).path }
      try decodeAll(pngs)
      let expected = try pngs.flatMap { try decode($0).rgba }
      let raw = apng + ".rgba"
      let r = try tool("ffmpeg", ["-v", "error", "-y", "-i", apng, "-f", "rawvideo", "-pix_fmt", "rgba", raw])
      XCTAssertEqual(r.status, 0, "ffmpeg cannot decode \(name).apng: \(r.stderr)")
      let got = [UInt8](try Data(contentsOf: URL(fileURLWithPath: raw)))
      XCTAssertEqual(got.count, expected.count, "\(name).apng: \(got.count / 4) pixels, the sequence \(expected.count / 4)")
      XCTAssertTrue(got == expected, "\(name).apng: not the pixels of the PNG sequence")
    }
  }

  func testAStillIsTheSameFrameAsASequenceAtEverySize() throws {
    try assertStillEqualsSequenceFrame(width: 1080, height: 3200, scale: "1")  // W1's size: two stripes
    try assertStillEqualsSequenceFrame(width: 1001, height: 799, scale: "1.37")  // odd, fractional scale
    try assertStillEqualsSequenceFrame(width: 333, height: 1251, scale: "2", background: "#00000000")  // odd, transparent
    try assertStillEqualsSequenceFrame(width: 320, height: 240, scale: "1")  // one stripe
  }

  func testCarouselAtScale2IsTheSameStillAsItsFirstFrame() throws {
    try render(["examples/carousel.lua", "--scale", "2", "-o", tmp.appendingPathComponent("still.png").path])
    try render(["examples/carousel.lua", "--scale", "2", "--frames", "0-0", "-o", tmp.appendingPathComponent("f-%03d.png").path])
    let a = try decode(tmp.appendingPathComponent("still.png").path), b = try decode(tmp.appendingPathComponent("f-000.png").path)
    XCTAssertEqual([a.width, a.height], [2000, 1120])
    XCTAssertEqual(differing(a, b, over: 0), 0)
  }

  // MARK: Video

  /// Frame timestamps of the first video stream and the container's duration (seconds).
  func timestamps(_ path: String) throws -> ([Double], Double?) {
    let r = try tool("ffprobe", ["-v", "error", "-select_streams", "v:0", "-show_entries", "frame=best_effort_timestamp_time:format=duration",
                                 "-of", "default=noprint_wrappers=1", path])
    XCTAssertEqual(r.status, 0, r.stderr)
    var times: [Double] = [], duration: Double?
    for row in r.stdout.split(whereSeparator: \.isNewline) {
      let kv = row.split(separator: "=", maxSplits: 1).map(String.init)
      guard kv.count == 2 else { continue }
      if kv[0] == "best_effort_timestamp_time", let t = Double(kv[1]) { times.append(t) }
      if kv[0] == "duration" { duration = Double(kv[1]) }
    }
    return (times, duration)
  }

  /// Frames and their durations (ms) of an animated WebP, by webpmux.
  func webpFrames(_ path: String) throws -> [Int] {
    let r = try tool("webpmux", ["-info", path])
    XCTAssertEqual(r.status, 0, r.stderr)
    // "  1:  1000   560    no  0     0      33  ..." — the 7th column is the duration.
    var durations: [Int] = []
    var inTable = false
    for row in r.stdout.split(whereSeparator: \.isNewline) {
      if row.contains("duration") { inTable = true; continue }
      let cols = row.split(separator: " ")
      if inTable, cols.count >= 7, cols[0].hasSuffix(":"), let d = Int(cols[6]) { durations.append(d) }
    }
    return durations
  }

  func testEveryVideoHasItsFrameCountAndDuration() throws {
    let first = 30, last = 34, n = last - first + 1, fps = 30.0
    var animated = 0
    let formats = ["gif", "webp", "apng", "mp4", "webm"]
    let names = try examples()
    // The same frames as PNGs first (every one must pass pngcheck); a still scene has only
    // frame 0 and is skipped.
    let sequences = try CLI.batch(names.map { ["examples/" + $0, "--fps", "30", "--frames", "\(first)-\(last)", "-o", tmp.appendingPathComponent("\($0)-%03d.png").path] }, in: tmp)
    var videos: [String] = []
    for (name, error) in zip(names, sequences.errors) {
      if let error, error.contains("the scene has frames 0-0 ") { continue }
      XCTAssertNil(error, name)
      videos.append(name)
    }
    renderAll(videos.flatMap { name in
      formats.map { ["examples/" + name, "--fps", "30", "--frames", "\(first)-\(last)", "-o", tmp.appendingPathComponent("\(name).\($0)").path] }
    })
    for name in videos {
      animated += 1
      let frames = (first...last).map { tmp.appendingPathComponent(String(format: "\(name)-%03d.png", $0)).path }
      let check = try tool("pngcheck", ["-q"] + frames)
      XCTAssertEqual(check.status, 0, "\(name): pngcheck: \(check.stdout)")
      let still = Set(try frames.map { try Data(contentsOf: URL(fileURLWithPath: $0)) }).count == 1
      for ext in formats {
        let out = tmp.appendingPathComponent("\(name).\(ext)").path
        let what = "\(name).\(ext) (frames \(first)-\(last) at \(fps) fps)"
        if ext == "webp" {
          // libwebp merges a frame into the one before when they look alike (lossy), adding
          // up their durations: every WebP frame lasts a whole number of source frames
          // (each 1000 / fps ms, rounded to whole ms), and they add up to all n of them.
          // When every frame is the same picture, libwebp writes a still WebP (no ANIM).
          let frames = try webpFrames(out)
          if still, frames.isEmpty { continue }
          XCTAssertTrue((1...n).contains(frames.count), "\(what): webpmux frames \(frames)")
          var covered = 0
          for d in frames {
            let k = (Double(d) * fps / 1000).rounded()
            XCTAssertGreaterThanOrEqual(k, 1, "\(what): a frame of \(d) ms")
            XCTAssertEqual(Double(d), k * 1000 / fps, accuracy: k, "\(what): a frame of \(d) ms is not a whole number of frames")
            covered += Int(k)
          }
          XCTAssertEqual(covered, n, "\(what): the frames last \(frames) ms")
          continue
        }
        let (times, total) = try timestamps(out)
        XCTAssertEqual(times.count, n, "\(what): ffprobe counts \(times.count) frames")
        // GIF delays are whole centiseconds: every frame within 10 ms of k / fps.
        for (k, t) in times.enumerated() {
          XCTAssertEqual(t, Double(k) / fps, accuracy: 0.0101, "\(what): frame \(k) at \(t) s")
        }
        // The container's duration where it has one (MP4, WebM, GIF; not APNG).
        if ext != "apng" {
          XCTAssertEqual(total ?? -1, Double(n) / fps, accuracy: 0.011, "\(what): duration \(total.map { "\($0) s" } ?? "missing")")
        }
      }
    }
    XCTAssertGreaterThanOrEqual(animated, 3, "the animated examples were not recognised")
  }
}
