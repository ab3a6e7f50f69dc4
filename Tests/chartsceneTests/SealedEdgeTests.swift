import Foundation
import Glibc
import XCTest

/// Issue 37, part A: the sandbox's edges and the host's crashes — `require` through a link
/// in a searched folder, `concat` trusting a segment's tags and box sizes, terminal escapes
/// in `composition show`, the SVG bomb, and the small ones (item numbers in each test).
final class SealedEdgeTests: FolderCase {
  let head = "local s = cs.data.sample()\n"

  /// Runs chartscene in `cwd`, stopped after `seconds` (a hang is a failure, not a hung
  /// suite): the result, and whether it had to be stopped.
  func runBounded(_ args: [String], cwd: URL? = nil, seconds: Double) throws -> (CLI.Result, hung: Bool) {
    let p = Process()
    p.executableURL = CLI.binary
    p.arguments = args
    p.currentDirectoryURL = cwd ?? dir
    let home = dir.appendingPathComponent("home").path
    p.environment = ProcessInfo.processInfo.environment.merging(["HOME": home, "XDG_CONFIG_HOME": home + "/.config"]) { $1 }
    let out = Pipe(), err = Pipe()
    p.standardOutput = out
    p.standardError = err
    let start = Date()
    try p.run()
    nonisolated(unsafe) var e = Data(), o = Data()
    let done = DispatchGroup()
    done.enter()
    DispatchQueue.global().async { e = err.fileHandleForReading.readDataToEndOfFile(); done.leave() }
    done.enter()
    DispatchQueue.global().async { o = out.fileHandleForReading.readDataToEndOfFile(); done.leave() }
    var hung = false
    while p.isRunning {
      if Date().timeIntervalSince(start) > seconds {
        hung = true
        kill(p.processIdentifier, SIGKILL)
        // Its children (ffmpeg) hold the pipes open: they go too.
        kill(-p.processIdentifier, SIGKILL)
        break
      }
      usleep(20_000)
    }
    p.waitUntilExit()
    if !hung { done.wait() } else { _ = done.wait(timeout: .now() + 5) }
    return (CLI.Result(status: p.terminationStatus, stdout: String(decoding: o, as: UTF8.self), stderr: String(decoding: e, as: UTF8.self),
                       seconds: Date().timeIntervalSince(start)), hung)
  }

  func assertOneError(_ r: CLI.Result, _ expected: String, status: Int32 = 1, file: StaticString = #filePath, line: UInt = #line) {
    XCTAssertEqual(r.status, status, r.stderr, file: file, line: line)
    XCTAssertEqual(r.stderr.split(separator: "\n", omittingEmptySubsequences: false).count, 2, r.stderr, file: file, line: line)
    XCTAssertTrue(r.stderr.hasPrefix("error: ") && r.stderr.contains(expected), "'\(r.stderr)' lacks '\(expected)'", file: file, line: line)
  }

  // MARK: 1. require through a link in compositions/

