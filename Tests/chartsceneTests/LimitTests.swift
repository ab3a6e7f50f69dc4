import Foundation
import Glibc
import XCTest

/// Issue 14, item 6: limits that limit. Each case runs the built executable and measures
/// its peak memory (with every ffmpeg it ran) and its time.
final class LimitTests: XCTestCase {
  var dir: URL!

  override func setUpWithError() throws {
    dir = FileManager.default.temporaryDirectory.appendingPathComponent("chartscene-limits-" + UUID().uuidString)
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
  }
  override func tearDownWithError() throws { try? FileManager.default.removeItem(at: dir) }

  func write(_ name: String, _ text: String) throws -> String {
    let u = dir.appendingPathComponent(name)
    try text.write(to: u, atomically: true, encoding: .utf8)
    return u.path
  }

  struct Run { var status: Int32; var stderr: String; var peakMB: Double; var seconds: Double }

  /// Runs chartscene (`-o` names a file in the folder); `peakMB` is the largest resident set of the process and
  /// of the children it waited for (ffmpeg), from wait4.
  ///
  /// Linux counts in a spawned child's peak the test runner's own high-water mark at the exec
  /// (posix_spawn shares the runner's memory until then): in a whole `swift test` run that floor
  /// was ~100 MB (the runner maps every embedded asset, fonts included, and has run hundreds of
  /// tests). `floorMB` is the bound the checks use for "no more than a small render".
  static let floorMB = 128.0
  func run(_ args: [String]) throws -> Run {
    let errPath = dir.appendingPathComponent("stderr.txt").path
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 2, errPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    // Outputs go into the folder.
    var argv = [CLI.binary.path]
    for (k, a) in args.enumerated() { argv.append(k > 0 && args[k - 1] == "-o" ? dir.appendingPathComponent(a).path : a) }
    var cargs = argv.map { strdup($0) } + [nil]
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

  func assertOneError(_ r: Run, _ expected: String, file: StaticString = #filePath, line: UInt = #line) {
    XCTAssertEqual(r.status, 1, r.stderr, file: file, line: line)
    XCTAssertEqual(r.stderr.split(separator: "\n").count, 1, r.stderr, file: file, line: line)
    XCTAssertTrue(r.stderr.hasPrefix("error: ") && r.stderr.contains(expected), "'\(r.stderr)' lacks '\(expected)'", file: file, line: line)
  }

  /// A 20 MB title on 8 charts took ~4 GB under --max-memory 64M (Pango laid it out on
  /// every painter).
  func testHugeTitleIsRefusedAtItsLine() throws {
    let s = try write("title.lua", """
      local d = cs.data.sample()
      local t = string.rep("x", 20 * 1024 * 1024)
      local kids = {}
      for i = 1, 8 do kids[i] = cs.chart{ data = d[1], title = t } end
      return cs.scene{ width = 640, height = 480, root = cs.vstack(kids) }
      """)
    let r = try run([s, "-o", "out.png", "--max-memory", "64M"])
    assertOneError(r, "title.lua:4: bad field 'title' in cs.chart (a text of at most 10000 bytes expected, got 20971520 bytes)")
    XCTAssertLessThan(r.peakMB, 200)
    // The same title at the limit is drawn (clipped by the chart), and g:text and cs.text
    // have the same limit.
    let ok = try write("ok.lua", """
      local t = string.rep("x", 10000)
      return cs.scene{ width = 320, height = 240, root = cs.vstack{ cs.chart{ data = cs.data.sample()[1], title = t }, cs.text{ text = t } } }
      """)
    XCTAssertEqual(try run([ok, "-o", "ok.png"]).status, 0)
    let text = try write("text.lua", "return cs.scene{ width = 320, height = 240, root = cs.text{ text = string.rep('é', 5001) } }")
    assertOneError(try run([text, "-o", "out.png"]), "text.lua:1: bad field 'text' in cs.text (a text of at most 10000 bytes expected, got 10002 bytes)")
    let canvas = try write("canvas.lua", """
      return cs.scene{ width = 320, height = 240, root = cs.canvas{ draw = function(g, w, h)
        g:text(string.rep("x", 10001), 0, 0)
      end } }
      """)
    assertOneError(try run([canvas, "-o", "out.png"]), "canvas.lua:2: bad argument #2 to 'text' (a text of at most 10000 bytes expected, got 10001 bytes)")
  }

  /// A 10 MB line name in a data file took 1.25 GB.
  func testHugeNameInADataFileIsRefused() throws {
    let name = String(repeating: "n", count: 10 << 20)
    _ = try write("big.json", """
      [{"columns":[["x",1000,2000,3000],["y0",1,2,3]],"types":{"x":"x","y0":"line"},"names":{"y0":"\(name)"},"colors":{"y0":"#3366cc"}}]
      """)
    let s = try write("name.lua", "return cs.scene{ width = 320, height = 240, root = cs.chart{ data = cs.data.telegram('big.json')[1] } }")
    let r = try run([s, "-o", "out.png"])
    assertOneError(r, "name.lua:1: big.json: the name of line 'y0' is 10485760 bytes long (at most 10000)")
    XCTAssertLessThan(r.peakMB, 300)
    let csv = try write("big.csv", "time,\(name)\n1000,1\n2000,2\n")
    _ = csv
    let c = try write("csv.lua", "return cs.scene{ width = 320, height = 240, root = cs.chart{ data = cs.data.csv('big.csv') } }")
    assertOneError(try run([c, "-o", "out.png"]), "csv.lua:1: big.csv: the name of line 'y0' is 10485760 bytes long (at most 10000)")
    let inline = try write("series.lua", """
      return cs.scene{ width = 320, height = 240, root = cs.chart{ data = cs.data.series{ x = {1, 2}, lines = { { id = "a", values = {1, 2}, name = string.rep("n", 20000) } } } } }
      """)
    assertOneError(try run([inline, "-o", "out.png"]), "bad field 'name' in cs.data.series lines[1] (a text of at most 10000 bytes expected, got 20000 bytes)")
  }

  /// Texts a canvas draws were not counted: 100,000 texts of 9,000 bytes a frame are 900 MB.
  func testCanvasTextsCountAgainstTheMemoryLimit() throws {
    let s = try write("canvas.lua", """
      local s = string.rep("x", 9000)
      return cs.scene{ width = 320, height = 240, root = cs.canvas{ draw = function(g, w, h)
        for i = 1, 100000 do g:text(s, 0, 0) end
      end } }
      """)
    let r = try run([s, "-o", "out.png", "--max-memory", "64M"])
    assertOneError(r, "canvas.lua:3: script needs more memory than the 64 MiB allowed (--max-memory)")
    XCTAssertLessThan(r.peakMB, 300)
    XCTAssertFalse(FileManager.default.fileExists(atPath: dir.appendingPathComponent("out.png").path))
    // What a draw call was charged is given back when it ends: 6 MB of texts a frame, for
    // 20 frames, under a 64 MiB cap.
    let frames = try write("frames.lua", """
      local s = string.rep("x", 6000)
      return cs.scene{ width = 64, height = 48, fps = 10, duration = 2, root = cs.canvas{ draw = function(g, w, h)
        for i = 1, 1000 do g:text(s, 0, 0) end
      end } }
      """)
    let f = try run([frames, "-o", "f-%02d.png", "--max-memory", "64M"])
    XCTAssertEqual(f.status, 0, f.stderr)
  }

  /// Views and their nesting bound the work of layout: 2,000 stacks nested 99 deep took
  /// 33 s to lay out (cubic), and a scene may hold at most 10,000 views.
  func testDeepAndWideTreesLayOutInTimeAndAreCapped() throws {
    let deep = try write("deep.lua", """
      local kids = {}
      for c = 1, 20 do
        local v = cs.text{ text = "x" .. c }
        for i = 1, 98 do v = cs.vstack{ v } end
        kids[c] = v
      end
      return cs.scene{ width = 640, height = 480, root = cs.hstack(kids) }
      """)
    let r = try run([deep, "-o", "deep.png"])
    XCTAssertEqual(r.status, 0, r.stderr)
    XCTAssertLessThan(r.seconds, 10)
    let wide = try write("wide.lua", """
      local kids = {}
      for c = 1, 100 do
        local row = {}
        for i = 1, 100 do row[i] = cs.text{ text = "x" } end
        kids[c] = cs.hstack(row)
      end
      return cs.scene{ width = 640, height = 480, root = cs.vstack(kids) }
      """)
    assertOneError(try run([wide, "-o", "out.png"]), "wide.lua:7: a scene may hold at most 10000 views (cs.vstack would hold 10101)")
    let tabs = try write("tabs.lua", """
      local tabs = {}
      for t = 1, 2 do
        local row = {}
        for i = 1, 5000 do row[i] = cs.spacer{} end
        tabs[t] = { title = "t" .. t, view = cs.vstack(row) }
      end
      return cs.scene{ width = 640, height = 480, root = cs.tabs(tabs) }
      """)
    assertOneError(try run([tabs, "-o", "out.png"]), "tabs.lua:7: a scene may hold at most 10000 views (cs.tabs would hold 10003)")
  }

  /// 4,000 timeline drags took 17 s (each one re-sorted every pending pointer event).
  func testTimelineCostIsLinearInItsEvents() throws {
    func drags(_ n: Int) throws -> Run {
      let s = try write("drags\(n).lua", """
        local tl = {}
        for i = 1, \(n) do
          tl[i] = cs.drag{ at = (i - 1) * \(10.0 / Double(n)), target = "c.minimap.window", by = { (i % 2 == 0) and 5 or -5, 0 }, duration = 0.5 }
        end
        return cs.scene{ width = 320, height = 240, duration = 10.5, fps = 30, timeline = tl, root = cs.chart{ id = "c", data = cs.data.sample()[1] } }
        """)
      return try run([s, "--at", "10.4", "-o", "d\(n).png"])
    }
    let small = try drags(2000), large = try drags(8000)
    XCTAssertEqual(small.status, 0, small.stderr)
    XCTAssertEqual(large.status, 0, large.stderr)
    // Quadratic work would make 4 times the events take 16 times as long.
    XCTAssertLessThan(large.seconds, 8 * small.seconds + 2, "2,000 drags: \(small.seconds) s, 8,000: \(large.seconds) s")
    XCTAssertLessThan(large.seconds, 30)
  }

  /// A data file held whole (JSON) may be at most half of what the memory limit leaves (it
  /// and what is decoded from it are held at once), and a quarter of the limit. A CSV file is
  /// read in blocks: its columns of numbers must fit in what the limit leaves.
  func testDataFilesAreHeldToWhatTheMemoryLimitLeaves() throws {
    var json = "["
    var csv = "time,a\n"
    for k in 0..<400_000 {
      json += "{\"time\": \(1_000_000 + k * 1000), \"a\": \(k % 97)},"
      csv += "\(1_000_000 + k * 1000),\(k % 97)\n"
    }
    _ = try write("d.json", json + "{\"time\": 1, \"a\": 1}]")  // 11 MB
    _ = try write("d.csv", csv)  // 5.6 MB; about 7 MiB of columns, estimated from the first rows
    let s = try write("d.lua", """
      local keep = {}
      for i = 1, 56 do keep[i] = string.rep("x", 1024 * 1024 - i) end
      return cs.scene{ width = 320, height = 240, root = cs.chart{ data = cs.data.json("d.json") } }
      """)
    let r0 = try run([s, "-o", "out.png", "--max-memory", "64M"])
    assertOneError(r0, "d.lua:3: cannot read '")
    assertOneError(r0, "d.json': the file is larger than 3 MiB (half of what --max-memory leaves)")
    let plain = try write("p.lua", "return cs.scene{ width = 320, height = 240, root = cs.chart{ data = cs.data.json('d.json') } }")
    assertOneError(try run([plain, "-o", "out.png", "--max-memory", "16M"]), "the file is larger than 4 MiB (a quarter of --max-memory)")
    let r = try run([plain, "-o", "out.png", "--max-memory", "64M"])
    XCTAssertEqual(r.status, 0, r.stderr)
    let c = try write("c.lua", """
      local keep = {}
      for i = 1, 60 do keep[i] = string.rep("x", 1024 * 1024 - i) end
      return cs.scene{ width = 320, height = 240, root = cs.chart{ data = cs.data.csv("d.csv") } }
      """)
    let r1 = try run([c, "-o", "out.png", "--max-memory", "64M"])
    assertOneError(r1, "c.lua:3: d.csv: the data needs about 7.0 MiB as columns of numbers, more than --max-memory leaves (")
    let plainCSV = try write("q.lua", "return cs.scene{ width = 320, height = 240, root = cs.chart{ data = cs.data.csv('d.csv') } }")
    let r2 = try run([plainCSV, "-o", "out.png", "--max-memory", "16M"])
    XCTAssertEqual(r2.status, 0, r2.stderr)
  }

  /// ffmpeg's one-pass GIF graph held every frame until the palette was made: memory grew
  /// with the frame count. Now 10 times the frames take (nearly) the same memory.
  func testGIFMemoryDoesNotGrowWithTheFrameCount() throws {
    func gif(_ seconds: Int) throws -> Run {
      let s = try write("g\(seconds).lua", """
        return cs.scene{ width = 400, height = 300, fps = 30, duration = \(seconds), root = cs.canvas{ draw = function(g, w, h, t)
          g:color("#3366cc"):circle(w / 2 + 100 * math.sin(t * 3), h / 2, 40):fill()
        end } }
        """)
      return try run([s, "-o", "g\(seconds).gif"])
    }
    let short = try gif(2), long = try gif(20)  // 60 and 600 frames of 480 KB
    XCTAssertEqual(short.status, 0, short.stderr)
    XCTAssertEqual(long.status, 0, long.stderr)
    XCTAssertLessThan(long.peakMB, short.peakMB + 60, "60 frames: \(short.peakMB) MB, 600 frames: \(long.peakMB) MB")
    let leftovers = try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0.hasPrefix(".chartscene") }
    XCTAssertEqual(leftovers, [])
  }

