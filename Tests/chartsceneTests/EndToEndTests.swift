import Foundation
import XCTest

/// Runs the built `chartscene` executable as a user would.
final class EndToEndTests: TempFolderCase {
  static let repo: URL = URL(fileURLWithPath: "\(#filePath)").deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

  static var binary: URL { CLI.binary }


  typealias Result = CLI.Result

  @discardableResult
  func run(_ args: [String], cwd: URL? = nil) throws -> Result { try CLI.run(args, cwd: cwd) }

  func examples() throws -> [String] {
    try FileManager.default.contentsOfDirectory(atPath: Self.repo.appendingPathComponent("examples").path).filter { $0.hasSuffix(".lua") }.sorted()
  }

  func pngSize(_ url: URL) throws -> (Int, Int) {
    let d = try Data(contentsOf: url)
    XCTAssertEqual(Array(d.prefix(8)), [137, 80, 78, 71, 13, 10, 26, 10])
    func be32(_ o: Int) -> Int { d[o..<o + 4].reduce(0) { $0 << 8 | Int($1) } }
    return (be32(16), be32(20))
  }

  func testEveryExampleRendersInEveryFormatAndInspects() throws {
    let names = try examples()
    XCTAssertTrue(names.contains("chart.lua") && names.contains("five.lua") && names.contains("night.lua"))
    for name in names {
      let script = "examples/" + name
      for ext in ["png", "svg", "pdf"] {
        let out = tmp.appendingPathComponent(name + "." + ext)
        let r = try run([script, "-o", out.path])
        XCTAssertEqual(r.status, 0, "\(name) → .\(ext): \(r.stderr)")
        XCTAssertEqual(r.stderr, "", name)
        let data = try Data(contentsOf: out)
        switch ext {
        case "svg": XCTAssertTrue(String(decoding: data.prefix(200), as: UTF8.self).contains("<svg"))
        case "pdf": XCTAssertEqual(String(decoding: data.prefix(5), as: UTF8.self), "%PDF-")
        default: _ = try pngSize(out)
        }
      }
      let r = try run([script, "--inspect"])
      XCTAssertEqual(r.status, 0, r.stderr)
      let json = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
      XCTAssertEqual(json["time"] as? Double, 0)
      let root = try XCTUnwrap(json["root"] as? [String: Any])
      XCTAssertNotNil(root["id"] as? String)
      XCTAssertNotNil(root["kind"] as? String)
      XCTAssertEqual((root["frame"] as? [Double])?.count, 4)
      XCTAssertNotNil(root["children"] as? [Any])
    }
  }

  func testChartInspectMatchesTheContract() throws {
    let r = try run(["examples/chart.lua", "--inspect"])
    let json = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
    XCTAssertEqual(json["size"] as? [Double], [720, 640])
    let root = try XCTUnwrap(json["root"] as? [String: Any])
    XCTAssertEqual(root["id"] as? String, "followers")
    XCTAssertEqual(root["kind"] as? String, "chart")
    XCTAssertEqual(root["range"] as? [Double], [0.75, 1.0])
    let data = try XCTUnwrap(root["dataRange"] as? [Double])
    let y = try XCTUnwrap(root["yRange"] as? [Double])
    XCTAssertTrue(y[0] <= data[0] && y[1] >= data[1])
    XCTAssertEqual(root["hidden"] as? [String], [])
    let indicator = try XCTUnwrap(root["indicator"] as? [String: Any])
    XCTAssertNotNil(indicator["index"] as? Int)
    XCTAssertNotNil(indicator["time"] as? Double)
    let parts = try XCTUnwrap(root["parts"] as? [String: [Double]])
    for p in ["plot", "minimap", "minimap.window", "minimap.left", "minimap.right", "legend.y0", "legend.y1"] { XCTAssertNotNil(parts[p], p) }
  }

