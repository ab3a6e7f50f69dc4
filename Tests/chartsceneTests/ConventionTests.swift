import Foundation
import XCTest

/// What a command-line tool is expected to do without being asked: say its version, print its
/// usage when called bare, fail at once where it cannot work, keep its terminal output clean.
final class ConventionTests: TempFolderCase {
  func testVersionNamesTheVersionAndTheCommit() throws {
    let r = try CLI.run(["--version"])
    XCTAssertEqual(r.status, 0, r.stderr)
    XCTAssertEqual(r.stderr, "")
    let line = r.stdout.trimmingCharacters(in: .newlines)
    XCTAssertNotNil(line.range(of: #"^chartscene \d+\.\d+\.\d+ \(commit ([0-9a-f]{7,}(-dirty)?|unknown)\)$"#, options: .regularExpression), line)
    // The same version as cs.version and the VERSION file.
    let file = try String(contentsOf: EndToEndTests.repo.appendingPathComponent("VERSION"), encoding: .utf8)
    let version = file.replacingOccurrences(of: "version:", with: "").trimmingCharacters(in: .whitespacesAndNewlines)
    XCTAssertTrue(line.hasPrefix("chartscene \(version) "), line)
    let script = tmp.appendingPathComponent("v.lua")
    try "print(cs.version) return cs.scene{ width = 10, height = 10, root = cs.text{ text = 'x' } }".write(to: script, atomically: true, encoding: .utf8)
    let v = try CLI.run([script.path, "--inspect"])
    XCTAssertEqual(v.stderr, version + "\n")
    // In git, the commit is the checkout's.
    let git = try CLI.run(["rev-parse", "--short=12", "HEAD"], executable: URL(fileURLWithPath: "/usr/bin/git"))
    if git.status == 0 { XCTAssertTrue(line.contains("(commit " + git.stdout.trimmingCharacters(in: .newlines)), line) }
  }

  func testBareCommandPrintsItsUsage() throws {
    let r = try CLI.run([])
    XCTAssertEqual(r.status, 0, r.stderr)
    XCTAssertEqual(r.stderr, "")
    XCTAssertTrue(r.stdout.contains("USAGE: chartscene SCRIPT.lua"), r.stdout)
    XCTAssertTrue(r.stdout.contains("SUBCOMMANDS:"), r.stdout)
  }

  func testLiveWithoutADisplayIsOneLineAtOnce() throws {
    let r = try CLI.run(["examples/chart.lua", "--live"], env: ["DISPLAY": "", "WAYLAND_DISPLAY": "", "SDL_VIDEODRIVER": ""])
    XCTAssertEqual(r.status, 1)
    XCTAssertEqual(r.stderr, "error: --live needs a display (DISPLAY or WAYLAND_DISPLAY is not set)\n")
    XCTAssertLessThan(r.seconds, 3)
  }

  /// On a terminal, batch clears its progress bar before an error line with a real escape,
  /// not the escaped text `\r\x1b[K`.
  func testBatchOnATerminalClearsItsBarWithARealEscape() throws {
    guard FileManager.default.isExecutableFile(atPath: "/usr/bin/script") else { throw XCTSkip("no script(1) to give batch a terminal") }
    let scene = tmp.appendingPathComponent("v.lua")
    try "return cs.scene{ width = 40, height = 30, root = cs.text{ text = 'x' } }".write(to: scene, atomically: true, encoding: .utf8)
    let jobs = tmp.appendingPathComponent("jobs.txt")
    try "v.lua -o a.png\nv.lua --bogus -o b.png\n".write(to: jobs, atomically: true, encoding: .utf8)
    let command = "'\(CLI.binary.path)' batch jobs.txt"
    let r = try CLI.run(["-qec", command, "/dev/null"], cwd: tmp, executable: URL(fileURLWithPath: "/usr/bin/script"))
    XCTAssertEqual(r.status, 1, r.stdout)
    XCTAssertFalse(r.stdout.contains("\\r") || r.stdout.contains("\\x1b"), r.stdout)
    XCTAssertTrue(r.stdout.contains("\r\u{1B}[Kerror: jobs.txt:2: "), r.stdout)
  }
}
