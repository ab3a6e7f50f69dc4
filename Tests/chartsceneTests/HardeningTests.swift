import Foundation
import XCTest

/// Issue 14: the holes a review and an attack found (items 3, 4, 5, 7, 8, 9, 10, 11). Each
/// case runs the real executable in a fresh folder, like SafetyTests, and asserts the one
/// line, the exit status, the time taken and that the folder is as before.
final class HardeningTests: FolderCase {
  let stillScene = "return cs.scene{ width = 100, height = 100, root = cs.spacer{} }"
  let shortAnimation = "return cs.scene{ width = 60, height = 40, duration = 0.2, fps = 10, root = cs.spacer{} }"

  // MARK: 3. Host metatables and closing the state

  func testHostMetatablesCannotBeReached() throws {
    // A finalizer added to a host type's metatable would run for every later object, also
    // while the state closes, where no hook can stop it: the PNG was written, then the
    // process never exited.
    try write("s.lua", "local t = cs.text{ text = 'hi' }\ngetmetatable(t).__gc = function() while true do end end\nreturn cs.scene{ width = 100, height = 100, root = cs.text{ text = 'b' } }")
    try fails(["s.lua"], "s.lua:2: attempt to index a boolean value", seconds: 5)
    // getmetatable gives false for every host object; replacing __index is not possible either.
    try write("ok.lua", """
      local objects = { cs.text{ text = 'a' }, cs.chart{ data = cs.data.sample()[1] }, cs.data.sample()[1], cs.spacer{}, cs.tap{ at = 0, pos = {1, 1} } }
      for i, o in ipairs(objects) do assert(getmetatable(o) == false, 'metatable of #' .. i) end
      assert(not pcall(rawset, getmetatable(objects[1]) or 1, '__gc', print))
      \(stillScene)
      """)
    let r = try run(["ok.lua", "-o", "ok.png"])
    XCTAssertEqual(r.status, 0, r.stderr)
    XCTAssertEqual(r.stderr, "")
    XCTAssertLessThan(r.seconds, 10)
  }

  // MARK: 4. Nested limits: a preset loaded inside a call keeps the call watched

  func testAPresetDoesNotUnwatchTheScript() throws {
    try write("s.lua", "local c = cs.chart{ preset = 'night', data = cs.data.sample()[1] }\nlocal s = string.rep('a', 100000)\nreturn s:find('.-.-.-.-.-.-b')")
    try fails(["s.lua", "--max-time", "0.2"], "s.lua:3: script ran for too long (over 0.2 s; --max-time) in a library function that cannot be interrupted", seconds: 6)
    // Inside a timeline call during an MP4: nothing is left behind either.
    try write("a.lua", """
      local s = string.rep('a', 100000)
      return cs.scene{ width = 100, height = 100, duration = 1, fps = 10, root = cs.spacer{},
        timeline = { cs.call{ at = 0.2, fn = function()
          local c = cs.chart{ preset = 'night', data = cs.data.sample()[1] }
          return s:find('.-.-.-.-.-.-b')
        end } } }
      """)
    try fails(["a.lua", "-o", "a.mp4", "--max-time", "0.2"], "a.lua:5: script ran for too long (over 0.02 s; --max-time) in a library function that cannot be interrupted", seconds: 6)
  }

  func testTheWatchdogNamesTheRunningLine() throws {
    try write("s.lua", "local s = string.rep('a', 100000)\nlocal x = 1\nlocal y = x + 1\nreturn s:match('.-.-.-.-.-.-b')")
    try fails(["s.lua", "--max-time", "0.2"], "s.lua:4: script ran for too long (over 0.2 s; --max-time) in a library function that cannot be interrupted", seconds: 6)
  }

  // MARK: 5. Traps, padding, signals, temporary names