  /// Writes `bytes` into the folder (large files built at run time, not kept in the repository).
  func writeBytes(_ name: String, _ parts: [String]) throws -> String {
    let u = dir.appendingPathComponent(name)
    _ = FileManager.default.createFile(atPath: u.path, contents: nil)
    let h = try FileHandle(forWritingTo: u)
    defer { try? h.close() }
    for p in parts { try h.write(contentsOf: Data(p.utf8)) }
    return u.path
  }

  /// Attack round, item 4: a 24 MB CSV with 2,000,000 columns aborted (the reader asked for
  /// 4,096 rows × 2,000,000 numbers, 65 GB, up front); 200,000 columns under a 64 MiB cap
  /// took 919 MB. A row of more than 16,384 cells is refused as it is split; the block of
  /// rows read at once is sized from what --max-memory leaves.
  func testWideCSVIsRefusedBeforeItsCellsAreKept() throws {
    let row = String(repeating: ",1", count: 2_000_000)
    _ = try writeBytes("w.csv", ["time" + String(repeating: ",v", count: 2_000_000) + "\n"] + (0..<5).map { "\(1000 + $0 * 1000)" + row + "\n" })
    let s = try write("w.lua", "return cs.scene{ width = 320, height = 240, root = cs.chart{ data = cs.data.csv('w.csv') } }")
    let r = try run([s, "-o", "out.png"])
    assertOneError(r, "w.lua:1: w.csv: line 1: more than 16384 cells (a file may have at most 16384 columns)")
    XCTAssertLessThan(r.peakMB, 150)
    XCTAssertLessThan(r.seconds, 10)
    // 200,000 columns under a 64 MiB cap: the same line, at once.
    _ = try writeBytes("m.csv", ["time" + String(repeating: ",v", count: 200_000) + "\n"] + (0..<5).map { "\(1000 + $0 * 1000)" + String(repeating: ",1", count: 200_000) + "\n" })
    let m = try write("m.lua", "return cs.scene{ width = 320, height = 240, root = cs.chart{ data = cs.data.csv('m.csv') } }")
    let r2 = try run([m, "-o", "out.png", "--max-memory", "64M"])
    assertOneError(r2, "m.lua:1: m.csv: line 1: more than 16384 cells (a file may have at most 16384 columns)")
    XCTAssertLessThan(r2.peakMB, Self.floorMB)
    // 16,000 columns, two of them drawn, under a 64 MiB cap (236 MB before): read, in little memory.
    let header = "time" + (0..<16_000).map { ",v\($0)" }.joined() + "\n"
    _ = try writeBytes("n.csv", [header] + (0..<200).map { r in "\(1000 + r * 1000)" + String(repeating: ",\(r % 10)", count: 16_000) + "\n" })
    let n = try write("n.lua", "return cs.scene{ width = 320, height = 240, root = cs.chart{ data = cs.data.csv('n.csv', { columns = { 2, 3 } }) } }")
    let r3 = try run([n, "-o", "out.png", "--max-memory", "64M"])
    XCTAssertEqual(r3.status, 0, r3.stderr)
    XCTAssertLessThan(r3.peakMB, 120)
  }

