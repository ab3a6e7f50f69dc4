import Foundation
import XCTest

/// A binary that works wherever it is put: installed under a prefix by `scripts/install`,
/// copied alone into another folder, run from a third working folder.
final class InstallTests: TempFolderCase {

  func sh(_ args: [String], env: [String: String] = [:]) throws -> CLI.Result {
    try CLI.run(args, env: env, executable: URL(fileURLWithPath: "/usr/bin/env"))
  }

  func testInstalledAndLoneCopiesFindTheirAssetsFromAnywhere() throws {
    let prefix = tmp.appendingPathComponent("prefix"), lone = tmp.appendingPathComponent("lone")
    let work = tmp.appendingPathComponent("work"), home = tmp.appendingPathComponent("home")
    for d in [lone, work, home] { try FileManager.default.createDirectory(at: d, withIntermediateDirectories: true) }
    let install = try sh(["scripts/install", prefix.path], env: ["CHARTSCENE_BIN": CLI.binary.path])
    XCTAssertEqual(install.status, 0, install.stderr)
    for f in ["bin/chartscene", "share/chartscene/assets/fonts/Inter-Regular.otf", "share/chartscene/assets/presets/night.lua",
              "share/chartscene/assets/data/chart_data.json", "share/bash-completion/completions/chartscene",
              "share/zsh/site-functions/_chartscene", "share/fish/vendor_completions.d/chartscene.fish"] {
      XCTAssertTrue(FileManager.default.fileExists(atPath: prefix.appendingPathComponent(f).path), f)
    }
    let loneBinary = lone.appendingPathComponent("chartscene")
    try FileManager.default.copyItem(at: CLI.binary, to: loneBinary)
    try """
    local cs = require("chartscene")
    return cs.scene { width = 400, height = 300, preset = "night",
      root = cs.chart { data = cs.data.sample()[1], title = "Anywhere" } }
    """.write(to: work.appendingPathComponent("s.lua"), atomically: true, encoding: .utf8)

    // A clean environment: no CHARTSCENE_ASSETS, a fresh HOME (the lone copy unpacks there).
    let env = ["HOME": home.path, "XDG_CACHE_HOME": "", "CHARTSCENE_ASSETS": ""]
    var pngs: [Data] = []
    for binary in [prefix.appendingPathComponent("bin/chartscene"), loneBinary] {
      let out = work.appendingPathComponent(binary.deletingLastPathComponent().lastPathComponent + ".png")
      let r = try CLI.run(["s.lua", "-o", out.path], cwd: work, env: env, executable: binary)
      XCTAssertEqual(r.status, 0, "\(binary.path): \(r.stderr)")
      XCTAssertEqual(r.stderr, "")
      pngs.append(try Data(contentsOf: out))
      let list = try CLI.run(["preset", "list"], cwd: work, env: env, executable: binary)
      XCTAssertEqual(list.status, 0, list.stderr)
      for name in ["cards", "carousel", "day", "list", "night"] {
        XCTAssertTrue(list.stdout.contains(name + " "), "\(binary.path) preset list: \(list.stdout)")
      }
    }
    // The same pixels (the same fonts) from both.
    XCTAssertEqual(pngs[0], pngs[1])
    // The prefix copy used share/chartscene/assets; only the lone copy unpacked its own.
    let cache = home.appendingPathComponent(".cache/chartscene")
    let unpacked = try FileManager.default.contentsOfDirectory(atPath: cache.path).filter { $0.hasPrefix("assets-") }
    XCTAssertEqual(unpacked.count, 1)
    XCTAssertTrue(FileManager.default.fileExists(atPath: cache.appendingPathComponent(unpacked[0] + "/fonts/Inter-Bold.otf").path))
    // A second run reuses the unpacked folder.
    let again = try CLI.run(["s.lua", "-o", "again.png"], cwd: work, env: env, executable: loneBinary)
    XCTAssertEqual(again.status, 0, again.stderr)
    XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: cache.path).filter { $0.hasPrefix("assets-") }, unpacked)
  }

  func testAWrongAssetsFolderIsOneLineNamingTheVariable() throws {
    let work = tmp!
    try "return cs.scene { root = cs.text { text = 'x' } }".write(to: work.appendingPathComponent("s.lua"), atomically: true, encoding: .utf8)
    for args in [["s.lua", "-o", "s.png"], ["preset", "list"]] {
      let r = try CLI.run(args, cwd: work, env: ["CHARTSCENE_ASSETS": work.appendingPathComponent("nope").path])
      XCTAssertEqual(r.status, 1)
      XCTAssertEqual(r.stdout, "")
      let lines = r.stderr.split(separator: "\n")
      XCTAssertEqual(lines.count, 1, r.stderr)
      XCTAssertTrue(r.stderr.hasPrefix("error: ") && r.stderr.contains("CHARTSCENE_ASSETS"), r.stderr)
    }
    XCTAssertFalse(FileManager.default.fileExists(atPath: work.appendingPathComponent("s.png").path))
  }

  func testCompletionScriptsAreGenerated() throws {
    for shell in ["bash", "zsh", "fish"] {
      let r = try CLI.run(["--generate-completion-script", shell])
      XCTAssertEqual(r.status, 0, r.stderr)
      XCTAssertTrue(r.stdout.contains("chartscene"), shell)
      XCTAssertTrue(r.stdout.contains("preset"), "\(shell) completes the preset subcommand")
    }
    let bash = tmp.appendingPathComponent("c.bash")
    try CLI.run(["--generate-completion-script", "bash"]).stdout.write(to: bash, atomically: true, encoding: .utf8)
    let check = try sh(["bash", "-n", bash.path])
    XCTAssertEqual(check.status, 0, check.stderr)
  }

  /// `preset export` writes every resolved value, and the exported file draws the same
  /// picture as the preset it came from.
  func testExportedPresetsHoldEveryValueAndDrawTheSame() throws {
    try """
    local cs = require("chartscene")
    local sets = cs.data.sample()
    return cs.scene { width = 500, height = 700,
      root = cs.list { cs.chart { data = sets[1], title = "A" }, cs.chart { data = sets[2], title = "B" } } }
    """.write(to: tmp.appendingPathComponent("s.lua"), atomically: true, encoding: .utf8)
    for name in ["day", "night", "list", "carousel", "cards"] {
      let r = try CLI.run(["preset", "export", name])
      XCTAssertEqual(r.status, 0, r.stderr)
      for key in ["base =", "colors = {", "background = \"#", "posterBackground =", "chart = {", "lineWidth =", "legend =",
                  "list = {", "spacing =", "carousel = {", "angle =", "cards = {", "scaleStep =", "offsetStep =", "-- Theme colours"] {
        XCTAssertTrue(r.stdout.contains(key), "export \(name) lacks '\(key)':\n\(r.stdout)")
      }
      let file = tmp.appendingPathComponent("exported-\(name).lua")
      try r.stdout.write(to: file, atomically: true, encoding: .utf8)
      let a = try CLI.run([tmp.appendingPathComponent("s.lua").path, "--preset", name, "-o", tmp.appendingPathComponent("a.png").path])
      let b = try CLI.run([tmp.appendingPathComponent("s.lua").path, "--preset", file.path, "-o", tmp.appendingPathComponent("b.png").path])
      XCTAssertEqual(a.status, 0, a.stderr)
      XCTAssertEqual(b.status, 0, b.stderr)
      XCTAssertEqual(try Data(contentsOf: tmp.appendingPathComponent("a.png")), try Data(contentsOf: tmp.appendingPathComponent("b.png")), name)
    }
  }
}