  func testScaleThemeSizeAndDefaultOutput() throws {
    let out = tmp.appendingPathComponent("a.png")
    XCTAssertEqual(try run(["examples/chart.lua", "-o", out.path, "--scale", "2", "--theme", "night"]).status, 0)
    let (w, h) = try pngSize(out)
    XCTAssertEqual(w, 1440)
    XCTAssertEqual(h, 1280)
    XCTAssertEqual(try run(["examples/chart.lua", "-o", out.path, "--size", "300x200"]).status, 0)
    XCTAssertTrue(try pngSize(out) == (300, 200))
    // Without -o: SCRIPT.png next to the script.
    let script = tmp.appendingPathComponent("mine.lua")
    try "return cs.scene{ width = 100, height = 80, root = cs.chart{ data = cs.data.sample()[2] } }".write(to: script, atomically: true, encoding: .utf8)
    let r = try run([script.path])
    XCTAssertEqual(r.status, 0, r.stderr)
    XCTAssertTrue(try pngSize(tmp.appendingPathComponent("mine.png")) == (100, 80))
    XCTAssertEqual(try run(["--help"]).status, 0)
  }

  /// Bad inputs: one `error:` line, a non-zero exit, no output file, an earlier file kept.
  func testBadInputs() throws {
    func write(_ name: String, _ text: String) throws -> String {
      let u = tmp.appendingPathComponent(name)
      try text.write(to: u, atomically: true, encoding: .utf8)
      return u.path
    }
    let good = try write("good.lua", "return cs.scene{ width = 50, height = 50, root = cs.spacer{} }")
    let cases: [([String], String)] = [
      ([try write("syntax.lua", "return cs.scene{")], "syntax.lua:1: unexpected symbol near <eof>"),
      ([try write("arg.lua", "return cs.chart(nil)")], "arg.lua:1: bad argument #1 to 'chart' (table expected, got nil)"),
      ([try write("key.lua", "local s = cs.data.sample()[1]\nreturn cs.scene{ root = cs.chart{ data = s, minmap = true } }")],
       "key.lua:2: unknown key 'minmap' in cs.chart (did you mean 'minimap'?)"),
      ([try write("json.lua", "return cs.data.telegram('broken.json')")], "json.lua:1: "),
      ([try write("missing.lua", "return cs.data.telegram('nowhere.json')")], "missing.lua:1: cannot read"),
      ([tmp.appendingPathComponent("nope.lua").path], "cannot read"),
      ([good, "--size", "0x10"], "bad --size '0x10'"),
      ([good, "--scale", "100"], "bad --scale"),
      ([good, "--size", "16000x16000", "--scale", "4"], "the image would be 64000x64000 pixels"),
      ([good, "--theme", "dusk"], "invalid theme 'dusk' for --theme"),
      ([good, "--bogus"], "Unknown option '--bogus'"),
      ([good, "-o", tmp.appendingPathComponent("x.docx").path], "unknown output format '.docx'"),
      ([good, "-o", tmp.appendingPathComponent("no/such/dir/x.png").path], "does not exist"),
      ([good, "-o", good.replacingOccurrences(of: ".lua", with: ".lua.png"), "--at=-1"], "bad --at"),
      ([good, "-o", good], "unknown output format '.lua'"),
      ([try write("usesdata.lua", "local s = cs.data.csv('in.png')\nreturn cs.scene{ root = cs.spacer{} }"), "-o", tmp.appendingPathComponent("in.png").path],
       "it is an input of the script"),
    ]
    try "[{\"columns\": [[\"x\", 1, 2]".write(to: tmp.appendingPathComponent("broken.json"), atomically: true, encoding: .utf8)
    try "t,a\n2019-01-01,1\n".write(to: tmp.appendingPathComponent("in.png"), atomically: true, encoding: .utf8)
    let earlier = tmp.appendingPathComponent("kept.png")
    try Data("earlier".utf8).write(to: earlier)
    for (args, expected) in cases {
      let before = Set(try FileManager.default.contentsOfDirectory(atPath: tmp.path))
      let r = try run(args + (args.contains("-o") ? [] : ["-o", earlier.path]))
      XCTAssertNotEqual(r.status, 0, "\(args)")
      let lines = r.stderr.split(separator: "\n")
      XCTAssertEqual(lines.count, 1, "\(args): \(r.stderr)")
      XCTAssertTrue(r.stderr.hasPrefix("error: "), r.stderr)
      XCTAssertTrue(r.stderr.contains(expected), "\(args): '\(r.stderr)' lacks '\(expected)'")
      XCTAssertEqual(r.stdout, "")
      XCTAssertEqual(Set(try FileManager.default.contentsOfDirectory(atPath: tmp.path)), before, "\(args) left files behind")
      XCTAssertEqual(try Data(contentsOf: earlier), Data("earlier".utf8), "\(args) touched an earlier output")
    }
  }