  /// `compositions/cfg.lua -> ../../outside/.env` (a `KEY="value"` file is valid Lua) or
  /// `-> /etc/os-release` was loaded: a module found in any folder `require` searches is read
  /// only where it lies, links resolved, inside the folders a script may read.
  func testRequireDoesNotFollowALinkOutOfTheReadableFolders() throws {
    try write("outside/.env", "SECRET=\"hunter2\"\n")
    try write("proj/s.lua", "require('cfg')\nreturn cs.scene{ width = 200, height = 100, root = cs.text{ text = SECRET or 'none' } }")
    try write("proj/os.lua", "require('osr')\nreturn cs.scene{ width = 200, height = 100, root = cs.text{ text = NAME or 'none' } }")
    try write("proj/ok.lua", "local m = require('inside')\nreturn cs.scene{ width = 200, height = 100, root = cs.text{ text = m } }")
    try write("proj/lib/inside.lua", "return 'fine'\n")
    let proj = dir.appendingPathComponent("proj")
    try FileManager.default.createDirectory(at: proj.appendingPathComponent("compositions"), withIntermediateDirectories: true)
    try FileManager.default.createSymbolicLink(atPath: proj.path + "/compositions/cfg.lua", withDestinationPath: "../../outside/.env")
    try FileManager.default.createSymbolicLink(atPath: proj.path + "/compositions/osr.lua", withDestinationPath: "/etc/os-release")
    // A link that stays inside the script's folder is still followed.
    try FileManager.default.createSymbolicLink(atPath: proj.path + "/compositions/inside.lua", withDestinationPath: "../lib/inside.lua")
    let (a, _) = try runBounded(["s.lua", "-o", "a.png"], cwd: proj, seconds: 20)
    assertOneError(a, "s.lua:1: cannot read './compositions/cfg.lua' (module 'cfg'): it is outside the folders a script may read")
    if FileManager.default.fileExists(atPath: "/etc/os-release") {
      let (b, _) = try runBounded(["os.lua", "-o", "b.png"], cwd: proj, seconds: 20)
      assertOneError(b, "os.lua:1: cannot read './compositions/osr.lua' (module 'osr'): it is outside the folders a script may read")
    }
    XCTAssertFalse(FileManager.default.fileExists(atPath: proj.path + "/a.png"))
    let (ok, _) = try runBounded(["ok.lua", "-o", "ok.png"], cwd: proj, seconds: 20)
    XCTAssertEqual(ok.status, 0, ok.stderr)
    XCTAssertEqual(ok.stderr, "")
    // --allow-read widens it, as for data files.
    let (w, _) = try runBounded(["s.lua", "-o", "w.png", "--allow-read", dir.appendingPathComponent("outside").path], cwd: proj, seconds: 20)
    XCTAssertEqual(w.status, 0, w.stderr)
  }

  // MARK: 2, 5. concat: the segment's tags and boxes are untrusted

  /// A mono 16-bit WAV of a sine, `seconds` long.
  func wav(_ name: String, seconds: Double = 1, rate: Int = 8000) throws {
    let n = Int(Double(rate) * seconds)
    var d = Data()
    func u32(_ v: Int) { var x = UInt32(v).littleEndian; d.append(Data(bytes: &x, count: 4)) }
    func u16(_ v: Int) { var x = UInt16(v).littleEndian; d.append(Data(bytes: &x, count: 2)) }
    d.append(Data("RIFF".utf8)); u32(36 + 2 * n); d.append(Data("WAVEfmt ".utf8))
    u32(16); u16(1); u16(1); u32(rate); u32(rate * 2); u16(2); u16(16)
    d.append(Data("data".utf8)); u32(2 * n)
    for k in 0..<n {
      var s = Int16(6000 * sin(2 * Double.pi * 440 * Double(k) / Double(rate))).littleEndian
      d.append(Data(bytes: &s, count: 2))
    }
    let u = dir.appendingPathComponent(name)
    try FileManager.default.createDirectory(at: u.deletingLastPathComponent(), withIntermediateDirectories: true)
    try d.write(to: u)
  }

