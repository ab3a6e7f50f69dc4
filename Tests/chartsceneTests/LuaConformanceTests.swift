import Foundation
import XCTest

/// Lua 5.4 as its manual says, inside chartscene (issue 37, item 15). Each script of
/// Tests/Fixtures/conformance (written here from the manual: pcall/xpcall/error levels and
/// messages, load modes, coroutines yielding across pcall/xpcall/metamethods/iterators,
/// require of the standard names, string/utf8/math edge cases, integers and floats) is a
/// chunk that returns one string of results. It runs as the body of a function in a file of
/// the same name, so lines and chunk names are the same everywhere:
/// - in plain `lua5.4` (Debian's; scripts/install-deps installs it), called directly and in
///   a coroutine;
/// - in chartscene as a scene script, in a coroutine of one, in a `cs.view` layout function,
///   and as a `batch` job;
/// and the results must be the same: the script's (and the batch job's) against plain
/// Lua's direct call, the coroutine's against plain Lua's coroutine. The results travel by
/// `print` (standard output in lua5.4, standard error in chartscene) between `<<<` and `>>>`.
/// The fixtures leave out only what the sandbox removes by design (docs/security.md: io,
/// debug, package, dofile, loadfile, collectgarbage, string.dump, binary chunks, most of os);
/// nothing is normalised but where the results are printed.
final class LuaConformanceTests: FolderCase {
  static let fixtures = EndToEndTests.repo.appendingPathComponent("Tests/Fixtures/conformance")
  static let lua: URL? = ["/usr/bin/lua5.4", "/usr/local/bin/lua5.4"].map { URL(fileURLWithPath: $0) }
    .first { FileManager.default.isExecutableFile(atPath: $0.path) }

  enum Place: String, CaseIterable { case script, coroutine, layout, batch }

  /// The file that runs `fixture` in `place`: line 1 starts the body, so the fixture's lines
  /// keep their numbers.
  static func driver(_ fixture: String, _ place: Place) -> String {
    let head = "local function body() " + fixture + "\nend\n"
    let scene = "cs.scene { width = 40, height = 30, root = %@ }"
    switch place {
    case .script, .batch:
      return head + "print('<<<' .. body() .. '>>>')\n"
        + "if rawget(_G, 'cs') then return " + scene.replacingOccurrences(of: "%@", with: "cs.spacer {}") + " end\n"
    case .coroutine:
      return head + "print('<<<' .. coroutine.wrap(body)() .. '>>>')\n"
        + "if rawget(_G, 'cs') then return " + scene.replacingOccurrences(of: "%@", with: "cs.spacer {}") + " end\n"
    case .layout:
      return head + "local shown = false\n"
        + "return " + scene.replacingOccurrences(of: "%@", with: """
          cs.view { layout = function(self, w, h)
            if not shown then shown = true; print('<<<' .. body() .. '>>>') end
          end, cs.spacer {} }
          """) + "\n"
    }
  }

  /// The text between the first `<<<` and the last `>>>`.
  static func results(_ output: String) -> String? {
    guard let a = output.range(of: "<<<"), let b = output.range(of: ">>>", options: .backwards), a.upperBound <= b.lowerBound else { return nil }
    return String(output[a.upperBound..<b.lowerBound])
  }

  func fixtureNames() throws -> [String] {
    try FileManager.default.contentsOfDirectory(atPath: Self.fixtures.path).filter { $0.hasSuffix(".lua") }.sorted()
  }

  func testEveryFixtureGivesPlainLuasResultsInEveryPlaceOfChartscene() throws {
    guard let lua = Self.lua else {
      return XCTFail("lua5.4 is not installed (scripts/install-deps installs Debian's lua5.4)")
    }
    let names = try fixtureNames()
    XCTAssertGreaterThanOrEqual(names.count, 7, "the conformance fixtures are missing")
    var jobs: [CLI.Job] = []
    var what: [(name: String, place: Place, plain: Bool)] = []
    for name in names {
      let text = try String(contentsOf: Self.fixtures.appendingPathComponent(name), encoding: .utf8)
      for place in Place.allCases {
        let folder = dir.appendingPathComponent(place.rawValue)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Self.driver(text, place).write(to: folder.appendingPathComponent(name), atomically: true, encoding: .utf8)
        switch place {
        case .script, .coroutine, .layout:
          jobs.append(CLI.Job(args: [name, "--inspect"], cwd: folder))
        case .batch:
          let jobsFile = folder.appendingPathComponent(name + ".jobs")
          try "\(name) -o \(name).png\n".write(to: jobsFile, atomically: true, encoding: .utf8)
          jobs.append(CLI.Job(args: ["batch", jobsFile.lastPathComponent, "--threads", "1"], cwd: folder))
        }
        what.append((name, place, false))
        if place == .script || place == .coroutine {
          jobs.append(CLI.Job(args: [name], cwd: folder, executable: lua))
          what.append((name, place, true))
        }
      }
    }
    let runs = CLI.runAll(jobs)
    var plain: [String: String] = [:]
    for (k, w) in what.enumerated() where w.plain {
      let r = runs[k]
      XCTAssertEqual(r.status, 0, "lua5.4 \(w.place) \(w.name): \(r.stderr)")
      guard let out = Self.results(r.stdout) else { XCTFail("lua5.4 \(w.place) \(w.name) printed no results: \(r.stdout) \(r.stderr)"); continue }
      XCTAssertGreaterThan(out.split(separator: "\n").count, 10, "\(w.name): too few results")
      plain["\(w.name)/\(w.place)"] = out
    }
    for (k, w) in what.enumerated() where !w.plain {
      let r = runs[k]
      XCTAssertEqual(r.status, 0, "chartscene \(w.place) \(w.name): \(r.stderr.prefix(2000))")
      let reference = plain["\(w.name)/\(w.place == .coroutine ? Place.coroutine : Place.script)"]
      guard let expected = reference else { continue }
      guard let got = Self.results(r.stderr) else { XCTFail("chartscene \(w.place) \(w.name) printed no results: \(r.stderr.prefix(2000))"); continue }
      if got != expected {
        let a = expected.split(separator: "\n", omittingEmptySubsequences: false), b = got.split(separator: "\n", omittingEmptySubsequences: false)
        let i = (0..<min(a.count, b.count)).first { a[$0] != b[$0] } ?? min(a.count, b.count)
        XCTFail("""
          \(w.name) in chartscene (\(w.place)) differs from lua5.4 at result line \(i + 1):
            lua5.4:     \(i < a.count ? String(a[i]) : "(no more lines)")
            chartscene: \(i < b.count ? String(b[i]) : "(no more lines)")
          """)
      }
    }
  }

  /// The fixtures run as they are in lua5.4: a fixture that fails there is a broken fixture,
  /// not a finding.
  func testTheFixturesUseNothingTheSandboxRemoves() throws {
    let removed = ["io.", "debug.", "package.", "dofile", "loadfile", "collectgarbage", "string.dump", "os.exit", "os.getenv", "print("]
    for name in try fixtureNames() {
      let text = try String(contentsOf: Self.fixtures.appendingPathComponent(name), encoding: .utf8)
      for word in removed { XCTAssertFalse(text.contains(word), "\(name) uses \(word)") }
    }
  }
}
