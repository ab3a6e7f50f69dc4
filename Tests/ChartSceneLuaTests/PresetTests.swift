import ChartSceneHost
import ChartSceneLua
import Foundation
import SceneGraph
import XCTest

final class PresetTests: XCTestCase {
  let dir = ScriptFolder()

  var loader: PresetLoader { PresetLoader(scriptDirectory: dir.path, assetsDirectory: EndToEndAssets.path) }

  func presetError(_ text: String, file: StaticString = #filePath, line: UInt = #line) -> String {
    let p = dir.write("presets/bad.lua", text)
    do {
      _ = try loader.load(p)
      XCTFail("loaded", file: file, line: line)
      return ""
    } catch {
      return error.message.replacingOccurrences(of: dir.path + "/", with: "")
    }
  }

  func testSchemaErrorsNameFileLineAndKey() {
    XCTAssertEqual(presetError("return {\n  colors = { background = '#000000' },\n  cards = {\n    scaleStp = 0.1,\n  },\n}"),
                   "presets/bad.lua:4: unknown key 'scaleStp' in preset section 'cards' (did you mean 'scaleStep'?)")
    XCTAssertEqual(presetError("return {\n  colrs = {},\n}"), "presets/bad.lua:2: unknown key 'colrs' in preset (did you mean 'colors'?)")
    XCTAssertEqual(presetError("return { chart = { lineWidth = 'thick' } }"),
                   "presets/bad.lua:1: bad value for 'chart.lineWidth' in preset (number expected, got \"thick\")")
    XCTAssertEqual(presetError("return { chart = { lineWidth = 99 } }"),
                   "presets/bad.lua:1: bad value for 'chart.lineWidth' in preset (must be above 0 and at most 50, got 99)")
    XCTAssertEqual(presetError("return {\n colors = { text = 'red' } }"),
                   "presets/bad.lua:2: bad colour 'red' for 'colors.text' in preset (expected '#RRGGBB' or '#RRGGBBAA')")
    XCTAssertEqual(presetError("return { chart = { lineWidth = function() return 2 end } }"),
                   "presets/bad.lua:1: bad value for 'chart.lineWidth' in preset (function is not allowed; presets hold data only)")
    // No globals, no libraries, no I/O.
    XCTAssertEqual(presetError("return { base = os.getenv('HOME') }"), "presets/bad.lua:1: attempt to index a nil value (global 'os')")
    XCTAssertEqual(presetError("local t = {}\nwhile true do end"), "presets/bad.lua:2: script ran for too long (over 1 s)")
    XCTAssertEqual(presetError("return 5"), "presets/bad.lua:1: a preset must return a table (it returned number)")
    XCTAssertEqual(presetError("return { base = 'dusk' }"), "presets/bad.lua:1: invalid base 'dusk' in preset, expected one of: 'day', 'night'")
  }

  func testExtendsChainsAndCycles() throws {
    dir.write("presets/a.lua", "return { extends = 'b', chart = { lineWidth = 3 } }")
    dir.write("presets/b.lua", "return { extends = 'night', chart = { lineWidth = 1, legend = false } }")
    let a = try loader.load("a")
    XCTAssertEqual(a.values["chart.lineWidth"], .number(3))
    XCTAssertEqual(a.values["chart.legend"], .bool(false))
    XCTAssertEqual(a.values["base"], .string("night"))
    XCTAssertEqual(a.theme.background, Theme.night.background)
    XCTAssertEqual(a.origin, "script")
    dir.write("presets/c.lua", "return { extends = 'd' }")
    dir.write("presets/d.lua", "return {\n  extends = 'c' }")
    XCTAssertThrowsError(try loader.load("c")) {
      XCTAssertTrue("\($0)".contains("preset extends itself (c → d → c)"), "\($0)")
    }
    dir.write("presets/e.lua", "return {\n\n  extends = 'nowhere' }")
    XCTAssertThrowsError(try loader.load("e")) {
      XCTAssertTrue("\($0)".hasSuffix("presets/e.lua:3: preset 'nowhere' not found (in extends)"), "\($0)")
    }
  }

  func testLookupOrderScriptThenUserThenBuiltIn() throws {
    let user = dir.path + "/config"
    setenv("XDG_CONFIG_HOME", user, 1)
    defer { unsetenv("XDG_CONFIG_HOME") }
    XCTAssertEqual(try loader.load("night").origin, "built-in")
    dir.write("config/chartscene/presets/night.lua", "return { description = 'mine', base = 'night' }")
    XCTAssertEqual(try loader.load("night").origin, "user")
    dir.write("presets/night.lua", "return { description = 'local', base = 'night' }")
    XCTAssertEqual(try loader.load("night").description, "local")
    XCTAssertEqual(try loader.load("presets/night.lua").origin, "path")
    XCTAssertThrowsError(try loader.load("missing"))
  }

  func testShowLoadsBackToTheSameValues() throws {
    for name in ["day", "night", "list", "carousel", "cards"] {
      let p = try loader.load(name)
      XCTAssertFalse(p.description.isEmpty, name)
      let copy = dir.write("presets/copy-\(name).lua", p.luaSource(header: "-- copy\n"))
      let back = try loader.load(copy)
      XCTAssertEqual(back.values, p.values, name)
      XCTAssertEqual(back.description, p.description)
    }
  }

  func testScenesAndViewsApplyPresetsUnderExplicitKeys() throws {
    dir.write("presets/thick.lua", "return { extends = 'night', chart = { lineWidth = 5, legend = false }, cards = { scaleStep = 0.1 } }")
    let s = try dir.session("""
      local sets = cs.data.sample()
      return cs.scene{ preset = "thick", root = cs.vstack{
        cs.chart{ id = "a", data = sets[1] },
        cs.chart{ id = "b", data = sets[2], legend = true },
        cs.cards{ id = "deck", preset = "cards", cs.card{ id = "x", data = sets[3] }, cs.card{ id = "y", data = sets[4] } },
      } }
      """)
    XCTAssertEqual(s.scene.theme.background, Theme.night.background)
    guard case .chart(let a)? = s.scene.node(id: "a")?.kind, case .chart(let b)? = s.scene.node(id: "b")?.kind,
      case .view(let deck)? = s.scene.node(id: "deck")?.kind
    else { return XCTFail("kinds") }
    XCTAssertEqual(a.lineWidth, 5)
    XCTAssertFalse(a.legend)
    XCTAssertTrue(b.legend)  // set by the script
    XCTAssertEqual(deck.options["scaleStep"], .number(0.06))  // the view's own preset wins in its subtree
    XCTAssertEqual(dir.error("return cs.scene{ preset = 'nope', root = cs.spacer{} }"),
                   "s.lua:1: preset 'nope' not found (looked for a path, then in the script's presets/, the user's presets and the built-ins)")
  }
}

enum EndToEndAssets {
  static let path: String = URL(fileURLWithPath: "\(#filePath)").deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("assets").path
}
