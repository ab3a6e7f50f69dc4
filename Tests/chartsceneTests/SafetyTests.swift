import Foundation
import XCTest

/// Issue 6: running a shared script must be as safe as opening a picture. Each case runs
/// the real executable in a fresh folder (its working folder, HOME and config folder all
/// inside it) and asserts the one-line message, the exit status, and that nothing in the
/// folder changed except, on success, the output.
final class SafetyTests: FolderCase {
  // MARK: 1. Sandbox

  func testSandboxedCallsFailWithTheirPlace() throws {
    let cases: [(String, String)] = [
      ("local f = io.open('out.png', 'w')", "s.lua:1: 'io' is not available in chartscene scripts"),
      ("os.execute('touch pwned')", "s.lua:1: 'os.execute' is not available in chartscene scripts"),
      ("os.remove('out.png')", "s.lua:1: 'os.remove' is not available in chartscene scripts"),
      ("os.rename('out.png', 'x')", "s.lua:1: 'os.rename' is not available in chartscene scripts"),
      ("os.exit(0)", "s.lua:1: 'os.exit' is not available in chartscene scripts"),
      ("local h = os.getenv('HOME')", "s.lua:1: 'os.getenv' is not available in chartscene scripts"),
      ("local t = os.tmpname()", "s.lua:1: 'os.tmpname' is not available in chartscene scripts"),
      ("package.loadlib('libc.so.6', 'system')", "s.lua:1: 'package' is not available in chartscene scripts"),
      ("dofile('s.lua')", "s.lua:1: 'dofile' is not available in chartscene scripts"),
      ("loadfile('s.lua')", "s.lua:1: 'loadfile' is not available in chartscene scripts"),
      ("local d = string.dump(print)", "s.lua:1: 'string.dump' is not available in chartscene scripts"),
      ("assert(load('\\27Lua', 'x', 'b'))", "s.lua:1: attempt to load a binary chunk (chartscene scripts load text chunks only)"),
      ("require('io')", "s.lua:1: module 'io' is not available in chartscene scripts"),
      ("debug.sethook()", "s.lua:1: 'debug' is not available in chartscene scripts"),
      ("require('../home/x')", "s.lua:1: module '../home/x' not found"),
      ("require('/etc/passwd')", "s.lua:1: module '/etc/passwd' not found"),
      // A finalizer could run outside any time limit (e.g. when the state closes).
      ("local t = setmetatable({}, { __gc = function() while true do end end })", "s.lua:1: '__gc' metamethods are not available in chartscene scripts"),
    ]
    for (code, expected) in cases {
      try write("s.lua", code + "\nreturn cs.scene{ root = cs.spacer{} }")
      try fails(["s.lua"], expected)
    }
    XCTAssertFalse(FileManager.default.fileExists(atPath: dir.appendingPathComponent("pwned").path))
  }

  func testPresetsGetNothing() throws {
    try write("presets/evil.lua", "os.execute('touch pwned')\nreturn {}")
    try write("s.lua", "return cs.scene{ root = cs.spacer{} }")
    try fails(["s.lua", "--preset", "evil"], "presets/evil.lua:1: attempt to index a nil value (global 'os')")
    try write("presets/loop.lua", "local n = 0\nwhile true do n = n + 1 end")
    try fails(["s.lua", "--preset", "loop"], "presets/loop.lua:2: script ran for too long (over 1 s)")
    try write("presets/big.lua", "local t = {}\nfor i = 1, 1e9 do t[i] = i end\nreturn {}")
    try fails(["s.lua", "--preset", "big"], "presets/big.lua:2: script needs more memory than the 64 MiB allowed")
  }

  func testRecordingNeverOverwritesAnInput() throws {
    // Checked before the window opens (no display is needed to fail).
    try write("s.lua", "local d = cs.data.csv('d.csv')\nreturn cs.scene{ root = cs.spacer{} }")
    try write("d.csv", "t,a\n2019-01-01,1\n")
    try fails(["s.lua", "--live", "--record", "s.lua"], "cannot write 's.lua': it is the script itself")
    try fails(["s.lua", "--live", "--record", "d.csv"], "cannot write 'd.csv': it is an input of the script ('d.csv')")
    try fails(["s.lua", "--live", "--record", "nowhere/r.lua"], "cannot write 'nowhere/r.lua': the folder 'nowhere' does not exist")
    // Nor does a frame of a PNG sequence.
    try write("a.lua", "local d = cs.data.csv('f-0003.png')\nreturn cs.scene{ width = 50, height = 50, duration = 0.5, fps = 10, root = cs.spacer{} }")
    try write("f-0003.png", "t,a\n2019-01-01,1\n")
    try fails(["a.lua", "-o", "f-%04d.png"], "cannot write 'f-0003.png': it is an input of the script")
  }

