import Foundation
import XCTest

/// `--arg`, `batch`, `--shard` and `concat` (docs/scale.md), run as a user would.
final class ScaleTests: TempFolderCase {

  func write(_ name: String, _ text: String) throws -> String {
    let u = tmp.appendingPathComponent(name)
    try text.write(to: u, atomically: true, encoding: .utf8)
    return u.path
  }

  struct TimedOut: Error, CustomStringConvertible { var description: String }

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
      // A hang is a failure, not a skip.
      throw TimedOut(description: "\(path) \(args.joined(separator: " ")) did not finish within \(Int(timeout)) s")
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
    // An endless loop is stopped in its job with the usual line (batch jobs run on
    // libdispatch's threads, which block the signal that stops Lua at a deadline unless the
    // limits let it through), and the other job goes on.
    _ = try write("loop.lua", "local n = 0\nwhile true do n = n + 1 end")
    let loops = try write("loops.txt", "loop.lua --max-time 0.2 -o l1.png\nv.lua --arg set=1 -o l2.png\n")
    let looped = try CLI.run(["batch", loops], cwd: tmp)
    XCTAssertEqual(looped.status, 1)
    XCTAssertEqual(looped.stderr, "error: \(loops):1: loop.lua:2: script ran for too long (over 0.2 s; --max-time)\n")
    XCTAssertTrue(FileManager.default.fileExists(atPath: tmp.appendingPathComponent("l2.png").path))
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
    // The one-process render and every shard of every N are independent: two at a time.
    let counts = [1, 2, 3, 7]
    func seg(_ n: Int, _ i: Int) -> String { tmp.appendingPathComponent("seg-\(n)-\(i).mp4").path }
    let shards = counts.flatMap { n in (1...n).map { (n, $0) } }
    let renders = CLI.runAll([[script, "-o", one]] + shards.map { n, i in [script, "--shard", "\(i)/\(n)", "-o", seg(n, i)] })
    XCTAssertEqual(renders[0].status, 0)
    let want = try framemd5(one)
    XCTAssertEqual(want.count, 80)
    let wantProbe = try probe(one)
    for n in counts {
      var segments: [String] = []
      for i in 1...n {
        let r = renders[1 + shards.firstIndex { $0 == (n, i) }!]
        XCTAssertEqual(r.status, 0, r.stderr)
        segments.append(seg(n, i))
      }
      let joined = tmp.appendingPathComponent("joined-\(n).mp4").path
      let r = try CLI.run(["concat", joined] + segments)
      XCTAssertEqual(r.status, 0, r.stderr)
      XCTAssertEqual(try framemd5(joined), want, "N = \(n)")
      XCTAssertEqual(try probe(joined), wantProbe, "N = \(n)")
    }
  }

  /// More shards than keyframe intervals: the shards without frames write an empty marker
  /// segment (an MP4 of no stream, only its metadata), and the full set joins into the
  /// frames of a one-process render. A PNG sequence's empty shard writes nothing.
  func testEmptyShardsJoinToTheOneProcessFrames() throws {
    let script = try animatedScript(seconds: 3)
    let one = tmp.appendingPathComponent("one.mp4").path
    XCTAssertEqual(try CLI.run([script, "-o", one]).status, 0)
    let want = try framemd5(one)
    XCTAssertEqual(want.count, 30)
    // Every shard of both counts rendered first, two at a time.
    let shards = [5, 9].flatMap { n in (1...n).map { (n, $0) } }
    let renders = CLI.runAll(shards.map { n, i in [script, "--shard", "\(i)/\(n)", "-o", tmp.appendingPathComponent("seg-\(n)-\(i).mp4").path] })
    for n in [5, 9] {
      var segments: [String] = []
      var empty = 0
      for i in 1...n {
        let seg = tmp.appendingPathComponent("seg-\(n)-\(i).mp4").path
        let r = renders[shards.firstIndex { $0 == (n, i) }!]
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(r.stderr, "")
        let tags = try Self.tool("/usr/bin/ffprobe", ["-v", "error", "-show_entries", "format_tags", "-of", "default=nw=1", seg]).stdout
        XCTAssertTrue(tags.contains("TAG:chartscene_shard=\(i)/\(n)\n"), tags)
        if tags.contains("TAG:chartscene_frames=none\n") { empty += 1 }
        segments.append(seg)
      }
      XCTAssertEqual(empty, n - 3, "N = \(n)")
      let joined = tmp.appendingPathComponent("joined-\(n).mp4").path
      let r = try CLI.run(["concat", joined] + segments)
      XCTAssertEqual(r.status, 0, r.stderr)
      XCTAssertEqual(try framemd5(joined), want, "N = \(n)")
      // An empty shard still counts: the set without it is refused.
      let missing = try CLI.run(["concat", tmp.appendingPathComponent("m.mp4").path] + segments.dropFirst())
      XCTAssertEqual(missing.status, 1)
      XCTAssertEqual(missing.stderr, "error: shard 1/\(n) is missing (\(n - 1) of \(n) segments given)\n")
    }
    // A PNG sequence of 3 frames in 5 shards: two write nothing, and say nothing.
    let short = try write("short.lua", "return cs.scene { width = 60, height = 40, fps = 10, duration = 0.3, root = cs.text { text = 'x' } }")
    let frames = tmp.appendingPathComponent("frames")
    try FileManager.default.createDirectory(at: frames, withIntermediateDirectories: true)
    var counts: [Int] = []
    for i in 1...5 {
      let before = try FileManager.default.contentsOfDirectory(atPath: frames.path).count
      let r = try CLI.run([short, "--shard", "\(i)/5", "-o", frames.path + "/f-%04d.png"])
      XCTAssertEqual(r.status, 0, r.stderr)
      XCTAssertEqual(r.stderr, "")
      counts.append(try FileManager.default.contentsOfDirectory(atPath: frames.path).count - before)
    }
    XCTAssertEqual(counts, [0, 1, 0, 1, 1])
    // A still is still no place for --shard.
    let still = try CLI.run([short, "--shard", "1/2", "-o", tmp.appendingPathComponent("s.png").path])
    XCTAssertEqual(still.status, 64)
    XCTAssertEqual(still.stderr, "error: --shard needs an animated output (.mp4 or NAME-%04d.png), not '\(tmp.appendingPathComponent("s.png").path)'\n")
  }

  /// Each MP4 segment carries its shard, its frames and the hash of its render; concat reads
  /// them back and refuses any set but one whole render's shards in order, with one line
  /// naming the culprit, and writes nothing then.
  func testConcatRefusesAWrongSet() throws {
    let script = try animatedScript(seconds: 4)
    func seg(_ name: String, _ shard: String, _ extra: [String] = []) throws -> String {
      let path = tmp.appendingPathComponent(name).path
      let r = try CLI.run([script, "--shard", shard, "-o", path] + extra)
      XCTAssertEqual(r.status, 0, r.stderr)
      return path
    }
    let out = tmp.appendingPathComponent("out.mp4").path
    let plain = tmp.appendingPathComponent("plain.mp4").path
    // The segments and the plain render, two at a time.
    let segs: [(String, String, [String])] = (1...4).map { ("s\($0).mp4", "\($0)/4", []) } + [
      ("three.mp4", "2/3", []), ("wider.mp4", "2/4", ["--size", "220x150"]), ("titled.mp4", "3/4", ["--arg", "title=Other"]),
      ("scaled.mp4", "3/4", ["--scale", "2"]), ("night.mp4", "4/4", ["--theme", "night"]),
    ]
    let renders = CLI.runAll(segs.map { name, shard, extra in [script, "--shard", shard, "-o", tmp.appendingPathComponent(name).path] + extra } + [[script, "-o", plain]])
    for r in renders.dropLast() { XCTAssertEqual(r.status, 0, r.stderr) }
    XCTAssertEqual(renders.last!.status, 0)
    let paths = segs.map { tmp.appendingPathComponent($0.0).path }
    let s = Array(paths[0..<4])
    let (three, wider, titled, scaled, night) = (paths[4], paths[5], paths[6], paths[7], paths[8])
    let cases: [([String], String)] = [
      ([s[0], s[1], s[3]], "error: shard 3/4 is missing (3 of 4 segments given)"),
      ([s[1], s[2], s[3]], "error: shard 1/4 is missing (3 of 4 segments given)"),
      ([s[0], s[2], s[1], s[3]], "error: cannot join '\(s[1])': shard 2/4 comes after shard 3/4 ('\(s[2])'): give the segments in order, 1/4 first"),
      ([s[0], s[1], s[1], s[2], s[3]], "error: cannot join '\(s[1])': shard 2/4 is given twice (also '\(s[1])')"),
      ([s[0], three, s[2], s[3]], "error: cannot join '\(three)': it is shard 2/3, of 3 shards, but '\(s[0])' is shard 1/4 (mixed counts)"),
      ([s[0], wider, s[2], s[3]], "error: cannot join '\(wider)': it is from another render than '\(s[0])' (the scene, its files or the options differ)"),
      ([s[0], s[1], titled, s[3]], "error: cannot join '\(titled)': it is from another render than '\(s[0])' (the scene, its files or the options differ)"),
      ([s[0], s[1], scaled, s[3]], "error: cannot join '\(scaled)': it is from another render than '\(s[0])' (the scene, its files or the options differ)"),
      ([s[0], s[1], s[2], night], "error: cannot join '\(night)': it is from another render than '\(s[0])' (the scene, its files or the options differ)"),
      ([plain], "error: cannot join '\(plain)': it has no shard metadata (it was not written by chartscene --shard I/N)"),
      ([s[0], s[1], s[2], s[3], plain], "error: cannot join '\(plain)': it has no shard metadata (it was not written by chartscene --shard I/N)"),
    ]
    for (set, message) in cases {
      let r = try CLI.run(["concat", out] + set)
      XCTAssertEqual(r.status, 1, message)
      XCTAssertEqual(r.stderr, message + "\n")
      XCTAssertFalse(FileManager.default.fileExists(atPath: out), message)
    }
    // Another script (the same options) is another render too.
    _ = try write("story.lua", try String(contentsOfFile: script, encoding: .utf8) + "-- changed\n")
    let changed = try seg("changed.mp4", "4/4")
    var r = try CLI.run(["concat", out, s[0], s[1], s[2], changed])
    XCTAssertEqual(r.stderr, "error: cannot join '\(changed)': it is from another render than '\(s[0])' (the scene, its files or the options differ)\n")
    // Names the list of segments would misread: a newline is refused; quotes, backslashes
    // and spaces are written so that ffmpeg reads them back.
    let odd = tmp.appendingPathComponent("it's a \\ seg.mp4").path
    try FileManager.default.copyItem(atPath: s[1], toPath: odd)
    r = try CLI.run(["concat", out, s[0], odd, s[2], s[3]])
    XCTAssertEqual(r.status, 0, r.stderr)
    XCTAssertEqual(try framemd5(out), try framemd5(plain))
    let newline = tmp.appendingPathComponent("two\nlines.mp4").path
    try FileManager.default.copyItem(atPath: s[1], toPath: newline)
    let other = tmp.appendingPathComponent("other.mp4").path
    r = try CLI.run(["concat", other, s[0], newline, s[2], s[3]])
    XCTAssertEqual(r.status, 1)
    XCTAssertEqual(r.stderr, "error: cannot join '\(tmp.path)/two\\nlines.mp4': its name holds a control character (a line break or a tab), which a list of segments cannot hold: rename it\n")
    XCTAssertFalse(FileManager.default.fileExists(atPath: other))
  }

  /// `--shard auto` and `auto/N`: the index from a Slurm job array or a Kubernetes Indexed
  /// Job, for renders and batches.
  func testShardAutoReadsTheJobArray() throws {
    let script = try animatedScript(seconds: 4)
    func shardOf(_ env: [String: String], _ shard: String = "auto") throws -> (CLI.Result, String) {
      let path = tmp.appendingPathComponent("auto.mp4").path
      try? FileManager.default.removeItem(atPath: path)
      let r = try CLI.run([script, "--shard", shard, "-o", path], env: env)
      guard r.status == 0 else { return (r, "") }
      let tags = try Self.tool("/usr/bin/ffprobe", ["-v", "error", "-show_entries", "format_tags=chartscene_shard", "-of", "default=nw=1:nk=1", path]).stdout
      return (r, tags.trimmingCharacters(in: .whitespacesAndNewlines))
    }
    let none = ["SLURM_ARRAY_TASK_ID": "", "SLURM_ARRAY_TASK_MIN": "", "SLURM_ARRAY_TASK_COUNT": "", "SLURM_ARRAY_TASK_STEP": "", "JOB_COMPLETION_INDEX": ""]
    func env(_ e: [String: String]) -> [String: String] { none.merging(e) { $1 } }
    // Slurm arrays numbered from 1 and from 0, and with a step.
    XCTAssertEqual(try shardOf(env(["SLURM_ARRAY_TASK_ID": "3", "SLURM_ARRAY_TASK_MIN": "1", "SLURM_ARRAY_TASK_COUNT": "4"])).1, "3/4")
    XCTAssertEqual(try shardOf(env(["SLURM_ARRAY_TASK_ID": "0", "SLURM_ARRAY_TASK_MIN": "0", "SLURM_ARRAY_TASK_COUNT": "4"])).1, "1/4")
    XCTAssertEqual(try shardOf(env(["SLURM_ARRAY_TASK_ID": "3", "SLURM_ARRAY_TASK_MIN": "0", "SLURM_ARRAY_TASK_COUNT": "4"])).1, "4/4")
    XCTAssertEqual(try shardOf(env(["SLURM_ARRAY_TASK_ID": "20", "SLURM_ARRAY_TASK_MIN": "10", "SLURM_ARRAY_TASK_STEP": "5", "SLURM_ARRAY_TASK_COUNT": "4"])).1, "3/4")
    XCTAssertEqual(try shardOf(env(["SLURM_ARRAY_TASK_ID": "2"]), "auto/6").1, "2/6")
    // Kubernetes: 0-based, the count from auto/N.
    XCTAssertEqual(try shardOf(env(["JOB_COMPLETION_INDEX": "0"]), "auto/4").1, "1/4")
    XCTAssertEqual(try shardOf(env(["JOB_COMPLETION_INDEX": "3"]), "auto/4").1, "4/4")
    let errors: [([String: String], String, String)] = [
      ([:], "auto", "error: --shard auto takes the shard from the environment, and neither SLURM_ARRAY_TASK_ID (a Slurm job array) nor JOB_COMPLETION_INDEX (a Kubernetes Indexed Job) is set"),
      (["JOB_COMPLETION_INDEX": "2"], "auto", "error: --shard auto: JOB_COMPLETION_INDEX gives the index, not the count: use --shard auto/N with N the Job's completions"),
      (["JOB_COMPLETION_INDEX": "4"], "auto/4", "error: --shard auto/4: JOB_COMPLETION_INDEX 4 is not an index of 4 completions (0 to 3)"),
      (["JOB_COMPLETION_INDEX": "x"], "auto/4", "error: --shard auto/4: JOB_COMPLETION_INDEX is 'x', not a whole number"),
      (["SLURM_ARRAY_TASK_ID": "5", "SLURM_ARRAY_TASK_MIN": "1"], "auto", "error: --shard auto: SLURM_ARRAY_TASK_COUNT is not set: give the count, --shard auto/N"),
      (["SLURM_ARRAY_TASK_ID": "4", "SLURM_ARRAY_TASK_MIN": "0", "SLURM_ARRAY_TASK_COUNT": "4"], "auto", "error: --shard auto: SLURM_ARRAY_TASK_ID 4 is task 5 of an array of 4 (SLURM_ARRAY_TASK_MIN 0, SLURM_ARRAY_TASK_COUNT): ids must run from the array's first to its last"),
      ([:], "auto/0", "error: bad --shard 'auto/0' (auto/N: N a count from 1 to 100000)"),
      ([:], "automatic", "error: bad --shard 'automatic' (expected I/N with 1 ≤ I ≤ N, e.g. 2/7)"),
    ]
    for (e, shard, message) in errors {
      let (r, _) = try shardOf(env(e), shard)
      XCTAssertEqual(r.status, 64, message)
      XCTAssertEqual(r.stderr, message + "\n")
    }
    // batch --shard auto: the second of two parts of four jobs.
    _ = try write("v.lua", "return cs.scene { width = 60, height = 40, root = cs.text { text = cs.args.n } }")
    let jobs = try write("jobs.txt", (1...4).map { "v.lua --arg n=\($0) -o b\($0).png" }.joined(separator: "\n") + "\n")
    var r = try CLI.run(["batch", jobs, "--shard", "auto"], cwd: tmp, env: env(["SLURM_ARRAY_TASK_ID": "1", "SLURM_ARRAY_TASK_MIN": "0", "SLURM_ARRAY_TASK_COUNT": "2"]))
    XCTAssertEqual(r.status, 0, r.stderr)
    XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: tmp.path).filter { $0.hasPrefix("b") }.sorted(), ["b3.png", "b4.png"])
    r = try CLI.run(["batch", jobs, "--shard", "auto"], cwd: tmp, env: env([:]))
    XCTAssertEqual(r.status, 64)
    XCTAssertEqual(r.stderr, "error: --shard auto takes the shard from the environment, and neither SLURM_ARRAY_TASK_ID (a Slurm job array) nor JOB_COMPLETION_INDEX (a Kubernetes Indexed Job) is set\n")
  }

  /// The version of chartscene: in --inspect, and in the metadata of MP4 and WebM files.
  func testVersionInInspectAndContainers() throws {
    let file = try String(contentsOf: EndToEndTests.repo.appendingPathComponent("VERSION"), encoding: .utf8)
    let version = file.replacingOccurrences(of: "version:", with: "").trimmingCharacters(in: .whitespacesAndNewlines)
    let line = try CLI.run(["--version"]).stdout.trimmingCharacters(in: .newlines)
    let script = try animatedScript(seconds: 1)
    let r = try CLI.run([script, "--inspect"])
    let json = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
    XCTAssertEqual(json["version"] as? String, version)
    XCTAssertEqual(line, "chartscene \(version) (commit \(try XCTUnwrap(json["commit"] as? String)))")
    XCTAssertNotNil(json["root"])
    for ext in ["mp4", "webm"] {
      let path = tmp.appendingPathComponent("v.\(ext)").path
      XCTAssertEqual(try CLI.run([script, "-o", path]).status, 0)
      let tags = try Self.tool("/usr/bin/ffprobe", ["-v", "error", "-show_entries", "format_tags", "-of", "default=nw=1", path]).stdout
      XCTAssertTrue(tags.lowercased().contains("tag:comment=\(line.lowercased())\n"), "\(ext): \(tags)")
    }
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
    // A segment that is not a video: ffprobe's message, and no output.
    let fake = try write("fake.mp4", "not a video")
    let r = try CLI.run(["concat", tmp.appendingPathComponent("j.mp4").path, fake])
    XCTAssertEqual(r.status, 1)
    XCTAssertTrue(r.stderr.hasPrefix("error: cannot read '\(fake)': "), r.stderr)
    XCTAssertEqual(r.stderr.split(separator: "\n").count, 1)
    XCTAssertFalse(FileManager.default.fileExists(atPath: tmp.appendingPathComponent("j.mp4").path))
  }
}
