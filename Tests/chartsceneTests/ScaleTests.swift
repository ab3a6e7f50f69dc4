import Foundation
import XCTest

/// `--arg`, `batch`, `--shard` and `concat` (docs/scale.md), run as a user would.
final class ScaleTests: TempFolderCase {

  func write(_ name: String, _ text: String) throws -> String {
    let u = tmp.appendingPathComponent(name)
    try text.write(to: u, atomically: true, encoding: .utf8)
    return u.path
  }

  /// Runs a program (not chartscene) to its end: status, stdout, stderr.
  @discardableResult
  static func tool(_ path: String, _ args: [String], cwd: URL? = nil, env: [String: String] = [:], timeout: Double = 120) throws -> CLI.Result {
    let p = Process()
    p.executableURL = URL(fileURLWithPath: path)
    p.arguments = args
    if let cwd { p.currentDirectoryURL = cwd }
    p.environment = ProcessInfo.processInfo.environment.merging(env) { $1 }
    let out = Pipe(), err = Pipe()
    p.standardOutput = out
    p.standardError = err
    p.standardInput = FileHandle.nullDevice
    try p.run()
    nonisolated(unsafe) var o = Data(), e = Data()
    let g = DispatchGroup()
    g.enter(); DispatchQueue.global().async { o = out.fileHandleForReading.readDataToEndOfFile(); g.leave() }
    g.enter(); DispatchQueue.global().async { e = err.fileHandleForReading.readDataToEndOfFile(); g.leave() }
    if g.wait(timeout: .now() + timeout) == .timedOut {
      p.terminate()
      throw XCTSkip("\(path) did not finish within \(Int(timeout)) s")
    }
    p.waitUntilExit()
    return CLI.Result(status: p.terminationStatus, stdout: String(decoding: o, as: UTF8.self), stderr: String(decoding: e, as: UTF8.self), seconds: 0)
  }

  /// `ffmpeg -f framemd5` of a video: one line per decoded frame (timestamps and pixels).
  func framemd5(_ path: String) throws -> [String] {
    let r = try Self.tool("/usr/bin/ffmpeg", ["-v", "error", "-i", path, "-map", "0:v", "-f", "framemd5", "-"])
    XCTAssertEqual(r.status, 0, r.stderr)
    return r.stdout.split(separator: "\n").filter { !$0.hasPrefix("#") }.map(String.init)
  }

  /// Frame count and duration as ffprobe reads them.
  func probe(_ path: String) throws -> String {
    try Self.tool("/usr/bin/ffprobe", ["-v", "error", "-count_frames", "-show_entries", "stream=nb_read_frames,duration,r_frame_rate:format=duration", "-of", "csv=p=0", path]).stdout
  }

  /// An animated scene of `seconds` at 10 fps (a keyframe every 10 frames), small and quick.
  func animatedScript(seconds: Double = 8) throws -> String {
    try write("story.lua", """
      local s = cs.data.sample()[tonumber(cs.args.set or "1")]
      s:setRange(0, 0.3)
      return cs.scene { width = 200, height = 150, fps = 10, duration = \(seconds),
        root = cs.chart { id = "c", data = s, title = cs.args.title },
        update = function(t) s:setRange(t / 12, t / 12 + 0.3, false) end }
      """)
  }

  // MARK: - --arg

  func testArgsReachTheScript() throws {
    let script = try write("a.lua", """
      local n = 0
      for _ in pairs(cs.args) do n = n + 1 end
      return cs.scene { width = 100, height = 80, root = cs.text { id = "t", text = (cs.args.title or "none") .. "|" .. n .. "|" .. type(cs.args.n) } }
      """)
    var r = try CLI.run([script, "--arg", "title=a=b c", "--arg", "n=42", "--inspect"])
    XCTAssertEqual(r.status, 0, r.stderr)
    XCTAssertTrue(r.stdout.contains("a=b c|2|string"), r.stdout)
    r = try CLI.run([script, "--inspect"])
    XCTAssertTrue(r.stdout.contains("none|0|nil"), r.stdout)
    r = try CLI.run([script, "--arg", "title=", "--inspect"])
    XCTAssertTrue(r.stdout.contains("|1|nil"), r.stdout)
    for (bad, message) in [("1x=2", "error: bad --arg '1x=2' (expected KEY=VALUE, KEY a name of letters, digits and _, not starting with a digit)\n"),
                           ("noeq", "error: bad --arg 'noeq' (expected KEY=VALUE, KEY a name of letters, digits and _, not starting with a digit)\n")] {
      r = try CLI.run([script, "--arg", bad])
      XCTAssertEqual(r.status, 64)
      XCTAssertEqual(r.stderr, message)
    }
    r = try CLI.run([script, "--arg", "t=1", "--arg", "t=2"])
    XCTAssertEqual(r.status, 64)
    XCTAssertEqual(r.stderr, "error: --arg t is given twice\n")
  }