  /// Attack round, item 5: long data (`series`, `value`) of 1,000 series × 200,000 times, one
  /// value each (3 MB), took 1.79 GB under a 64 MiB cap: the lines hold a value or a gap at
  /// every time. series × times is charged before the lines are made.
  func testSparseLongDataIsChargedBeforeItsLines() throws {
    var csv = "t,s,v\n"
    for k in 0..<200_000 { csv += "\(1000 + k * 1000),s\(k % 1000),\(k % 7)\n" }
    _ = try write("long.csv", csv)
    let s = try write("long.lua", "return cs.scene{ width = 320, height = 240, root = cs.chart{ data = cs.data.csv('long.csv', { x = 't', series = 's', value = 'v' }) } }")
    let r = try run([s, "-o", "out.png", "--max-memory", "64M"])
    assertOneError(r, "long.lua:1: long.csv: the data needs about 1525.8 MiB as columns of numbers (1000 series × 200000 times), more than --max-memory leaves (")
    XCTAssertLessThan(r.peakMB, 150)
    // JSON records, one key each: the table of records × keys is charged before it is made.
    _ = try write("sparse.json", "[" + (0..<4000).map { "{\"t\":\(1000 + $0 * 1000),\"k\($0)\":1}" }.joined(separator: ",") + "]")
    let j = try write("sparse.lua", "return cs.scene{ width = 320, height = 240, root = cs.chart{ data = cs.data.json('sparse.json', { x = 't', columns = { 'k1' } }) } }")
    let r2 = try run([j, "-o", "out.png", "--max-memory", "64M"])
    assertOneError(r2, "sparse.lua:1: sparse.json: the records need about 366.3 MiB as a table of 4000 rows × 4001 keys, more than --max-memory leaves (")
    XCTAssertLessThan(r2.peakMB, Self.floorMB)
  }