  /// The segment's `chartscene_media` tag names the clip by its full path: a segment whose
  /// tag was changed (the same number of bytes, so the boxes still fit) to name a file
  /// outside the folders concat reads, or a FIFO (which hung concat), is refused in one line.
  func testConcatRefusesATamperedSoundTag() throws {
    try wav("proj/voice.wav")
    try wav("outs/voice.wav")
    try write("proj/s.lua", "local s = cs.data.sample()[1]\nreturn cs.scene{ width = 160, height = 90, fps = 10, duration = 1, audio = { { file = 'voice.wav' } }, root = cs.chart{ data = s } }")
    let proj = dir.appendingPathComponent("proj")
    let (r, _) = try runBounded(["s.lua", "--shard", "1/1", "-o", "seg.mp4"], cwd: proj, seconds: 60)
    XCTAssertEqual(r.status, 0, r.stderr)
    let seg = try Data(contentsOf: proj.appendingPathComponent("seg.mp4"))
    let real = try XCTUnwrap(realpath(proj.path, nil).map { p -> String in defer { free(p) }; return String(cString: p) })
    let original = Data((real + "/voice.wav").utf8)
    XCTAssertNotNil(seg.range(of: original), "the segment names its clip by its full path")
    func tampered(_ name: String, _ path: String) throws {
      let replacement = Data(path.utf8)
      XCTAssertEqual(replacement.count, original.count)
      var d = seg
      d.replaceSubrange(try XCTUnwrap(d.range(of: original)), with: replacement)
      try d.write(to: proj.appendingPathComponent(name))
    }
    // The untouched segment joins with its sound.
    let (good, _) = try runBounded(["concat", "good.mp4", "seg.mp4"], cwd: proj, seconds: 60)
    XCTAssertEqual(good.status, 0, good.stderr)
    // Outside: refused (it joined the outside file's sound before).
    let outside = String(real.dropLast(4)) + "outs/voice.wav"
    try tampered("out.mp4", outside)
    let (a, hungA) = try runBounded(["concat", "j1.mp4", "out.mp4"], cwd: proj, seconds: 30)
    XCTAssertFalse(hungA)
    assertOneError(a, "cannot join 'out.mp4': its sound '\(outside)' is outside the folders concat may read")
    XCTAssertFalse(FileManager.default.fileExists(atPath: proj.path + "/j1.mp4"))
    // --allow-read lets it in.
    let (allowed, _) = try runBounded(["concat", "j2.mp4", "out.mp4", "--allow-read", dir.appendingPathComponent("outs").path], cwd: proj, seconds: 60)
    XCTAssertEqual(allowed.status, 0, allowed.stderr)
    // A FIFO in the folder: refused at once (ffmpeg waited on it for ever).
    XCTAssertEqual(mkfifo(proj.path + "/fifo0.wav", 0o644), 0)
    try tampered("fifo.mp4", real + "/fifo0.wav")
    let (b, hungB) = try runBounded(["concat", "j3.mp4", "fifo.mp4"], cwd: proj, seconds: 20)
    XCTAssertFalse(hungB, "concat hung on a FIFO named by the segment")
    assertOneError(b, "cannot join 'fifo.mp4': its sound '\(real)/fifo0.wav': it is not a regular file")
    XCTAssertLessThan(b.seconds, 10)
    // Not a sound file (the script itself, renamed in the tag): refused.
    try write("proj/voicf.wav", "not a sound")
    try tampered("text.mp4", real + "/voicf.wav")
    let (c, _) = try runBounded(["concat", "j4.mp4", "text.mp4"], cwd: proj, seconds: 20)
    assertOneError(c, "is not a sound file")
  }

  /// Item 5: a 56-byte file whose second box claims 2^63 − 1 bytes (a 64-bit size) trapped
  /// in the box walker (SIGILL): one line, exit 1.
  func testConcatOfAnImpossibleBoxIsOneLine() throws {
    var d = Data()
    func u32(_ v: UInt32) { var x = v.bigEndian; d.append(Data(bytes: &x, count: 4)) }
    func u64(_ v: UInt64) { var x = v.bigEndian; d.append(Data(bytes: &x, count: 8)) }
    u32(8); d.append(Data("free".utf8))
    u32(1); d.append(Data("mdat".utf8)); u64(UInt64(Int64.max))
    d.append(Data(count: 56 - d.count))
    XCTAssertEqual(d.count, 56)
    try d.write(to: dir.appendingPathComponent("evil.mp4"))
    // The same past a moov: a largesize above Int64.max, and one that wraps the offset.
    var e = Data()
    func eu32(_ v: UInt32) { var x = v.bigEndian; e.append(Data(bytes: &x, count: 4)) }
    func eu64(_ v: UInt64) { var x = v.bigEndian; e.append(Data(bytes: &x, count: 8)) }
    eu32(16); e.append(Data("ftypisom".utf8)); eu32(0)
    eu32(1); e.append(Data("moov".utf8)); eu64(UInt64.max)
    e.append(Data(count: 24))
    try e.write(to: dir.appendingPathComponent("evil2.mp4"))
    for name in ["evil.mp4", "evil2.mp4"] {
      let (r, hung) = try runBounded(["concat", "o.mp4", name], seconds: 30)
      XCTAssertFalse(hung)
      assertOneError(r, "cannot read '\(name)'")
      XCTAssertFalse(FileManager.default.fileExists(atPath: dir.path + "/o.mp4"))
    }
  }

  // MARK: 3. composition show and list