  // MARK: - batch

  func testBatchRendersEveryJobAndReportsEachFailure() throws {
    _ = try write("v.lua", """
      local s = cs.data.sample()[tonumber(cs.args.set)]
      return cs.scene { width = 160, height = 120, root = cs.chart { data = s, title = cs.args.title or "T" } }
      """)
    try FileManager.default.createDirectory(at: tmp.appendingPathComponent("out"), withIntermediateDirectories: true)
    let jobs = try write("jobs.txt", """
      # variants
      v.lua --arg set=1 --arg title="First one" -o out/a.png
      v.lua --arg set=2 -o out/b.png

      v.lua --arg set=9 -o out/c.png
      v.lua --arg set=3 --bogus -o out/d.png
      v.lua --arg set=4 -o 'out/e f.png'
      v.lua --arg set=4 -o out/a.png
      v.lua --arg set=5 "-o out/g.png
      v.lua --arg set=5 --size 100x90 -o out/h.png
      v.lua --arg set=5
      """)
    let r = try CLI.run(["batch", jobs], cwd: tmp)
    XCTAssertEqual(r.status, 1)
    let errors = r.stderr.split(separator: "\n").map(String.init).sorted()
    XCTAssertEqual(errors, [
      "error: \(jobs):11: a batch job needs -o OUT",
      "error: \(jobs):5: v.lua:2: missing field 'data' in cs.chart (a ChartSet from cs.data.*)",
      "error: \(jobs):6: Unknown option '--bogus'",
      "error: \(jobs):8: -o 'out/a.png' is also the output of line 2",
      "error: \(jobs):9: unterminated \" quote",
    ].sorted(), r.stderr)
    let out = try FileManager.default.contentsOfDirectory(atPath: tmp.appendingPathComponent("out").path).sorted()
    XCTAssertEqual(out, ["a.png", "b.png", "e f.png", "h.png"])
    // The same picture as a render of its own.
    XCTAssertEqual(try CLI.run([tmp.appendingPathComponent("v.lua").path, "--arg", "set=2", "-o", tmp.appendingPathComponent("b1.png").path]).status, 0)
    XCTAssertEqual(try Data(contentsOf: tmp.appendingPathComponent("out/b.png")), try Data(contentsOf: tmp.appendingPathComponent("b1.png")))

    // Shards split the nine job lines (not the comments) into balanced parts: lines 2, 3, 5;
    // 6, 7, 8; 9, 10, 11 (line 8 writes out/a.png again: line 2 is another shard's).
    var seen: [String] = []
    for i in 1...3 {
      try? FileManager.default.removeItem(at: tmp.appendingPathComponent("out"))
      try FileManager.default.createDirectory(at: tmp.appendingPathComponent("out"), withIntermediateDirectories: true)
      let s = try CLI.run(["batch", jobs, "--shard", "\(i)/3", "--threads", "1"], cwd: tmp)
      seen += try FileManager.default.contentsOfDirectory(atPath: tmp.appendingPathComponent("out").path).map { "\(i): " + $0 }
      seen += s.stderr.split(separator: "\n").map { "\(i): line " + $0.split(separator: ":")[2] }
    }
    XCTAssertEqual(seen.sorted(), ["1: a.png", "1: b.png", "1: line 5", "2: line 6", "2: e f.png", "2: a.png", "3: line 9", "3: h.png", "3: line 11"].sorted())
    // An all-good batch exits 0 and prints nothing.
    let good = try write("good.txt", "v.lua --arg set=1 -o g1.png\nv.lua --arg set=2 -o g2.png\n")
    let ok = try CLI.run(["batch", good], cwd: tmp)
    XCTAssertEqual(ok.status, 0, ok.stderr)
    XCTAssertEqual(ok.stderr, "")
    XCTAssertEqual(try CLI.run(["batch", "nothere.txt"], cwd: tmp).stderr, "error: cannot read 'nothere.txt': no such file\n")
    XCTAssertEqual(try CLI.run(["batch", good, "--shard", "4/3"], cwd: tmp).status, 64)
  }

  // MARK: - shards

