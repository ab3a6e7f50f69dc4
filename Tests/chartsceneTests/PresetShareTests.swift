import Foundation
import XCTest

/// `chartscene preset install FILE|DIR [--force]` and `preset remove NAME`: a shared preset is
/// checked, then copied into the user's folder, where scripts find it by name.
final class PresetShareTests: TempFolderCase {
  var env: [String: String] { ["HOME": tmp.appendingPathComponent("home").path, "XDG_CONFIG_HOME": ""] }
  var installed: URL { tmp.appendingPathComponent("home/.config/chartscene/presets") }

  func write(_ name: String, _ text: String) throws {
    let url = tmp.appendingPathComponent(name)
    try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
    try text.write(to: url, atomically: true, encoding: .utf8)
  }

  func preset(_ args: [String]) throws -> CLI.Result { try CLI.run(["preset"] + args, cwd: tmp, env: env) }

  func testInstallUseAndRemove() throws {
    try write("share/brand.lua", ##"return { description = "Brand: our colours", extends = "night", colors = { accent = "#ff8800" } }"##)
    let r = try preset(["install", "share/brand.lua"])
    XCTAssertEqual(r.status, 0, r.stderr)
    XCTAssertEqual(r.stdout, "installed brand → \(installed.path)/brand.lua\n")
    XCTAssertTrue(try preset(["list"]).stdout.contains("brand     \(installed.path)/brand.lua  Brand: our colours"))
    // A script anywhere finds it by name.
    try write("elsewhere/s.lua", #"return cs.scene { width = 120, height = 90, preset = "brand", root = cs.text { text = "x" } }"#)
    let render = try CLI.run(["elsewhere/s.lua", "-o", "s.png"], cwd: tmp, env: env)
    XCTAssertEqual(render.status, 0, render.stderr)
    // Installing it again needs --force.
    let again = try preset(["install", "share/brand.lua"])
    XCTAssertEqual(again.status, 1)
    XCTAssertEqual(again.stderr, "error: cannot install 'share/brand.lua': a preset 'brand' is installed already (\(installed.path)/brand.lua; --force replaces it)\n")
    XCTAssertEqual(try preset(["install", "share/brand.lua", "--force"]).status, 0)
    let removed = try preset(["remove", "brand"])
    XCTAssertEqual(removed.status, 0, removed.stderr)
    XCTAssertFalse(FileManager.default.fileExists(atPath: installed.appendingPathComponent("brand.lua").path))
    let gone = try preset(["remove", "brand"])
    XCTAssertEqual(gone.status, 1)
    XCTAssertEqual(gone.stderr, "error: 'brand' is not an installed preset (in \(installed.path))\n")
    let builtIn = try preset(["remove", "night"])
    XCTAssertEqual(builtIn.stderr, "error: 'night' is not an installed preset (in \(installed.path)); built-in presets cannot be removed\n")
  }

  func testAFolderInstallsWholeOrNotAtAllAndBuiltInsNeedForce() throws {
    try write("share/a.lua", #"return { description = "A", base = "day" }"#)
    try write("share/night.lua", #"return { description = "my night", base = "night" }"#)
    try write("share/z.lua", "return { titel = 3 }")
    let bad = try preset(["install", "share"])
    XCTAssertEqual(bad.status, 1)
    XCTAssertEqual(bad.stderr, "error: share/z.lua:1: unknown key 'titel' in preset\n")
    XCTAssertFalse(FileManager.default.fileExists(atPath: installed.path), "nothing is installed when one preset is broken")
    try FileManager.default.removeItem(at: tmp.appendingPathComponent("share/z.lua"))
    let hides = try preset(["install", "share"])
    XCTAssertEqual(hides.status, 1)
    XCTAssertEqual(hides.stderr, "error: cannot install 'share/night.lua': 'night' is a built-in preset, which it would hide (--force installs it anyway)\n")
    XCTAssertFalse(FileManager.default.fileExists(atPath: installed.appendingPathComponent("a.lua").path))
    let forced = try preset(["install", "share", "--force"])
    XCTAssertEqual(forced.status, 0, forced.stderr)
    XCTAssertEqual(forced.stdout.split(separator: "\n").count, 2)
    // An extends that only resolved next to its source is refused once installed, and nothing stays.
    try write("other/base.lua", #"return { description = "base", base = "day" }"#)
    try write("other/child.lua", #"return { description = "child", extends = "base.lua" }"#)
    let orphan = try preset(["install", "other/child.lua"])
    XCTAssertEqual(orphan.status, 1)
    XCTAssertTrue(orphan.stderr.contains("preset 'base.lua' not found (in extends)") && orphan.stderr.hasSuffix("nothing was installed)\n"), orphan.stderr)
    XCTAssertFalse(FileManager.default.fileExists(atPath: installed.appendingPathComponent("child.lua").path))
    XCTAssertEqual(try preset(["install", "nothere.lua"]).stderr, "error: cannot install 'nothere.lua': no such file or folder\n")
    XCTAssertEqual(try preset(["list", "--force"]).status, 64)
  }
}