  func testNumbersThatBecomeIntegersAreChecked() throws {
    for n in ["1e300", "-1e300", "0/0", "1/0", "2.5", "math.maxinteger"] {
      try write("s.lua", "return cs.scene{ width = 100, height = 100, root = cs.tabs{ selected = \(n), { title = 'a', view = cs.spacer{} } } }")
      try fails(["s.lua"], "s.lua:1: bad field 'selected' in cs.tabs")
    }
    // From update, mid-render: no temporary frame, no orphan segment.
    try write("a.lua", """
      return cs.scene{ width = 100, height = 100, duration = 3, fps = 30, root = cs.spacer{},
        update = function(t)
          if t > 1 then cs.tabs{ selected = 1e300, { title = 'a', view = cs.spacer{} } } end
        end }
      """)
    try fails(["a.lua", "-o", "a.mp4"], "a.lua:3: bad field 'selected' in cs.tabs")
    try fails(["a.lua", "-o", "f-%04d.png"], "a.lua:3: bad field 'selected' in cs.tabs")
    try write("s.lua", stillScene)
    try fails(["s.lua", "--at", "1e300"], "bad --at 1e+300 (seconds, at most 3600)", status: 64)
    try fails(["s.lua", "--at", "-1"], "bad --at -1.0 (seconds, 0 or more)", status: 64)
    try fails(["s.lua", "--at", "inf"], "bad --at inf (seconds, 0 or more)", status: 64)
  }

  func testSequenceNamesAreStrict() throws {
    try write("a.lua", shortAnimation)
    for name in ["f-%99999d.png", "f-%10d.png", "f-%n.png", "f-%s.png", "f-%-4d.png", "f-%4d.png", "f-%d-%d.png", "f-%%.png", "f-%x.png"] {
      try fails(["a.lua", "-o", name], "cannot write '\(name)': a PNG sequence takes one %d or %0Nd (N from 1 to 9) in its file name, e.g. NAME-%04d.png", status: 64, seconds: 5)
    }
    for (name, first) in [("f-%d.png", "f-0.png"), ("g-%03d.png", "g-000.png"), ("h%09d.png", "h000000000.png")] {
      let r = try run(["a.lua", "-o", name])
      XCTAssertEqual(r.status, 0, r.stderr)
      XCTAssertTrue(FileManager.default.fileExists(atPath: dir.appendingPathComponent(first).path), name)
    }
  }

  func testSIGTERMDuringAnEncodeExitsWith143() throws {
    try write("a.lua", "return cs.scene{ width = 640, height = 480, duration = 30, fps = 30, root = cs.chart{ data = cs.data.sample()[1] } }")
    for (out, sig) in [("a.mp4", SIGTERM), ("a.gif", SIGTERM), ("a.webm", SIGHUP), ("a.mp4", SIGTERM)] {
      let before = try snapshot()
      let p = Process()
      p.executableURL = CLI.binary
      p.arguments = ["a.lua", "-o", out]
      p.currentDirectoryURL = dir
      let err = Pipe()
      p.standardError = err
      try p.run()
      // Wait until ffmpeg's temporary file shows (frames are being encoded), then stop.
      let start = Date()
      while Date().timeIntervalSince(start) < 20 {
        if try FileManager.default.contentsOfDirectory(atPath: dir.path).contains(where: { $0.hasPrefix(".chartscene-") }) { break }
        usleep(20_000)
      }
      usleep(300_000)
      XCTAssertTrue(p.isRunning, "finished before it could be stopped")
      kill(p.processIdentifier, sig)
      let stderr = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
      p.waitUntilExit()
      XCTAssertEqual(p.terminationReason, .exit)
      XCTAssertEqual(p.terminationStatus, 128 + sig, "\(out): \(stderr)")
      XCTAssertFalse(stderr.contains("error:"), "\(out): \(stderr)")
      XCTAssertEqual(try snapshot(), before, "\(out): the stopped render left files")
    }
  }

  func testTwoRunsIntoOneFolderDoNotShareTemporaryFiles() throws {
    try write("a.lua", "return cs.scene{ width = 320, height = 240, duration = 2, fps = 15, root = cs.chart{ data = cs.data.sample()[1] } }")
    let runs = (0..<2).map { _ -> Process in
      let p = Process()
      p.executableURL = CLI.binary
      p.arguments = ["a.lua", "-o", "f-%03d.png"]
      p.currentDirectoryURL = dir
      p.standardError = FileHandle.nullDevice
      return p
    }
    for p in runs { try p.run() }
    for p in runs { p.waitUntilExit(); XCTAssertEqual(p.terminationStatus, 0) }
    let names = try FileManager.default.contentsOfDirectory(atPath: dir.path)
    XCTAssertEqual(names.filter { $0.hasPrefix("f-") }.count, 30)
    XCTAssertEqual(names.filter { $0.hasPrefix(".chartscene-") }, [])
  }

  // MARK: 7. An output read by a callback is refused

