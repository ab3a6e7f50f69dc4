import Foundation
import XCTest

/// `chartscene -` reads the script from standard input; `-o -` writes the output to standard
/// output (`--format` when no extension tells it), so chartscene sits in a pipe.
final class PipeTests: TempFolderCase {
  struct Piped { var status: Int32; var stdout: Data; var stderr: String }

  func run(_ args: [String], stdin: Data, cwd: URL? = nil) throws -> Piped {
    let p = Process()
    p.executableURL = CLI.binary
    p.arguments = args
    p.currentDirectoryURL = cwd ?? tmp
    let input = Pipe(), out = Pipe(), err = Pipe()
    p.standardInput = input; p.standardOutput = out; p.standardError = err
    try p.run()
    nonisolated(unsafe) var e = Data()
    let errDone = DispatchSemaphore(value: 0)
    DispatchQueue.global().async { e = err.fileHandleForReading.readDataToEndOfFile(); errDone.signal() }
    DispatchQueue.global().async {
      try? input.fileHandleForWriting.write(contentsOf: stdin)
      try? input.fileHandleForWriting.close()
    }
    let o = out.fileHandleForReading.readDataToEndOfFile()
    errDone.wait()
    p.waitUntilExit()
    return Piped(status: p.terminationStatus, stdout: o, stderr: String(decoding: e, as: UTF8.self))
  }

  let still = Data("""
    local set = cs.data.sample()[1]
    return cs.scene { width = 200, height = 160, root = cs.chart { data = set, title = "Piped" } }
    """.utf8)