  /// Shards joined with concat decode to the frames of a one-process render, for N = 1, 2, 3, 7.
  func testShardsJoinToTheOneProcessFrames() throws {
    let script = try animatedScript()
    let one = tmp.appendingPathComponent("one.mp4").path
    XCTAssertEqual(try CLI.run([script, "-o", one]).status, 0)
    let want = try framemd5(one)
    XCTAssertEqual(want.count, 80)
    let wantProbe = try probe(one)
    for n in [1, 2, 3, 7] {
      var segments: [String] = []
      for i in 1...n {
        let seg = tmp.appendingPathComponent("seg-\(n)-\(i).mp4").path
        let r = try CLI.run([script, "--shard", "\(i)/\(n)", "-o", seg])
        XCTAssertEqual(r.status, 0, r.stderr)
        segments.append(seg)
      }
      let joined = tmp.appendingPathComponent("joined-\(n).mp4").path
      let r = try CLI.run(["concat", joined] + segments)
      XCTAssertEqual(r.status, 0, r.stderr)
      XCTAssertEqual(try framemd5(joined), want, "N = \(n)")
      XCTAssertEqual(try probe(joined), wantProbe, "N = \(n)")
    }
    // Past the number of keyframe intervals a shard is empty: refused.
    let r = try CLI.run([script, "--shard", "1/9", "-o", tmp.appendingPathComponent("x.mp4").path])
    XCTAssertEqual(r.status, 1)
    XCTAssertEqual(r.stderr, "error: --shard 1/9 has no frames: the scene has 80 frames, cut at keyframes every 10 frames: 8 parts at most\n")
    XCTAssertFalse(FileManager.default.fileExists(atPath: tmp.appendingPathComponent("x.mp4").path))
  }

  func testShardsOfAPNGSequenceFillTheSequence() throws {
    let script = try animatedScript(seconds: 2)
    let all = tmp.appendingPathComponent("all"), parts = tmp.appendingPathComponent("parts")
    for d in [all, parts] { try FileManager.default.createDirectory(at: d, withIntermediateDirectories: true) }
    XCTAssertEqual(try CLI.run([script, "-o", all.path + "/f-%04d.png"]).status, 0)
    var counts: [Int] = []
    for i in 1...3 {
      let before = try FileManager.default.contentsOfDirectory(atPath: parts.path).count
      XCTAssertEqual(try CLI.run([script, "--shard", "\(i)/3", "-o", parts.path + "/f-%04d.png"]).status, 0)
      counts.append(try FileManager.default.contentsOfDirectory(atPath: parts.path).count - before)
    }
    XCTAssertEqual(counts, [6, 7, 7])
    let names = try FileManager.default.contentsOfDirectory(atPath: all.path).sorted()
    XCTAssertEqual(names.count, 20)
    XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: parts.path).sorted(), names)
    for n in names {
      XCTAssertEqual(try Data(contentsOf: all.appendingPathComponent(n)), try Data(contentsOf: parts.appendingPathComponent(n)), n)
    }
  }

  func testShardAndConcatErrors() throws {
    let script = try animatedScript(seconds: 1)
    let cases: [([String], Int32, String)] = [
      ([script, "--shard", "0/3", "-o", "x.mp4"], 64, "error: bad --shard '0/3' (expected I/N with 1 ≤ I ≤ N, e.g. 2/7)\n"),
      ([script, "--shard", "2/1", "-o", "x.mp4"], 64, "error: bad --shard '2/1' (expected I/N with 1 ≤ I ≤ N, e.g. 2/7)\n"),
      ([script, "--shard", "1/2", "--frames", "0-3", "-o", "x.mp4"], 64, "error: --shard picks the frames itself: it cannot be used with --frames or --at\n"),
      ([script, "--shard", "1/2", "-o", tmp.appendingPathComponent("x.gif").path], 64, "error: --shard needs an .mp4 or a PNG sequence like NAME-%04d.png, not '\(tmp.appendingPathComponent("x.gif").path)'\n"),
      ([script, "--shard", "1/2", "-o", tmp.appendingPathComponent("x.png").path], 64, "error: --shard needs an animated output (.mp4 or NAME-%04d.png), not '\(tmp.appendingPathComponent("x.png").path)'\n"),
      (["concat", tmp.appendingPathComponent("j.mp4").path, "nothere.mp4"], 1, "error: cannot read 'nothere.mp4': no such file\n"),
      (["concat", tmp.appendingPathComponent("j.gif").path, script], 1, "error: cannot write '\(tmp.appendingPathComponent("j.gif").path)': concat joins MP4 segments into an .mp4\n"),
      (["concat", tmp.appendingPathComponent("j.mp4").path], 64, "error: 'concat' needs the segments to join after OUT\n"),
    ]
    for (args, status, stderr) in cases {
      let r = try CLI.run(args)
      XCTAssertEqual(r.status, status, args.joined(separator: " "))
      XCTAssertEqual(r.stderr, stderr)
    }
    // A segment that is not a video: ffmpeg's message, and no output.
    let fake = try write("fake.mp4", "not a video")
    let r = try CLI.run(["concat", tmp.appendingPathComponent("j.mp4").path, fake])
    XCTAssertEqual(r.status, 1)
    XCTAssertTrue(r.stderr.hasPrefix("error: ffmpeg failed joining '\(tmp.appendingPathComponent("j.mp4").path)'"), r.stderr)
    XCTAssertEqual(r.stderr.split(separator: "\n").count, 1)
    XCTAssertFalse(FileManager.default.fileExists(atPath: tmp.appendingPathComponent("j.mp4").path))
  }
}