  func testPDFIsReproducibleWithSourceDateEpoch() throws {
    let a = tmp.appendingPathComponent("a.pdf"), b = tmp.appendingPathComponent("b.pdf")
    for out in [a, b] {
      let r = try CLI.run(["examples/chart.lua", "-o", out.path], env: ["SOURCE_DATE_EPOCH": "1700000000"])
      XCTAssertEqual(r.status, 0, r.stderr)
      if out == a { sleep(1) }
    }
    XCTAssertEqual(try Data(contentsOf: a), try Data(contentsOf: b))
    XCTAssertTrue(String(decoding: try Data(contentsOf: a), as: UTF8.self).contains("/CreationDate (20231114221320Z)"))
  }

  func testPresetCommands() throws {
    let list = try run(["preset", "list"])
    XCTAssertEqual(list.status, 0, list.stderr)
    for name in ["day", "night", "list", "carousel", "cards"] {
      XCTAssertTrue(list.stdout.contains("\n\(name) ") || list.stdout.hasPrefix("\(name) "), "\(name) missing: \(list.stdout)")
    }
    let show = try run(["preset", "show", "cards"])
    XCTAssertEqual(show.status, 0)
    XCTAssertTrue(show.stdout.contains("scaleStep = 0.06"))
    let export = try run(["preset", "export", "carousel"])
    XCTAssertTrue(export.stdout.hasPrefix("-- chartscene preset 'carousel'"))
    // An exported preset works as a file.
    let file = tmp.appendingPathComponent("mine.lua")
    try export.stdout.write(to: file, atomically: true, encoding: .utf8)
    let out = tmp.appendingPathComponent("p.png")
    let r = try run(["examples/chart.lua", "--preset", file.path, "-o", out.path])
    XCTAssertEqual(r.status, 0, r.stderr)
    let bad = try run(["examples/chart.lua", "--preset", "nope", "-o", out.path])
    XCTAssertNotEqual(bad.status, 0)
    XCTAssertTrue(bad.stderr.hasPrefix("error: preset 'nope' not found"), bad.stderr)
    XCTAssertNotEqual(try run(["preset", "show"]).status, 0)
  }
  // The main example's speed is measured by scripts/bench (release build), not asserted here.
}

/// Runs the built `chartscene` executable.
enum CLI {
  struct Result { var status: Int32; var stdout: String; var stderr: String; var seconds: Double }

  /// The chartscene the tests run: `CHARTSCENE_TEST_BINARY` when set (scripts/test sets
  /// it to the static build users install, `.build/release/chartscene`), else the one built
  /// next to the test bundle.
  static let binary: URL = {
    if let path = ProcessInfo.processInfo.environment["CHARTSCENE_TEST_BINARY"], FileManager.default.isExecutableFile(atPath: path) {
      return URL(fileURLWithPath: path)
    }
    // The test bundle sits next to the executable in the build folder.
    let here = Bundle.main.bundleURL
    for dir in [here, here.deletingLastPathComponent(), URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()] {
      let candidate = dir.appendingPathComponent("chartscene")
      if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
    }
    return EndToEndTests.repo.appendingPathComponent(".build/debug/chartscene")
  }()

  /// One run of `runAll`: what `run` takes.
  struct Job {
    var args: [String]
    var cwd: URL? = nil
    var env: [String: String] = [:]
    var executable: URL? = nil
  }