  func testAScriptFromStandardInputToAPNGOnStandardOutput() throws {
    let r = try run(["-", "-o", "-"], stdin: still)
    XCTAssertEqual(r.status, 0, r.stderr)
    XCTAssertEqual(r.stderr, "")
    XCTAssertEqual(Array(r.stdout.prefix(8)), [137, 80, 78, 71, 13, 10, 26, 10])
    // The same picture as from a file.
    try still.write(to: tmp.appendingPathComponent("s.lua"))
    let f = try CLI.run(["s.lua", "-o", "s.png"], cwd: tmp)
    XCTAssertEqual(f.status, 0, f.stderr)
    XCTAssertEqual(try Data(contentsOf: tmp.appendingPathComponent("s.png")), r.stdout)
    // Nothing left behind in the folder or in TMPDIR's chartscene files.
    XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: tmp.path).sorted(), ["s.lua", "s.png"])
  }

  /// `cs.data.csv("-")` and `cs.data.json("-")` read what is piped in (once: two reads get the
  /// same bytes), under the same limits as a file; not when the script itself came from there.
  func testDataFromStandardInput() throws {
    try "local d = cs.data.csv('-')\nreturn cs.scene{ width = 200, height = 160, root = cs.chart{ data = d } }".write(to: tmp.appendingPathComponent("c.lua"), atomically: true, encoding: .utf8)
    let csv = Data("date,sales\n2024-01-01,3\n2024-01-02,5\n2024-01-03,4\n".utf8)
    let piped = try run(["c.lua", "-o", "-"], stdin: csv)
    XCTAssertEqual(piped.status, 0, piped.stderr)
    // The same picture as from the file.
    try csv.write(to: tmp.appendingPathComponent("d.csv"))
    try "local d = cs.data.csv('d.csv', { name = 'Data' })\nreturn cs.scene{ width = 200, height = 160, root = cs.chart{ data = d } }".write(to: tmp.appendingPathComponent("f.lua"), atomically: true, encoding: .utf8)
    XCTAssertEqual(try CLI.run(["f.lua", "-o", "f.png"], cwd: tmp).status, 0)
    XCTAssertEqual(piped.stdout, try Data(contentsOf: tmp.appendingPathComponent("f.png")))
    try "local a = cs.data.json('-', { x = 'date' })\nlocal b = cs.data.json('-', { x = 'date' })\nreturn cs.scene{ width = 200, height = 160, root = cs.vstack{ cs.chart{ data = a }, cs.chart{ data = b } } }"
      .write(to: tmp.appendingPathComponent("j.lua"), atomically: true, encoding: .utf8)
    let json = try run(["j.lua", "-o", "j.png"], stdin: Data(#"[{"date":"2024-01-01","v":1},{"date":"2024-01-02","v":4}]"#.utf8))
    XCTAssertEqual(json.status, 0, json.stderr)
    // Errors name it as the file it stands for; the script from standard input leaves no data there.
    let bad = try run(["c.lua", "-o", "b.png"], stdin: Data("date,sales\n2024-01-01,x\n".utf8))
    XCTAssertEqual(bad.status, 1)
    XCTAssertEqual(bad.stderr, "error: c.lua:1: -: column 'sales' holds text (like 'x'); pass columns = the columns of numbers\n")
    let both = try run(["-", "-o", "x.png"], stdin: Data("local d = cs.data.csv('-')".utf8))
    XCTAssertEqual(both.status, 1)
    XCTAssertEqual(both.stderr, "error: stdin:1: cannot read '-': standard input holds the script (chartscene -): data cannot come from it too\n")
  }

  func testFormatPicksWhatGoesToStandardOutput() throws {
    try still.write(to: tmp.appendingPathComponent("s.lua"))
    let svg = try run(["s.lua", "-o", "-", "--format", "svg"], stdin: Data())
    XCTAssertEqual(svg.status, 0, svg.stderr)
    XCTAssertTrue(String(decoding: svg.stdout.prefix(200), as: UTF8.self).contains("<svg"))
    let pdf = try run(["s.lua", "-o", "-", "--format", "pdf"], stdin: Data())
    XCTAssertEqual(String(decoding: pdf.stdout.prefix(5), as: UTF8.self), "%PDF-")
    // An animated scene goes out as MP4 by default, whole and playable (ffprobe reads it from a pipe).
    let cards = try String(contentsOf: EndToEndTests.repo.appendingPathComponent("examples/cards.lua"), encoding: .utf8)
    let mp4 = try run(["-", "-o", "-", "--frames", "0-5"], stdin: Data(cards.utf8), cwd: EndToEndTests.repo.appendingPathComponent("examples"))
    XCTAssertEqual(mp4.status, 0, mp4.stderr)
    let file = tmp.appendingPathComponent("out.mp4")
    try mp4.stdout.write(to: file)
    let probe = try CLI.run(["-v", "error", "-count_frames", "-show_entries", "stream=nb_read_frames", "-of", "csv=p=0", file.path], executable: URL(fileURLWithPath: "/usr/bin/ffprobe"))
    XCTAssertEqual(probe.stdout.trimmingCharacters(in: .whitespacesAndNewlines), "6", probe.stderr)
    // Without -o, --format names the file: s.svg.
    let named = try CLI.run(["s.lua", "--format", "svg"], cwd: tmp)
    XCTAssertEqual(named.status, 0, named.stderr)
    XCTAssertTrue(FileManager.default.fileExists(atPath: tmp.appendingPathComponent("s.svg").path))
  }

  func testMistakesAreOneLine() throws {
    let bad = try run(["-", "-o", "-"], stdin: Data("local x = nil + 1".utf8))
    XCTAssertEqual(bad.status, 1)
    XCTAssertEqual(bad.stderr, "error: stdin:1: attempt to perform arithmetic on a nil value\n")
    XCTAssertTrue(bad.stdout.isEmpty)
    let usage: [([String], String)] = [
      (["s.lua", "-o", "x.png", "--format", "svg"], "error: --format is for -o - or no -o: the extension of 'x.png' gives the format\n"),
      (["s.lua", "-o", "-", "--format", "bmp"], "error: bad --format 'bmp', expected one of: png, svg, pdf, gif, webp, apng, mp4, webm\n"),
      (["-", "--watch"], "error: a script read from standard input cannot be watched or shown live (--watch): give its file\n"),
      (["s.lua", "-o", "-", "--watch"], "error: -o - writes once to standard output: it does not go with --watch\n"),
    ]
    for (args, message) in usage {
      let r = try run(args, stdin: Data())
      XCTAssertEqual(r.status, 64, args.joined(separator: " "))
      XCTAssertEqual(r.stderr, message)
    }
    // A script larger than the limit on scripts.
    let huge = try run(["-", "-o", "-"], stdin: Data(repeating: 0x20, count: (16 << 20) + 10))
    XCTAssertEqual(huge.status, 1)
    XCTAssertEqual(huge.stderr, "error: cannot read '-': standard input holds more than 16 MiB\n")
  }
}