  /// Attack round, item 6: a set of 20,000 lines was drawn (each frame cost lines²: 112 s for a
  /// 2 s animation). Every reader refuses more than 1,000 lines, naming the count.
  func testLinesPerSetAreBoundedForEveryReader() throws {
    func csvFile(_ name: String, _ n: Int) throws {
      _ = try write(name, "time" + (0..<n).map { ",v\($0)" }.joined() + "\n" + (0..<3).map { r in "\(1000 + r * 1000)" + String(repeating: ",\(r)", count: n) + "\n" }.joined())
    }
    try csvFile("c1001.csv", 1001)
    try csvFile("c1000.csv", 1000)
    let cases: [(String, String)] = [
      ("cs.data.csv('c1001.csv')", "c1001.csv: the file has 1001 columns of numbers; a set holds at most 1000 lines; pass columns = the ones to draw"),
      ("cs.data.csv('c1001.csv', { columns = (function() local t = {} for i = 2, 1002 do t[#t + 1] = i end return t end)() })",
       "c1001.csv: columns names 1001 columns; a set holds at most 1000 lines"),
      ("cs.data.json('r.json')", "r.json: the file has 1001 columns of numbers; a set holds at most 1000 lines"),
      ("cs.data.telegram('t.json')[1]", "t.json: [0].columns: the chart has 1001 y columns; a set holds at most 1000 lines"),
      ("cs.data.series{ x = { 1000, 2000 }, lines = (function() local t = {} for i = 1, 1001 do t[i] = { values = { 1, 2 } } end return t end)() }",
       "bad field 'lines' in cs.data.series (at most 1000 lines, got 1001)"),
    ]
    _ = try write("r.json", "[" + (0..<2).map { r in "{\"time\":\(1000 + r * 1000)" + (0..<1001).map { ",\"v\($0)\":\(r)" }.joined() + "}" }.joined(separator: ",") + "]")
    _ = try write("t.json", "[{\"columns\":[[\"x\",1000,2000]" + (0..<1001).map { ",[\"y\($0)\",1,2]" }.joined() + "]}]")
    for (k, (data, expected)) in cases.enumerated() {
      let s = try write("l\(k).lua", "return cs.scene{ width = 320, height = 240, root = cs.chart{ data = \(data) } }")
      let r = try run([s, "-o", "out.png"])
      assertOneError(r, "l\(k).lua:1: " + expected)
      XCTAssertLessThan(r.seconds, 10)
    }
    // 1,000 lines are drawn: 90 frames of them take about 3 s, not lines² (14.5 s when a line
    // was found by id with a linear search, once per line per frame; debug build).
    let ok = try write("ok.lua", "return cs.scene{ width = 320, height = 240, fps = 30, duration = 3, root = cs.chart{ data = cs.data.csv('c1000.csv') } }")
    let r = try run([ok, "-o", "f-%03d.png"])
    XCTAssertEqual(r.status, 0, r.stderr)
    XCTAssertLessThan(r.seconds, 9)
  }