  /// `composition show` printed a shared file's escapes raw (a title, a screen clear, an
  /// OSC 52 clipboard write); and a shared `list.lua` silently replaced the built-in.
  func testCompositionShowEscapesAndHidingIsWarned() throws {
    try write("compositions/evil.lua", "-- evil\u{1b}]0;pwned\u{07}\nlocal s = \"\u{1b}[2J\u{1b}]52;c;aGk=\u{07}\"\r\nreturn function() end\n")
    let (r, _) = try runBounded(["composition", "show", "evil"], seconds: 20)
    XCTAssertEqual(r.status, 0, r.stderr)
    XCTAssertFalse(r.stdout.unicodeScalars.contains { $0.value == 0x1b || $0.value == 0x07 }, r.stdout)
    XCTAssertEqual(r.stdout, "-- evil\\027]0;pwned\\007\nlocal s = \"\\027[2J\\027]52;c;aGk=\\007\"\r\nreturn function() end\n")
    // A module named like a built-in: the first found wins, with one warning, in list, show
    // and require.
    try write("compositions/list.lua", "-- my own list\nreturn function(t) return cs.text{ text = 'mine' } end\n")
    let (l, _) = try runBounded(["composition", "list"], seconds: 20)
    XCTAssertEqual(l.status, 0, l.stderr)
    XCTAssertEqual(l.stderr, "warning: './compositions/list.lua' hides the built-in composition 'list' (the first found wins: require('list') loads this file; cs.list stays the built-in; rename the file to keep both)\n")
    XCTAssertTrue(l.stdout.contains("list      ./compositions/list.lua  my own list"), l.stdout)
    let (s, _) = try runBounded(["composition", "show", "list"], seconds: 20)
    XCTAssertEqual(s.status, 0, s.stderr)
    XCTAssertTrue(s.stdout.hasPrefix("-- my own list"), s.stdout)
    XCTAssertTrue(s.stderr.hasPrefix("warning: './compositions/list.lua' hides the built-in composition 'list'") && s.stderr.split(separator: "\n").count == 1, s.stderr)
    try write("r.lua", "local l = require('list')\nreturn cs.scene{ width = 200, height = 100, root = l{} }")
    let (q, _) = try runBounded(["r.lua", "-o", "r.png"], seconds: 20)
    XCTAssertEqual(q.status, 0, q.stderr)
    XCTAssertEqual(q.stderr, "warning: './compositions/list.lua' hides the built-in composition 'list' (the first found wins: require('list') loads this file; cs.list stays the built-in; rename the file to keep both)\n")
  }

  // MARK: 7. The SVG bomb

  /// 100,000 `g:text` calls under --max-memory 64M wrote a 467 MB SVG at 1.2 GB resident:
  /// what cairo holds for the document is charged against --max-memory before it is drawn.
  func testAVectorDocumentIsChargedAgainstTheMemoryLimit() throws {
    try write("bomb.lua", "return cs.scene{ width = 400, height = 300, root = cs.canvas{ draw = function(g)\n"
      + "for i = 1, 100000 do g:text(('hello world '):rep(6) .. i, (i * 7) % 400, (i * 13) % 300) end end } }")
    for out in ["bomb.svg", "bomb.pdf"] {
      // The draw's 100,000 calls get 10 s (a tenth of --max-time): the point is the memory.
      let r = try LimitRun.run(["bomb.lua", "-o", out, "--max-memory", "64M", "--max-time", "100"], in: dir)
      XCTAssertEqual(r.status, 1, r.stderr)
      XCTAssertEqual(r.stderr.split(separator: "\n").count, 1, r.stderr)
      XCTAssertTrue(r.stderr.hasPrefix("error: cannot render '") && r.stderr.contains("\(out)': the document of 1000"), r.stderr)
      XCTAssertTrue(r.stderr.contains(" shapes and texts needs about "), r.stderr)
      XCTAssertTrue(r.stderr.contains("while cairo writes it, more than --max-memory leaves ("), r.stderr)
      XCTAssertLessThan(r.peakMB, 300, "\(out): \(r.peakMB) MB")
      XCTAssertLessThan(r.seconds, 20)
      XCTAssertFalse(FileManager.default.fileExists(atPath: dir.appendingPathComponent(out).path))
    }
    // A few thousand texts are still drawn under the same limit.
    try write("few.lua", "return cs.scene{ width = 400, height = 300, root = cs.canvas{ draw = function(g)\n"
      + "for i = 1, 2000 do g:text('hello world ' .. i, (i * 7) % 400, (i * 13) % 300) end end } }")
    for out in ["few.svg", "few.pdf"] {
      let r = try LimitRun.run(["few.lua", "-o", out, "--max-memory", "64M", "--max-time", "100"], in: dir)
      XCTAssertEqual(r.status, 0, r.stderr)
    }
  }