  func testAFileReadInACallbackIsNotOverwritten() throws {
    try write("in.png", "t,a\n2019-01-01,1\n")
    try write("s.lua", "return cs.scene{ width = 50, height = 50, root = cs.canvas{ draw = function(g)\n  local d = cs.data.csv('in.png')\nend } }")
    try fails(["s.lua", "-o", "in.png"], "cannot write 'in.png': it is an input of the script ('in.png')")
    try write("f-0001.png", "t,a\n2019-01-01,1\n")
    try write("a.lua", "return cs.scene{ width = 50, height = 50, duration = 0.3, fps = 10, root = cs.spacer{},\n  update = function(t) if t > 0.15 then cs.data.csv('f-0001.png') end end }")
    try fails(["a.lua", "-o", "f-%04d.png"], "cannot write 'f-0001.png': it is an input of the script ('f-0001.png')")
    try write("a.mp4", "t,a\n2019-01-01,1\n")
    try write("b.lua", "return cs.scene{ width = 50, height = 50, duration = 0.3, fps = 10, root = cs.spacer{},\n  update = function(t) if t > 0.15 then cs.data.csv('a.mp4') end end }")
    try fails(["b.lua", "-o", "a.mp4"], "cannot write 'a.mp4': it is an input of the script ('a.mp4')")
  }

  // MARK: 9. One line, no control characters, cut

