import Foundation
import XCTest

/// Writing scripts with an editor's help: `chartscene init`, the LuaLS definitions it points
/// at, and luacheck over every example and the starter.
final class EditorTests: TempFolderCase {

  func testInitWritesAStarterThatRendersAndPointsLuaLSAtTheDefinitions() throws {
    let dir = tmp.appendingPathComponent("proj")
    let r = try CLI.run(["init", dir.path])
    XCTAssertEqual(r.status, 0, r.stderr)
    XCTAssertEqual(r.stdout.split(separator: "\n").count, 3, r.stdout)
    let luarc = try JSONSerialization.jsonObject(with: Data(contentsOf: dir.appendingPathComponent(".luarc.json"))) as? [String: Any]
    let library = try XCTUnwrap((luarc?["workspace.library"] as? [String])?.first)
    let defs = try String(contentsOfFile: library + "/chartscene.lua", encoding: .utf8)
    XCTAssertTrue(defs.hasPrefix("---@meta"))
    XCTAssertEqual(luarc?["runtime.version"] as? String, "Lua 5.4")
    let render = try CLI.run(["scene.lua", "-o", "scene.png"], cwd: dir)
    XCTAssertEqual(render.status, 0, render.stderr)
    XCTAssertEqual(render.stderr, "")
    // Never overwrites.
    let again = try CLI.run(["init", dir.path])
    XCTAssertEqual(again.status, 1)
    XCTAssertEqual(again.stderr.split(separator: "\n").count, 1, again.stderr)
    XCTAssertTrue(again.stderr.hasPrefix("error: ") && again.stderr.contains("already exists"), again.stderr)
    // luacheck is happy with the starter, under the starter's own settings.
    let check = try CLI.run(["luacheck", "--no-color", "scene.lua"], cwd: dir, executable: URL(fileURLWithPath: "/usr/bin/env"))
    XCTAssertEqual(check.status, 0, check.stdout + check.stderr)
  }

  func testLuacheckFindsNothingInTheExamplesAndBenches() throws {
    var files = try FileManager.default.contentsOfDirectory(atPath: EndToEndTests.repo.appendingPathComponent("examples").path)
      .filter { $0.hasSuffix(".lua") }.map { "examples/" + $0 }
    files += try FileManager.default.contentsOfDirectory(atPath: EndToEndTests.repo.appendingPathComponent("bench").path)
      .filter { $0.hasSuffix(".lua") }.map { "bench/" + $0 }
    XCTAssertGreaterThan(files.count, 5)
    let r = try CLI.run(["luacheck", "--no-color", "--codes"] + files.sorted(), executable: URL(fileURLWithPath: "/usr/bin/env"))
    XCTAssertEqual(r.status, 0, "luacheck warnings:\n" + r.stdout + r.stderr)
    XCTAssertTrue(r.stdout.contains("0 warnings / 0 errors"), r.stdout)
  }
}