  // MARK: 8. The small ones

  /// A `--timezone` of 100,000 characters hung in the nearest-zone search; a preset's
  /// `scene.timezone` skipped the text limit.
  func testLongTimeZonesAreQuick() throws {
    try write("s.lua", head + "return cs.scene{ width = 200, height = 100, root = cs.chart{ data = s[1] } }")
    let long = String(repeating: "Europe/Oslo", count: 9091)
    let (r, _) = try runBounded(["s.lua", "-o", "a.png", "--timezone", long], seconds: 20)
    XCTAssertEqual(r.status, 64, r.stderr)
    XCTAssertLessThan(r.seconds, 5)
    XCTAssertEqual(r.stderr.split(separator: "\n").count, 1, r.stderr)
    XCTAssertTrue(r.stderr.hasPrefix("error: unknown time zone 'Europe/OsloEurope/Oslo") && r.stderr.contains("…' (nearest: "), r.stderr)
    XCTAssertLessThan(r.stderr.count, 600)
    try write("presets/far.lua", "return { scene = { timezone = \"" + long + "\" } }\n")
    try write("p.lua", head + "return cs.scene{ width = 200, height = 100, preset = 'far', root = cs.chart{ data = s[1] } }")
    let (p, _) = try runBounded(["p.lua", "-o", "p.png"], seconds: 20)
    assertOneError(p, "far.lua:1: bad value for 'scene.timezone' in preset (a text of at most 10000 bytes expected, got 100001 bytes)")
    XCTAssertLessThan(p.seconds, 5)
  }

  /// 9,990 views without a glyph printed 9,990 warnings: the first 20, then one line.
  func testWarningsAreCapped() throws {
    try write("w.lua", "local v = {}\nfor i = 1, 500 do v[i] = cs.text{ text = '\u{16A0}' .. i } end\nreturn cs.scene{ width = 200, height = 100, root = cs.vstack(v) }")
    let (r, _) = try runBounded(["w.lua", "-o", "w.png"], seconds: 60)
    XCTAssertEqual(r.status, 0, r.stderr)
    let lines = r.stderr.split(separator: "\n")
    XCTAssertEqual(lines.count, 21, r.stderr)
    XCTAssertTrue(lines.prefix(20).allSatisfy { $0.hasPrefix("warning: w.lua:2: no font has U+16A0") }, r.stderr)
    XCTAssertEqual(lines.last, "warning: … and 480 more warnings (the first 20 are shown)")
  }

  /// A NUL in a batch `-o` wrote a file named `a`; a path with a NUL was cut there in errors
  /// (and read the file before the NUL).
  func testNULInPathsIsRefusedAndShown() throws {
    try write("s.lua", head + "return cs.scene{ width = 200, height = 100, root = cs.chart{ data = s[1] } }")
    try write("jobs.txt", "s.lua -o 'a\u{0}b.png'\n")
    let (r, _) = try runBounded(["batch", "jobs.txt"], seconds: 30)
    XCTAssertNotEqual(r.status, 0)
    XCTAssertTrue(r.stderr.contains("jobs.txt:1: 'a\\0b.png' holds a NUL character"), r.stderr)
    XCTAssertFalse(FileManager.default.fileExists(atPath: dir.path + "/a"))
    try write("a", "x,y\n1,2\n2,3\n")
    try write("d.lua", "local d = cs.data.csv('a\\0.csv')\nreturn cs.scene{ width = 200, height = 100, root = cs.chart{ data = d } }")
    try fails(["d.lua", "-o", "d.png"], "d.lua:1: cannot read 'a\\0.csv': a file name cannot hold a NUL character", seconds: 20)
    try write("m.lua", "require('a\\0b')\nreturn cs.scene{ width = 200, height = 100, root = cs.text{ text = 'x' } }")
    try fails(["m.lua", "-o", "m.png"], "m.lua:1: ", seconds: 20)
  }