  func testErrorsAreOneLineWithoutControlCharacters() throws {
    try write("e.lua", "error('\\27]0;owned\\7 x\\r\\nerror: forged')")
    try fails(["e.lua"], "error: e.lua:1: \\x1b]0;owned\\x07 x\\r\\nerror: forged")
    try write("j.json", #"[{"columns":[["x",1,2],["y0",1,2]],"types":{"x":"x","y0":"pie\r\nerror: forged\u001b[2J\u202e"}}]"#)
    try write("j.lua", "local d = cs.data.telegram('j.json')")
    try fails(["j.lua"], #"j.lua:1: j.json: [0].types.y0: unknown type 'pie\r\nerror: forged\x1b[2J\u{202e}', expected one of"#)
    // A long message is cut at 500 characters with an ellipsis.
    try write("l.lua", "error(string.rep('long ', 300))")
    let r = try run(["l.lua", "-o", "out.png"])
    XCTAssertEqual(r.status, 1)
    XCTAssertTrue(r.stderr.hasPrefix("error: l.lua:1: long long"), r.stderr)
    XCTAssertTrue(r.stderr.hasSuffix("…\n"), r.stderr)
    XCTAssertEqual(r.stderr.dropLast().count, 500)
    for scalar in r.stderr.unicodeScalars.dropLast() { XCTAssertGreaterThanOrEqual(scalar.value, 32) }
    // Warnings too.
    try write("w.lua", "local c = cs.chart{ data = cs.data.sample()[1] }\nreturn cs.scene{ width = 100, height = 100, duration = 1, root = c, timeline = { cs.call{ at = 5, fn = function() end } } }")
    let w = try run(["w.lua", "-o", "w.png"])
    XCTAssertEqual(w.status, 0, w.stderr)
    XCTAssertEqual(w.stderr, "warning: w.lua:2: cs.call at 5 s is not before the scene's end (duration 1 s): it never happens\n")
  }

  // MARK: 10. Messages a person can act on

  func testTimelineTargetsAreCheckedWhenTheSceneLoads() throws {
    // A still: the timeline never runs, the typo is still found, at the event's own line.
    try write("s.lua", """
      local d = cs.data.sample()[1]
      return cs.scene{ width = 200, height = 200,
        root = cs.chart{ id = 'deck', data = d },
        timeline = {
          cs.tap{ at = 0.5, target = 'dek' },
        } }
      """)
    try fails(["s.lua"], "error: s.lua:5: cs.tap: no node or part 'dek' (did you mean 'deck'?)")
    try fails(["s.lua", "--inspect"], "error: s.lua:5: cs.tap: no node or part 'dek' (did you mean 'deck'?)")
    try write("p.lua", """
      local d = cs.data.sample()[1]
      return cs.scene{ width = 200, height = 200, duration = 1, fps = 10,
        root = cs.chart{ id = 'deck', data = d },
        timeline = { cs.drag{ at = 0.1, target = 'deck.minimap.windwo', by = {10, 0} } } }
      """)
    try fails(["p.lua", "-o", "p.mp4"], "error: p.lua:4: cs.drag: no node or part 'deck.minimap.windwo' (did you mean 'deck.minimap.window'?)")
    // In a --timeline file, at its own line.
    try write("t.lua", "return {\n  cs.tap{ at = 0.1, target = 'deck.legnd.y0' },\n}")
    try write("ok.lua", "return cs.scene{ width = 200, height = 200, duration = 1, fps = 10, root = cs.chart{ id = 'deck', data = cs.data.sample()[1] } }")
    try fails(["ok.lua", "--timeline", "t.lua", "-o", "o.gif"], "error: t.lua:2: cs.tap: no node or part 'deck.legnd.y0' (did you mean 'deck.legend.y0'?)")
    // A part that exists but is not shown when the event starts fails then, at its line.
    try write("c.lua", """
      return cs.scene{ width = 300, height = 400, duration = 1, fps = 10,
        root = cs.cards{ id = 'stack', cs.card{ id = 'deck', data = cs.data.sample()[1] } },
        timeline = { cs.tap{ at = 0.8, target = 'deck.minimap' } } }
      """)
    try fails(["c.lua", "-o", "c.gif"], "error: c.lua:3: cs.tap at 0.8 s: no node or part 'deck.minimap' in the scene")
    // Names that exist pass.
    try write("t.lua", "return {\n  cs.tap{ at = 0.1, target = 'deck.legend.y0' },\n  cs.tap{ at = 0.2, target = 'deck' },\n  cs.tap{ at = 0.3, target = 'deck.plot' },\n}")
    let r = try run(["ok.lua", "--timeline", "t.lua", "-o", "o.png"])
    XCTAssertEqual(r.status, 0, r.stderr)
    XCTAssertEqual(r.stderr, "")
  }

  func testTypoSuggestionsCatchSwappedLetters() throws {
    for (code, expected) in [
      ("cs.chart{ titel = 'x', data = cs.data.sample()[1] }", "s.lua:1: unknown key 'titel' in cs.chart (did you mean 'title'?)"),
      ("cs.scene{ widht = 10, root = cs.spacer{} }", "s.lua:1: unknown key 'widht' in cs.scene (did you mean 'width'?)"),
      ("cs.data.csv('d.csv', { delimeter = ';' })", "s.lua:1: unknown key 'delimeter' in cs.data.csv (did you mean 'delimiter'? keys are 'name', 'x', 'timeFormat', 'columns', 'series', 'value', 'missing', 'delimiter', 'sort', 'gaps', 'names', 'colors')"),
      ("cs.data.csv('d.csv', { sep = ';' })", "s.lua:1: unknown key 'sep' in cs.data.csv (keys are 'name', 'x', 'timeFormat', 'columns', 'series', 'value', 'missing', 'delimiter', 'sort', 'gaps', 'names', 'colors')"),
      ("cs.data.series{ x = {1, 2}, lines = { { id = 'a', vlaues = {1, 2} } } }", "s.lua:1: unknown key 'vlaues' in cs.data.series lines[1] (did you mean 'values'? keys are 'id', 'name', 'color', 'values', 'type')"),
      ("cs.data.series{ x = {1, 2}, line = {} }", "s.lua:1: unknown key 'line' in cs.data.series (did you mean 'lines'? keys are 'name', 'x', 'lines')"),
    ] {
      try write("d.csv", "t,a\n2019-01-01,1\n")
      try write("s.lua", "local v = " + code)
      try fails(["s.lua"], expected)
    }
  }

  func testCStackOverflowNamesALine() throws {
    for code in [
      "local t = setmetatable({}, { __tostring = function(t) return tostring(t) end })\nprint(t)",
      "local x = 1\nlocal function f(s) return (s:gsub('.', f)) end\nf('abc')",
    ] {
      try write("s.lua", code)
      let r = try run(["s.lua", "-o", "out.png"])
      XCTAssertEqual(r.status, 1)
      XCTAssertTrue(r.stderr.hasPrefix("error: s.lua:") && r.stderr.hasSuffix(": C stack overflow\n"), r.stderr)
      XCTAssertNotNil(Int(r.stderr.dropFirst("error: s.lua:".count).prefix(while: { $0 != ":" })), r.stderr)
    }
  }

  // MARK: security.md: the rows of the limits table not covered by SafetyTests

  func testTheRemainingLimitsOfSecurityMd() throws {
    try write("big.lua", String(repeating: " ", count: 17 << 20))
    try fails(["big.lua"], "error: cannot read 'big.lua': the file is larger than 16 MiB")
    try write("s.lua", stillScene)
    try write("presets/fat.lua", "return {" + String(repeating: " ", count: 1100 << 10) + "}")
    try fails(["s.lua", "--preset", "fat"], "cannot read './presets/fat.lua': the file is larger than 1 MiB")
    for (field, value, expected) in [("width", "1e9", "bad field 'width' in cs.scene (must be between 1 and 16384, got 1000000000)"),
                                     ("fps", "1000", "bad field 'fps' in cs.scene (must be between 1 and 240, got 1000)"),
                                     ("duration", "1e9", "bad field 'duration' in cs.scene (must be between 0 and 3600, got 1000000000)")] {
      try write("w.lua", "return cs.scene{ \(field) = \(value), root = cs.spacer{} }")
      try fails(["w.lua"], "w.lua:1: " + expected)
    }
    // Timeline files run in the script's sandbox, with its limits.
    try write("t.lua", "local f = io.open('out.png', 'w')")
    try fails(["s.lua", "--timeline", "t.lua"], "t.lua:1: 'io' is not available in chartscene scripts")
    try write("t.lua", "local n = 0\nwhile true do n = n + 1 end")
    try fails(["s.lua", "--timeline", "t.lua", "--max-time", "0.2"], "t.lua:2: script ran for too long (over 0.2 s; --max-time)", seconds: 4)
    try write("t.lua", "local t = {}\nfor i = 1, 1e9 do t[i] = i end")
    try fails(["s.lua", "--timeline", "t.lua", "--max-memory", "32M"], "t.lua:2: script needs more memory than the 32 MiB allowed (--max-memory)")
  }

  // MARK: security.md: sandbox rows not covered by SafetyTests

  func testSandboxRowsOfSecurityMd() throws {
    for (code, expected) in [("collectgarbage()", "s.lua:1: 'collectgarbage' is not available in chartscene scripts"),
                             ("os.setlocale('C')", "s.lua:1: 'os.setlocale' is not available in chartscene scripts"),
                             ("os.difftime(1, 2)", "s.lua:1: 'os.difftime' is not available in chartscene scripts")] {
      try write("s.lua", code + "\n" + stillScene)
      try fails(["s.lua"], expected)
    }
    // print writes to standard error (standard output carries --inspect JSON); math.random
    // gives the same numbers on every run; load takes text chunks; the allowed os functions work.
    try write("p.lua", """
      print('hello', math.random(1000000), math.random())
      assert(load('return 1 + 1')() == 2)
      assert(type(os.time()) == 'number' and type(os.clock()) == 'number' and type(os.date('%Y')) == 'string')
      assert(utf8.len('é') == 1 and table.concat({1, 2}, ',') == '1,2' and coroutine.wrap(function() return 3 end)() == 3)
      \(stillScene)
      """)
    let a = try run(["p.lua", "--inspect"]), b = try run(["p.lua", "--inspect"])
    XCTAssertEqual(a.status, 0, a.stderr)
    XCTAssertTrue(a.stdout.hasPrefix("{"), a.stdout)
    XCTAssertTrue(a.stderr.hasPrefix("hello\t"), a.stderr)
    XCTAssertEqual(a.stderr, b.stderr)
    XCTAssertEqual(a.stdout, b.stdout)
  }

  // MARK: 11. The exit-status table (docs/lua-api.md, Command line)

  func testExitStatusTable() throws {
    try write("s.lua", stillScene)
    try write("a.lua", shortAnimation)
    try write("bad.lua", "local x = 1\nlocal = 2")
    try write("data.lua", "local d = cs.data.csv('none.csv')")
    try write("big.lua", "return cs.scene{ width = 16000, height = 16000, root = cs.spacer{} }")
    // 64: the command line itself is wrong (checked before the script runs).
    let usage: [([String], String)] = [
      (["s.lua", "--bogus"], "Unknown option '--bogus'"),
      (["s.lua", "--fps", "0"], "bad --fps 0.0 (1 to 240)"),
      (["s.lua", "--size", "10x"], "bad --size '10x'"),
      (["s.lua", "--size", "-1x5"], "bad --size '-1x5' (expected WxH, e.g. 720x1280, each 1 to 16384)"),
      (["s.lua", "--size", "x"], "bad --size 'x'"),
      (["s.lua", "--at", "-1"], "bad --at -1.0 (seconds, 0 or more)"),
      (["s.lua", "--at", "4000"], "bad --at 4000.0 (seconds, at most 3600)"),
      (["s.lua", "--theme", "dusk"], "invalid theme 'dusk' for --theme, expected one of: 'day', 'night'"),
      (["s.lua", "--scale", "0"], "bad --scale 0.0 (must be above 0 and at most 16)"),
      (["s.lua", "--scale", "-2"], "bad --scale -2.0 (must be above 0 and at most 16)"),
      (["s.lua", "--max-time", "0"], "bad --max-time 0.0"),
      (["s.lua", "--max-memory", "lots"], "bad --max-memory 'lots'"),
      (["s.lua", "-o", "out.docx"], "cannot write 'out.docx': unknown output format '.docx'"),
      (["s.lua", "-o", "f-%n.png"], "cannot write 'f-%n.png': a PNG sequence takes one %d"),
      (["a.lua", "-o", "a.mp4", "--at", "1"], "--at picks one frame of a still output"),
      (["a.lua", "-o", "a.png", "--frames", "0-1"], "--frames needs an animated output"),
      (["s.lua", "--frames", "0-1"], "--frames needs an animated output"),
      (["a.lua", "-o", "a.gif", "--frames", "5-9"], "bad --frames 5-9: the scene has frames 0-1"),
      (["s.lua", "--at", "1", "--frames", "0-1"], "--at and --frames cannot be used together"),
      (["s.lua", "--record", "r.lua"], "--record needs --live"),
      (["preset", "show"], "'preset show' needs a preset name"),
      (["preset", "bogus"], "bogus"),
    ]
    for (args, expected) in usage {
      let before = try snapshot()
      let r = try run(args)
      XCTAssertEqual(r.status, 64, "\(args): \(r.stderr)")
      XCTAssertTrue(r.stderr.hasPrefix("error: ") && r.stderr.contains(expected), "\(args): \(r.stderr)")
      XCTAssertEqual(r.stderr.filter { $0 == "\n" }.count, 1, "\(args): \(r.stderr)")
      XCTAssertEqual(try snapshot(), before, "\(args)")
    }
    // 1: the run failed (script, data, preset, files, output, image size).
    let failures: [([String], String)] = [
      (["bad.lua"], "bad.lua:2: <name> expected near '='"),
      (["nothere.lua"], "cannot read 'nothere.lua'"),
      (["data.lua"], "data.lua:1: cannot read 'none.csv'"),
      (["s.lua", "--preset", "nope"], "preset 'nope' not found"),
      (["s.lua", "-o", "no/x.png"], "the folder 'no' does not exist"),
      (["big.lua", "--scale", "4"], "the image would be 64000x64000 pixels"),
      (["s.lua", "-o", "s.lua.png", "--max-memory", "64M", "--timeline", "missing.lua"], "cannot read 'missing.lua'"),
    ]
    for (args, expected) in failures {
      let before = try snapshot()
      let r = try run(args)
      XCTAssertEqual(r.status, 1, "\(args): \(r.stderr)")
      XCTAssertTrue(r.stderr.hasPrefix("error: ") && r.stderr.contains(expected), "\(args): \(r.stderr)")
      XCTAssertEqual(try snapshot(), before, "\(args)")
    }
    // 0: success, and --help.
    XCTAssertEqual(try run(["s.lua", "-o", "ok.png"]).status, 0)
    XCTAssertEqual(try run(["--help"]).status, 0)
    XCTAssertEqual(try run(["s.lua", "--size", "320x240", "--scale", "0.5", "--at", "0", "--theme", "night", "-o", "ok.svg"]).status, 0)
    // A still written as a video says what it does.
    let v = try run(["s.lua", "-o", "still.mp4"])
    XCTAssertEqual(v.status, 0, v.stderr)
    XCTAssertEqual(v.stderr, "warning: the scene is a still (duration 0): 'still.mp4' holds its one frame (give cs.scene a duration to animate it)\n")
    XCTAssertTrue(FileManager.default.fileExists(atPath: dir.appendingPathComponent("still.mp4").path))
  }
}