  // MARK: 2. Limits

  /// (Limits of 0.2 s here and in the tests below: the stop and its line are what is checked,
  /// and they do not depend on the limit's size; a whole second is written `1 s` in
  /// testPresetsGetNothing and BindingTests.)
  func testEndlessLoopStopsAtMaxTime() throws {
    try write("s.lua", "local n = 0\nwhile true do\n  n = n + 1\nend")
    try fails(["s.lua", "--max-time", "0.2"], "s.lua:3: script ran for too long (over 0.2 s; --max-time)")
    // In a coroutine too, and a Lua pcall cannot swallow the stop.
    try write("s.lua", "local co = coroutine.wrap(function()\n  while true do end\nend)\nwhile true do pcall(co) end")
    try fails(["s.lua", "--max-time", "0.2"], "script ran for too long (over 0.2 s; --max-time)")
  }

  func testCallbacksGetATenth() throws {
    try write("s.lua", "return cs.scene{ width = 100, height = 100, root = cs.canvas{ draw = function(g)\n  while true do end\nend } }")
    try fails(["s.lua", "--max-time", "0.5"], "s.lua:2: script ran for too long (over 0.05 s; --max-time)")
  }

  func testStuckLibraryFunctionIsStoppedByTheWatchdog() throws {
    // string.find backtracks for ages inside C, where the hook cannot stop it.
    try write("s.lua", "local s = string.rep('a', 100000)\nreturn s:find('.-.-.-.-.-.-b')")
    // Stopped 0.5 s after its 0.2 s deadline (the grace is the limit again, at least 0.5 s):
    // within 1.9 s of wall time, where a fixed 2 s grace took 2.2 s or more.
    try fails(["s.lua", "--max-time", "0.2"], "s.lua:2: script ran for too long (over 0.2 s; --max-time) in a library function that cannot be interrupted",
              seconds: 1.9)
  }

  func testMemoryCap() throws {
    // (16 MiB: a table filled up to 64 MiB took 2 s of CPU, to 16 MiB 0.3 s; the stop is the same.)
    try write("s.lua", "local t = {}\nfor i = 1, 1e9 do\n  t[i] = 'row ' .. i\nend")
    try fails(["s.lua", "--max-memory", "16M"], "s.lua:3: script needs more memory than the 16 MiB allowed (--max-memory)")
    try write("s.lua", "local x = 1\nlocal s = string.rep('x', 1 << 30)")
    try fails(["s.lua"], "s.lua:2: script needs more memory than the 1 GiB allowed (--max-memory)")
    try write("s.lua", "local s = 'x'\nfor i = 1, 40 do s = s .. s end")
    try fails(["s.lua", "--max-memory", "100M"], "s.lua:2: script needs more memory than the 100 MiB allowed (--max-memory)")
    // Objects made on the Swift side count too.
    try write("s.lua", "local d = cs.data.sample()[1]\nwhile true do\n  local c = cs.chart{ data = d }\nend")
    try fails(["s.lua", "--max-memory", "32M"], "s.lua:3: script needs more memory than the 32 MiB allowed (--max-memory)")
    // A canvas records at most a million shapes a frame.
    try write("s.lua", "return cs.scene{ width = 100, height = 100, root = cs.canvas{ draw = function(g)\n  while true do g:rect(0, 0, 1, 1):fill() end\nend } }")
    // (--max-time 300: the draw call gets a tenth, time enough for a million shapes in a
    // debug build on a busy machine.)
    try fails(["s.lua", "--max-time", "300"], "s.lua:2: a canvas may draw at most 1000000 shapes and texts a frame")
    // A Graphics lives for its draw call only (frames do not pile up in memory).
    try write("a.lua", "local kept\nreturn cs.scene{ width = 100, height = 100, duration = 0.2, fps = 10, root = cs.canvas{ draw = function(g)\n  if kept then kept:rect(0, 0, 1, 1) end\n  kept = g\nend } }")
    try fails(["a.lua", "-o", "a.gif"], "a.lua:3: 'rect' on a Graphics of an earlier draw call (draw with the g this call was given)")
    // A CSV file is read in blocks; its columns of numbers must fit in the cap (refused
    // from the size of the first rows, before the rest is read).
    try write("big.csv", "t,a\n" + (0..<600_000).map { "\(1_546_300_800 + $0 * 60),1\n" }.joined())
    try write("s.lua", "local d = cs.data.csv('big.csv')")
    try fails(["s.lua", "--max-memory", "8M"], "s.lua:1: big.csv: the data needs about 9.")
    try fails(["s.lua", "--max-memory", "8M"], "MiB as columns of numbers, more than --max-memory leaves (7.")
    // A JSON file may take a quarter of the cap.
    try write("big.json", "[" + String(repeating: "{\"t\": 1, \"a\": 1},", count: 200_000) + "{}]")
    try write("s.lua", "local d = cs.data.json('big.json')")
    try fails(["s.lua", "--max-memory", "8M"], "the file is larger than 2 MiB (a quarter of --max-memory)")
  }