  /// Runs independent jobs `width` at a time (the test only waits on the children) and
  /// returns their results in the jobs' order; a job that cannot start is status -1.
  static func runAll(_ jobs: [Job], width: Int = 2) -> [Result] {
    inParallel(jobs.count, width: width) { k in
      let j = jobs[k]
      return (try? run(j.args, cwd: j.cwd, env: j.env, executable: j.executable))
        ?? Result(status: -1, stdout: "", stderr: "cannot run \(j.executable?.path ?? "chartscene")", seconds: 0)
    }
  }

  /// `work(0..<count)`, `width` at a time, the results in order.
  static func inParallel<T>(_ count: Int, width: Int = 2, _ work: @escaping @Sendable (Int) -> T) -> [T] {
    let box = ParallelResults<T>(count)
    DispatchQueue.concurrentPerform(iterations: max(1, min(width, count))) { _ in
      while true {
        box.lock.lock()
        let k = box.next
        box.next += 1
        box.lock.unlock()
        guard k < count else { return }
        let r = work(k)
        box.lock.lock()
        box.results[k] = r
        box.lock.unlock()
      }
    }
    return box.results.map { $0! }
  }

  /// Renders every job (a render's arguments, relative to the repository's root) in one
  /// `chartscene batch` run: the tests whose point is the files, not the process, render
  /// dozens of them without a process each. The jobs file is written to `folder`. Returns
  /// the run and each job's `error:` line (its message after `JOBS:LINE: `; nil: none).
  static func batch(_ jobs: [[String]], in folder: URL) throws -> (run: Result, errors: [String?]) {
    let file = folder.appendingPathComponent("jobs-\(UUID().uuidString.prefix(8)).txt")
    let quoted = jobs.map { job in
      job.map { "\"" + $0.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\"" }.joined(separator: " ")
    }
    try (quoted.joined(separator: "\n") + "\n").write(to: file, atomically: true, encoding: .utf8)
    defer { try? FileManager.default.removeItem(at: file) }
    let r = try run(["batch", file.path])
    var errors = [String?](repeating: nil, count: jobs.count)
    let prefix = "error: \(file.path):"
    for row in r.stderr.split(separator: "\n") where row.hasPrefix(prefix) {
      let rest = row.dropFirst(prefix.count)
      guard let colon = rest.firstIndex(of: ":"), let n = Int(rest[..<colon]), (1...jobs.count).contains(n) else { continue }
      errors[n - 1] = String(rest[rest.index(after: colon)...].drop { $0 == " " })
    }
    return (r, errors)
  }

  /// `runAll` of chartscene with these arguments, from the repository's root.
  static func runAll(_ args: [[String]], width: Int = 2) -> [Result] { runAll(args.map { Job(args: $0) }, width: width) }

  @discardableResult
  static func run(_ args: [String], cwd: URL? = nil, env: [String: String] = [:], executable: URL? = nil) throws -> Result {
    let p = Process()
    p.executableURL = executable ?? binary
    p.arguments = args
    p.currentDirectoryURL = cwd ?? EndToEndTests.repo
    if !env.isEmpty { p.environment = ProcessInfo.processInfo.environment.merging(env) { $1 } }
    let out = Pipe(), err = Pipe()
    p.standardOutput = out
    p.standardError = err
    let start = Date()
    try p.run()
    // Both pipes are drained at once: a child filling one (a long stderr) while we wait on
    // the other would hang both processes.
    nonisolated(unsafe) var e = Data()
    let errDone = DispatchSemaphore(value: 0)
    DispatchQueue.global().async {
      e = err.fileHandleForReading.readDataToEndOfFile()
      errDone.signal()
    }
    let o = out.fileHandleForReading.readDataToEndOfFile()
    errDone.wait()
    p.waitUntilExit()
    return Result(status: p.terminationStatus, stdout: String(decoding: o, as: UTF8.self), stderr: String(decoding: e, as: UTF8.self), seconds: Date().timeIntervalSince(start))
  }
}

/// The results of `CLI.inParallel`, filled under a lock.
final class ParallelResults<T>: @unchecked Sendable {
  var results: [T?]
  var next = 0
  let lock = NSLock()
  init(_ n: Int) { results = Array(repeating: nil, count: n) }
}