  /// The `.vtt` written beside `o.mp4` overwrote the script's own captions file `o.vtt`.
  func testTheSubtitleFileIsNotAnInput() throws {
    try write("o.vtt", "WEBVTT\n\n00:00:00.000 --> 00:00:00.500\nhello\n")
    try write("s.lua", head + "return cs.scene{ width = 160, height = 90, fps = 10, duration = 1, captions = 'o.vtt', root = cs.chart{ data = s[1] } }")
    try fails(["s.lua", "-o", "o.mp4"], "cannot write 'o.vtt': it is an input of the script ('o.vtt')", seconds: 60)
    let r = try run(["s.lua", "-o", "other.mp4"])
    XCTAssertEqual(r.status, 0, r.stderr)
    XCTAssertTrue(FileManager.default.fileExists(atPath: dir.path + "/other.vtt"))
  }

  /// `getmetatable(self.state)` gave the proxy's metatable (other objects give false), and
  /// through it NaN and functions reached the state.
  func testTheStateProxyMetatableIsProtected() throws {
    try write("v.lua", """
      local v = cs.view{ id = "v", state = { k = 1 },
        layout = function(self, w, h)
          assert(getmetatable(self.state) == false, "state: " .. tostring(getmetatable(self.state)))
          assert(getmetatable(self.children) == false and getmetatable(self.children[1]) == false)
          assert(not pcall(setmetatable, self.state, {}))
          for _, c in ipairs(self.children) do c.frame = { 0, 0, w, h } end
        end,
        cs.text{ text = "x" } }
      return cs.scene{ width = 200, height = 100, root = v }
      """)
    let r = try run(["v.lua", "-o", "v.png"])
    XCTAssertEqual(r.status, 0, r.stderr)
  }

  // MARK: 14. Reading data is not the script's time

  /// A CSV that takes longer to read than --max-time gave "script ran for too long", as if
  /// the script had: reading is the host's work, bounded by --max-memory and
  /// --max-total-time.
  func testReadingDataIsOutsideTheScriptTimeLimit() throws {
    var text = "t,a,b\n"
    text.reserveCapacity(3_000_000 * 24)
    for i in 0..<3_000_000 { text += "\(1_600_000_000_000 + i * 60_000),\(i % 977),\(i % 113)\n" }
    try write("big.csv", text)
    try write("s.lua", "local d = cs.data.csv('big.csv')\nreturn cs.scene{ width = 200, height = 100, root = cs.chart{ data = d } }")
    let r = try run(["s.lua", "-o", "big.png", "--max-time", "0.05"])
    XCTAssertEqual(r.status, 0, r.stderr)
    XCTAssertEqual(r.stderr, "")
    // The script's own time is still limited, after the read too.
    try write("loop.lua", "local d = cs.data.csv('big.csv')\nwhile true do end")
    try fails(["loop.lua", "-o", "l.png", "--max-time", "0.05"], "loop.lua:2: script ran for too long (over 0.05 s; --max-time)", seconds: 20)
  }
}

/// A run measured with wait4 (peak resident set of the process and its children).
enum LimitRun {
  struct Run { var status: Int32; var stderr: String; var peakMB: Double; var seconds: Double }

  /// `args` with the script (the first) and `-o`'s file made paths in `dir`.
  static func run(_ args: [String], in dir: URL) throws -> Run {
    let args = args.enumerated().map { k, a in k == 0 || args[k - 1] == "-o" ? dir.appendingPathComponent(a).path : a }
    let errPath = dir.appendingPathComponent("stderr-\(UUID().uuidString.prefix(6)).txt").path
    defer { unlink(errPath) }
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 2, errPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    var cargs = ([CLI.binary.path] + args).map { strdup($0) } + [nil]
    defer { for a in cargs { free(a) } }
    var pid: pid_t = 0
    let start = Date()
    let rc = posix_spawn(&pid, CLI.binary.path, &actions, nil, &cargs, environ)
    guard rc == 0 else { throw NSError(domain: "spawn", code: Int(rc)) }
    var status: Int32 = 0
    var usage = rusage()
    while wait4(pid, &status, 0, &usage) < 0 && errno == EINTR {}
    let err = (try? String(contentsOfFile: errPath, encoding: .utf8)) ?? ""
    let code = (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
    return Run(status: code, stderr: err, peakMB: Double(usage.ru_maxrss) / 1024, seconds: Date().timeIntervalSince(start))
  }
}
