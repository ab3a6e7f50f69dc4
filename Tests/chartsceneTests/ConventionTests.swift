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

  /// Bash completion, driven as bash drives it: subcommands only in first position, files for
  /// the script and -o, themes after --theme, preset names after --preset — also when the
  /// subcommand is the default one (`chartscene s.lua ...`).
  func testBashCompletesWhatEachPositionTakes() throws {
    let script = try CLI.run(["--generate-completion-script", "bash"])
    XCTAssertEqual(script.status, 0, script.stderr)
    let completion = tmp.appendingPathComponent("chartscene.bash")
    try script.stdout.write(to: completion, atomically: true, encoding: .utf8)
    for name in ["a.lua", "b.lua", "notes.txt"] { try "".write(to: tmp.appendingPathComponent(name), atomically: true, encoding: .utf8) }
    try FileManager.default.createDirectory(at: tmp.appendingPathComponent("sub"), withIntermediateDirectories: true)
    let driver = """
      source '\(completion.path)'
      PATH='\(CLI.binary.deletingLastPathComponent().path)':$PATH
      complete_line() {
        COMP_WORDS=("$@"); COMP_CWORD=$(( $# - 1 )); COMP_LINE="$*"; COMP_POINT=${#COMP_LINE}; COMPREPLY=()
        _chartscene chartscene "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD-1]}"
        printf '%s\\n' "${COMPREPLY[@]}" | sort -u | paste -sd' '
      }
      complete_line chartscene ''
      complete_line chartscene a.lua ''
      complete_line chartscene a.lua -o ''
      complete_line chartscene a.lua --theme ''
      complete_line chartscene a.lua --preset ''
      complete_line chartscene render a.lua --theme n
      complete_line chartscene lint ''
      complete_line chartscene preset show ''
      """
    let r = try CLI.run(["-c", driver], cwd: tmp, executable: URL(fileURLWithPath: "/bin/bash"))
    XCTAssertEqual(r.status, 0, r.stderr)
    let lines = r.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    guard lines.count >= 8 else { return XCTFail(r.stdout + r.stderr) }
    let first = Set(lines[0].split(separator: " ").map(String.init))
    XCTAssertTrue(first.isSuperset(of: ["render", "preset", "lint", "batch", "a.lua", "b.lua", "sub"]), lines[0])
    XCTAssertFalse(first.contains("notes.txt"), lines[0])
    // After the script: the options of render, never the subcommands again.
    let second = Set(lines[1].split(separator: " ").map(String.init))
    XCTAssertTrue(second.isDisjoint(with: ["render", "preset", "batch", "lint"]), lines[1])
    XCTAssertTrue(lines[1].contains("--output") && lines[1].contains("--theme"), lines[1])
    XCTAssertTrue(lines[2].contains("notes.txt") && lines[2].contains("a.lua"), lines[2])
    XCTAssertFalse(lines[2].split(separator: " ").contains("render"), lines[2])
    XCTAssertEqual(lines[3], "day night")
    XCTAssertTrue(lines[4].contains("cards") && lines[4].contains("carousel") && lines[4].contains("night"), lines[4])
    XCTAssertFalse(lines[4].split(separator: " ").contains("render"), lines[4])
    XCTAssertEqual(lines[5], "night")
    XCTAssertTrue(lines[6].contains("a.lua") && !lines[6].contains("notes.txt"), lines[6])
    XCTAssertTrue(lines[7].contains("cards"), lines[7])
  }
}

/// `-q` keeps stderr empty of warnings; `-v` says what was written and read.
final class QuietVerboseTests: TempFolderCase {
  func testQuietAndVerbose() throws {
    try "return cs.scene { width = 60, height = 40, root = cs.text { text = 'x' } }".write(to: tmp.appendingPathComponent("s.lua"), atomically: true, encoding: .utf8)
    // A still written as a GIF warns; -q keeps it quiet.
    let loud = try CLI.run(["s.lua", "-o", "s.gif"], cwd: tmp)
    XCTAssertEqual(loud.status, 0, loud.stderr)
    XCTAssertTrue(loud.stderr.hasPrefix("warning: the scene is a still"), loud.stderr)
    let quiet = try CLI.run(["s.lua", "-o", "s.gif", "-q"], cwd: tmp)
    XCTAssertEqual(quiet.status, 0, quiet.stderr)
    XCTAssertEqual(quiet.stderr, "")
    let verbose = try CLI.run(["s.lua", "-o", "s.png", "--verbose", "--scale", "2"], cwd: tmp)
    XCTAssertEqual(verbose.status, 0, verbose.stderr)
    let lines = verbose.stderr.split(separator: "\n").map(String.init)
    XCTAssertEqual(lines.count, 2, verbose.stderr)
    let size = try FileManager.default.attributesOfItem(atPath: tmp.appendingPathComponent("s.png").path)[.size] as? Int ?? -1
    XCTAssertTrue(lines[0].hasPrefix("wrote s.png: PNG, 120x80 px, \(size) bytes, in "), lines[0])
    XCTAssertEqual(lines.last, "read s.lua")
    let both = try CLI.run(["s.lua", "-q", "-v"], cwd: tmp)
    XCTAssertEqual(both.status, 64)
    XCTAssertEqual(both.stderr, "error: --quiet and --verbose cannot be used together\n")
  }
}