  /// Attack round, item 7: a 200 MB CSV of one line took 605 MB (the block doubled to hold
  /// it). A row longer than 16 MiB is refused as the block would grow past it.
  func testOneHugeLineIsRefused() throws {
    _ = try writeBytes("one.csv", ["time,"] + (0..<40).map { _ in String(repeating: "x", count: 1 << 20) })
    let s = try write("one.lua", "return cs.scene{ width = 320, height = 240, root = cs.chart{ data = cs.data.csv('one.csv') } }")
    let r = try run([s, "-o", "out.png"])
    assertOneError(r, "one.lua:1: one.csv: line 1 is longer than 16 MiB (the longest row a CSV file may have)")
    XCTAssertLessThan(r.peakMB, 120)
    _ = try writeBytes("three.csv", ["time,a\n1000,1\n2000,"] + (0..<20).map { _ in String(repeating: "1", count: 1 << 20) } + ["\n"])
    let t = try write("three.lua", "return cs.scene{ width = 320, height = 240, root = cs.chart{ data = cs.data.csv('three.csv') } }")
    assertOneError(try run([t, "-o", "out.png"]), "three.lua:1: three.csv: line 3 is longer than 16 MiB")
  }

  /// Attack round, item 7: a still of 16384 x 16384 under a 64 MiB cap took 1.09 GB. The
  /// pixels of a still (4 bytes each), and of the frames an animation paints at once, are
  /// charged against what --max-memory leaves before they are made.
  func testPixelsAreChargedAgainstTheMemoryLimit() throws {
    let s = try write("big.lua", "return cs.scene{ width = 16384, height = 16384, root = cs.text{ text = 'x' } }")
    let r = try run([s, "-o", "big.png", "--max-memory", "64M"])
    assertOneError(r, "cannot render '")
    assertOneError(r, "big.png': the image of 16384x16384 pixels needs 1024.0 MiB, more than --max-memory leaves (")
    XCTAssertLessThan(r.peakMB, Self.floorMB)
    XCTAssertFalse(FileManager.default.fileExists(atPath: dir.appendingPathComponent("big.png").path))
    let a = try write("anim.lua", "return cs.scene{ width = 4096, height = 2048, fps = 2, duration = 1, root = cs.text{ text = 'x' } }")
    let r2 = try run([a, "-o", "f-%03d.png", "--max-memory", "64M"])
    assertOneError(r2, "f-%03d.png': 4 frames of 4096x2048 pixels painted at once need 128.0 MiB, more than --max-memory leaves (")
    // Within the limit, the same still is drawn.
    let ok = try write("ok.lua", "return cs.scene{ width = 2048, height = 2048, root = cs.text{ text = 'x' } }")
    XCTAssertEqual(try run([ok, "-o", "ok.png", "--max-memory", "64M"]).status, 0)
  }
}