  func testDeepRecursionStopsCleanly() throws {
    try write("s.lua", "local function f(n)\n  return f(n + 1) + 1\nend\nf(1)")
    try fails(["s.lua"], "s.lua:2: stack overflow")
    try write("s.lua", "local t = setmetatable({}, { __index = function(t, k) return t[k .. 'x'] end })\nreturn t.a")
    try fails(["s.lua"], "s.lua:1: C stack overflow")
    try write("s.lua", "local function f() return coroutine.wrap(f)() end\nf()")
    try fails(["s.lua"], "s.lua:1: C stack overflow")
    // Views nested deeper than layout may recurse (built bottom-up, so Lua never sees it).
    try write("s.lua", "local v = cs.spacer{}\nfor i = 1, 100000 do\n  v = cs.vstack{ v }\nend\nreturn cs.scene{ root = v }")
    try fails(["s.lua"], "s.lua:3: views are nested more than 100 levels deep in cs.vstack")
    try write("s.lua", "local v = cs.spacer{}\nfor i = 1, 100000 do\n  v = cs.tabs{ { title = 'a', view = v } }\nend\nreturn cs.scene{ root = v }")
    try fails(["s.lua"], "s.lua:3: views are nested more than 100 levels deep in cs.tabs")
    // Deeply nested JSON.
    try write("deep.json", String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000))
    try write("s.lua", "local d = cs.data.telegram('deep.json')")
    try fails(["s.lua"], "s.lua:1: deep.json: invalid JSON at byte 512 (line 1, column 513): nesting deeper than 512 levels")
  }

  func testBadLimitOptions() throws {
    try write("s.lua", "return cs.scene{ root = cs.spacer{} }")
    for (args, expected) in [(["--max-time", "0"], "bad --max-time 0"), (["--max-time", "nan"], "bad --max-time"),
                             (["--max-memory", "lots"], "bad --max-memory 'lots'"), (["--max-memory", "100K"], "bad --max-memory '100K'")] {
      let before = try snapshot()
      let r = try run(["s.lua"] + args)
      XCTAssertEqual(r.status, 64, r.stderr)
      XCTAssertTrue(r.stderr.hasPrefix("error: ") && r.stderr.contains(expected), r.stderr)
      XCTAssertEqual(try snapshot(), before)
    }
    let r = try run(["s.lua", "--max-memory", "256M", "--max-time", "3", "-o", "ok.png"])
    XCTAssertEqual(r.status, 0, r.stderr)
  }

  // MARK: 3. Bad data

  func testEveryBadDataFileIsOneLineWithItsPlace() throws {
    let set = ##"[{"columns":[["x",1,2,3],["y0",1,2,3]],"types":{"x":"x","y0":"line"},"names":{"y0":"A"},"colors":{"y0":"#ff0000"}}]"##
    func json(_ from: String, _ to: String) -> String { set.replacingOccurrences(of: from, with: to) }
    let cases: [(String, String, String)] = [
      ("trunc.json", String(set.prefix(30)), "trunc.json: invalid JSON at byte 30 (line 1, column 31): unexpected end of file"),
      ("wrongtype.json", #"[{"columns":{"x":1}}]"#, "wrongtype.json: [0].columns: expected an array, got object"),
      ("ragged.json", json(#"["y0",1,2,3]"#, #"["y0",1,2]"#), "ragged.json: [0].columns[1]: column 'y0' has 2 values, but earlier columns have 3"),
      ("nox.json", json(#"["x",1,2,3],"#, ""), "nox.json: [0].columns: missing the x column"),
      ("dup.json", json(#"["x",1,2,3]"#, #"["x",1,1,3]"#), "dup.json: [0].columns[0][2]: x values must increase (1 is followed by 1)"),
      ("decr.json", json(#"["x",1,2,3]"#, #"["x",3,2,1]"#), "decr.json: [0].columns[0][2]: x values must increase (3 is followed by 2)"),
      ("nan.json", json(#"["y0",1,2,3]"#, #"["y0",1,NaN,3]"#), "nan.json: invalid JSON at byte"),
      ("inf.json", json(#"["y0",1,2,3]"#, #"["y0",1,1e999,3]"#), "inf.json: invalid JSON at byte"),
      ("str.json", json(#"["y0",1,2,3]"#, #"["y0",1,"2",3]"#), "str.json: [0].columns[1][2]: expected a number, got string"),
      ("type.json", json(#""y0":"line""#, #""y0":"pie""#), "type.json: [0].types.y0: unknown type 'pie', expected one of: 'line', 'bar', 'area'"),
      ("color.json", json("#ff0000", "red"), "color.json: [0].colors.y0: bad colour 'red', expected '#RRGGBB'"),
      ("none.json", "[]", "none.json: the file holds no charts"),
      ("nopoints.json", json(#"["x",1,2,3],["y0",1,2,3]"#, #"["x"],["y0"]"#), "nopoints.json: [0].columns: the chart has no points"),
      ("absurd.json", json(#"["x",1,2,3]"#, #"["x",1,2,1e300]"#), "absurd.json: [0].columns[0][3]: x value 1e+300 is out of range"),
      ("ragged.csv", "t,a,b\n2019-01-01,1,2\n2019-01-02,3\n", "ragged.csv: line 3: expected 3 cells, got 2"),
      ("dup.csv", "t,a\n2019-01-01,1\n2019-01-01,2\n", "dup.csv: line 3 repeats the time 2019-01-01 of line 2; remove one of the rows"),
      ("nan.csv", "t,a\n2019-01-01,1\n2019-01-02,x\n", "nan.csv: line 3, column 2: expected a number, got 'x'"),
      ("empty.csv", "", "empty.csv: the file is empty"),
      ("header.csv", "t,a\n", "header.csv: the file has a header but no rows"),
    ]
    for (name, text, expected) in cases {
      try write(name, text)
      let loader = name.hasSuffix(".csv") ? "csv" : "telegram"
      try write("s.lua", "local d = cs.data.\(loader)('\(name)')\nreturn cs.scene{ root = cs.spacer{} }")
      try fails(["s.lua"], "s.lua:1: " + expected)
    }
    // null values and empty cells are gaps, not errors.
    try write("gaps.json", json(#"["y0",1,2,3]"#, #"["y0",1,null,3]"#))
    try write("gaps.csv", "t,a\n2019-01-01,1\n2019-01-02,\n2019-01-03,3\n")
    try write("s.lua", "local a = cs.data.telegram('gaps.json')[1]\nlocal b = cs.data.csv('gaps.csv')\nreturn cs.scene{ width = 200, height = 200, root = cs.vstack{ cs.chart{ data = a }, cs.chart{ data = b } } }")
    let r = try run(["s.lua", "-o", "gaps.png"])
    XCTAssertEqual(r.status, 0, r.stderr)
    XCTAssertEqual(r.stderr, "")
  }

  func testDataPathsMustBeRegularFiles() throws {
    // A device is refused: outside the folders a script may read, and, allowed, not a file.
    try write("s.lua", "local d = cs.data.csv('/dev/zero')")
    try fails(["s.lua"], "s.lua:1: cannot read '/dev/zero': it is outside the folders a script may read")
    try fails(["s.lua", "--allow-read", "/dev"], "s.lua:1: cannot read '/dev/zero': it is not a regular file")
    XCTAssertEqual(mkfifo(dir.appendingPathComponent("pipe.csv").path, 0o600), 0)
    try write("s.lua", "local d = cs.data.csv('pipe.csv')")
    try fails(["s.lua"], "s.lua:1: cannot read '")
  }

  // MARK: 4. Outputs

  /// Runs `chartscene ARGS` in a private mount namespace where `mnt` is a tiny tmpfs, then
  /// lists what is left in it (on stdout). Skips where namespaces are not allowed.
  func runOnTinyDisk(_ args: [String], options: String) throws -> CLI.Result {
    let mnt = dir.appendingPathComponent("mnt")
    try FileManager.default.createDirectory(at: mnt, withIntermediateDirectories: true)
    let probe = try CLI.run(["-rm", "sh", "-c", "mount -t tmpfs -o \(options) tmpfs \"$0\"", mnt.path], cwd: dir, executable: URL(fileURLWithPath: "/usr/bin/unshare"))
    guard probe.status == 0 else { throw XCTSkip("no private tmpfs here: \(probe.stderr)") }
    let sh = "mount -t tmpfs -o \(options) tmpfs \"$0\" || exit 99; \"$@\"; rc=$?; ls -A \"$0\"; exit $rc"
    return try CLI.run(["-rm", "sh", "-c", sh, mnt.path, CLI.binary.path] + args, cwd: dir, executable: URL(fileURLWithPath: "/usr/bin/unshare"))
  }

  func testDiskFullIsOneCleanLine() throws {
    try write("s.lua", "return cs.scene{ width = 800, height = 600, root = cs.chart{ data = cs.data.sample()[1] } }")
    for out in ["mnt/x.png", "mnt/x.svg", "mnt/x.pdf"] {
      let r = try runOnTinyDisk(["s.lua", "-o", out], options: "size=8k")
      XCTAssertEqual(r.status, 1, r.stderr)
      XCTAssertEqual(r.stderr, "error: cannot write '\(out)': No space left on device\n")
      XCTAssertEqual(r.stdout, "", "left behind on the full disk")
    }
    try write("a.lua", "return cs.scene{ width = 400, height = 300, duration = 1, fps = 10, root = cs.chart{ data = cs.data.sample()[1] } }")
    let seq = try runOnTinyDisk(["a.lua", "-o", "mnt/f-%04d.png"], options: "size=8k")
    XCTAssertEqual(seq.status, 1, seq.stderr)
    XCTAssertEqual(seq.stderr, "error: cannot write 'mnt/f-0000.png': No space left on device\n")
    XCTAssertEqual(seq.stdout, "", "left behind on the full disk")
    let r = try runOnTinyDisk(["a.lua", "-o", "mnt/a.mp4"], options: "size=4k")
    XCTAssertEqual(r.status, 1, r.stderr)
    XCTAssertTrue(r.stderr.hasPrefix("error: ") && r.stderr.contains("mnt/a.mp4"), r.stderr)
    XCTAssertEqual(r.stdout, "", "left behind on the full disk")
  }

  func testReadOnlyAndForbiddenFolders() throws {
    try write("s.lua", "return cs.scene{ width = 100, height = 100, root = cs.spacer{} }")
    let r = try runOnTinyDisk(["s.lua", "-o", "mnt/x.png"], options: "ro,size=64k")
    XCTAssertEqual(r.status, 1, r.stderr)
    XCTAssertEqual(r.stderr, "error: cannot write 'mnt/x.png': Read-only file system\n")
    // A folder the user may not write to (run as 'nobody'; root could write anywhere).
    let locked = dir.appendingPathComponent("locked")
    try FileManager.default.createDirectory(at: locked, withIntermediateDirectories: true)
    try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: dir.path)
    try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: dir.appendingPathComponent("s.lua").path)
    guard getuid() == 0, FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv") else { return }
    let p = try CLI.run(["--reuid=65534", "--regid=65534", "--clear-groups", CLI.binary.path, "s.lua", "-o", "locked/x.png"],
                        cwd: dir, executable: URL(fileURLWithPath: "/usr/bin/setpriv"))
    if p.stderr.contains("Permission denied") && !p.stderr.contains("locked") { throw XCTSkip("the build folder is not readable by nobody") }
    XCTAssertEqual(p.status, 1, p.stderr)
    XCTAssertEqual(p.stderr, "error: cannot write 'locked/x.png': Permission denied\n")
    XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: locked.path), [])
  }

  func testInterruptedAnimationLeavesNothing() throws {
    try write("a.lua", "return cs.scene{ width = 1280, height = 960, duration = 30, fps = 30, root = cs.chart{ data = cs.data.sample()[1] } }")
    for out in ["a.mp4", "frames-%04d.png"] {
      let before = try snapshot()
      let p = Process()
      p.executableURL = CLI.binary
      p.arguments = ["a.lua", "-o", out]
      p.currentDirectoryURL = dir
      p.standardError = FileHandle.nullDevice
      try p.run()
      // Wait until the first temporary file shows, then interrupt.
      let start = Date()
      while Date().timeIntervalSince(start) < 20 {
        if try FileManager.default.contentsOfDirectory(atPath: dir.path).contains(where: { $0.hasPrefix(".chartscene-") }) { break }
        usleep(20_000)
      }
      XCTAssertTrue(p.isRunning, "finished before it could be interrupted")
      kill(p.processIdentifier, SIGINT)
      p.waitUntilExit()
      XCTAssertEqual(p.terminationStatus, 128 + SIGINT, "\(p.terminationReason == .exit ? "exit" : "signal")")
      XCTAssertEqual(try snapshot(), before, "\(out): interrupted render left files")
    }
  }
}
