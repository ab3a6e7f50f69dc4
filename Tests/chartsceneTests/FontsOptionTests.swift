import Foundation
import XCTest

/// `fonts = {...}` and `font = "..."` of a scene, the warning and lint finding for a
/// character no font has, and every script from a lone copy of the binary (issue 22).
final class FontsOptionTests: TempFolderCase {
  static let brand = EndToEndTests.repo.appendingPathComponent("Tests/Fixtures/fonts/Brand.ttf")

  func write(_ name: String, _ text: String) throws {
    let url = tmp.appendingPathComponent(name)
    try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
    try text.write(to: url, atomically: true, encoding: .utf8)
  }

  func scene(_ fields: String) -> String {
    """
    local cs = require("chartscene")
    return cs.scene { width = 300, height = 120,
      \(fields)
      root = cs.text { text = "Brand 123", size = 30 } }
    """
  }

  func testASceneFontChangesThePictureAndFallsBackForOtherScripts() throws {
    try FileManager.default.createDirectory(at: tmp.appendingPathComponent("fonts"), withIntermediateDirectories: true)
    try FileManager.default.copyItem(at: Self.brand, to: tmp.appendingPathComponent("fonts/Brand.ttf"))
    try write("plain.lua", scene(""))
    try write("brand.lua", scene("fonts = { \"fonts/Brand.ttf\" }, font = \"Brand\","))
    try write("mixed.lua", """
      return cs.scene { width = 400, height = 120, fonts = { "fonts/Brand.ttf" }, font = "brand",
        root = cs.text { text = "Brand 销售 مبيعات", size = 30 } }
      """)
    var pngs: [Data] = []
    for name in ["plain", "brand", "mixed"] {
      let r = try CLI.run([name + ".lua", "-o", name + ".png"], cwd: tmp)
      XCTAssertEqual(r.status, 0, r.stderr)
      XCTAssertEqual(r.stderr, "", name)
      pngs.append(try Data(contentsOf: tmp.appendingPathComponent(name + ".png")))
    }
    XCTAssertNotEqual(pngs[0], pngs[1], "the Brand font was used")
    // --inspect measures with the same fonts; a warning-free lint too.
    let lint = try CLI.run(["lint", "mixed.lua"], cwd: tmp)
    XCTAssertEqual(lint.status, 0, lint.stdout + lint.stderr)
  }

  func testBadFontsAreOneLineAtTheScenesLine() throws {
    try FileManager.default.createDirectory(at: tmp.appendingPathComponent("fonts"), withIntermediateDirectories: true)
    try FileManager.default.copyItem(at: Self.brand, to: tmp.appendingPathComponent("fonts/Brand.ttf"))
    try write("fonts/bad.ttf", "not a font")
    let cases: [(String, String)] = [
      ("fonts = { \"fonts/Nope.ttf\" },", "s.lua:2: cannot read font 'fonts/Nope.ttf' in cs.scene: no such file"),
      ("fonts = { \"fonts/bad.ttf\" },", "s.lua:2: 'fonts/bad.ttf' in cs.scene is not a font file fontconfig can read (expected .ttf, .otf or .ttc)"),
      ("fonts = { \"/etc/hostname\" },", "s.lua:2: cannot read '/etc/hostname': it is outside the folders a script may read"),
      ("fonts = { 3 },", "s.lua:2: bad fonts[1] in cs.scene (file name expected, got number)"),
      ("fonts = \"fonts/Brand.ttf\",", "s.lua:2: bad field 'fonts' in cs.scene"),
      ("fonts = { \"fonts/Brand.ttf\" }, font = \"Brnad\",", "s.lua:2: unknown font family 'Brnad' in cs.scene (did you mean 'Brand'?)"),
      ("font = \"Comic Sans\",", "s.lua:2: unknown font family 'Comic Sans' in cs.scene"),
    ]
    for (fields, message) in cases {
      try write("s.lua", scene(fields))
      let r = try CLI.run(["s.lua", "-o", "s.png"], cwd: tmp)
      XCTAssertEqual(r.status, 1, fields)
      XCTAssertTrue(r.stderr.hasPrefix("error: " + message), "\(fields): \(r.stderr)")
      XCTAssertEqual(r.stderr.split(separator: "\n").count, 1, r.stderr)
      XCTAssertFalse(FileManager.default.fileExists(atPath: tmp.appendingPathComponent("s.png").path))
    }
  }

  func testAPresetGivesFontsRelativeToItsFolder() throws {
    try FileManager.default.createDirectory(at: tmp.appendingPathComponent("presets/fonts"), withIntermediateDirectories: true)
    try FileManager.default.copyItem(at: Self.brand, to: tmp.appendingPathComponent("presets/fonts/Brand.ttf"))
    try write("presets/brand.lua", "return {\n  scene = {\n    fonts = { \"fonts/Brand.ttf\" },\n    font = \"Brand\",\n  },\n}\n")
    try FileManager.default.createDirectory(at: tmp.appendingPathComponent("fonts"), withIntermediateDirectories: true)
    try FileManager.default.copyItem(at: Self.brand, to: tmp.appendingPathComponent("fonts/Brand.ttf"))
    try write("own.lua", scene("fonts = { \"fonts/Brand.ttf\" }, font = \"Brand\","))
    try write("preset.lua", scene("preset = \"brand\","))
    var pngs: [Data] = []
    for (name, args) in [("own", ["own.lua"]), ("preset", ["preset.lua"]), ("flag", ["own.lua", "--preset", "presets/brand.lua"])] {
      let r = try CLI.run(args + ["-o", name + ".png"], cwd: tmp)
      XCTAssertEqual(r.status, 0, r.stderr)
      XCTAssertEqual(r.stderr, "", name)
      pngs.append(try Data(contentsOf: tmp.appendingPathComponent(name + ".png")))
    }
    XCTAssertEqual(pngs[0], pngs[1], "the preset's Brand font, as the script's own")
    XCTAssertEqual(pngs[0], pngs[2])
    let cases: [(String, String)] = [
      ("fonts = { \"fonts/None.ttf\" },", "presets/brand.lua:3: cannot read font 'fonts/None.ttf' in preset: no such file"),
      ("fonts = { \"../fonts/Brand.ttf\" },", "presets/brand.lua:3: cannot read '../fonts/Brand.ttf': it is outside the preset's folder"),
      ("fonts = \"fonts/Brand.ttf\",", "presets/brand.lua:3: bad value for 'scene.fonts' in preset (list of font files expected, got string)"),
      ("fonts = { \"fonts/Brand.ttf\" }, font = \"Brnad\",", "presets/brand.lua:3: unknown font family 'Brnad' in preset (did you mean 'Brand'?)"),
    ]
    for (fields, message) in cases {
      try write("presets/brand.lua", "return {\n  scene = {\n    \(fields)\n  },\n}\n")
      let r = try CLI.run(["preset.lua", "-o", "p.png"], cwd: tmp)
      XCTAssertEqual(r.status, 1, fields)
      XCTAssertTrue(r.stderr.hasPrefix("error: ") && r.stderr.contains(message), "\(fields): \(r.stderr)")
      XCTAssertEqual(r.stderr.split(separator: "\n").count, 1, r.stderr)
    }
    try write("presets/brand.lua", "return { scene = { fonts = { \"fonts/Brand.ttf\" } } }\n")
    try write("fonts/bad.ttf", "not a font")
    try write("presets/fonts/bad.ttf", "not a font")
    try write("presets/brand.lua", "return { scene = { fonts = { \"fonts/bad.ttf\" } } }\n")
    let bad = try CLI.run(["preset.lua", "-o", "p.png"], cwd: tmp)
    XCTAssertTrue(bad.stderr.contains("presets/brand.lua:1: 'fonts/bad.ttf' in preset is not a font file"), bad.stderr)
  }

  func testACharacterNoFontHasIsAWarningAndALintFinding() throws {
    try write("s.lua", """
      local cs = require("chartscene")
      return cs.scene { width = 300, height = 300, root = cs.vstack {
        cs.chart { id = "sales", data = cs.data.sample()[1], title = "Sales ሰላም" },
        cs.text { id = "note", text = "fine" } } }
      """)
    let r = try CLI.run(["s.lua", "-o", "s.png"], cwd: tmp)
    XCTAssertEqual(r.status, 0, r.stderr)
    XCTAssertEqual(r.stderr, "warning: s.lua:3: no font has U+1230, U+120B, U+121D in the title of 'sales'\n")
    let lint = try CLI.run(["lint", "s.lua"], cwd: tmp)
    XCTAssertEqual(lint.status, 1)
    XCTAssertTrue(lint.stdout.contains("lint: s.lua: t=0 s: s.lua:3: no font has U+1230, U+120B, U+121D in the title of 'sales'"), lint.stdout)
  }

  /// A lone copy of the binary draws every script from its embedded fonts, the same bytes
  /// as the build in the repository, and twice the same.
  func testEveryScriptFromALoneCopy() throws {
    let lone = tmp.appendingPathComponent("lone"), home = tmp.appendingPathComponent("home")
    for d in [lone, home] { try FileManager.default.createDirectory(at: d, withIntermediateDirectories: true) }
    let loneBinary = lone.appendingPathComponent("chartscene")
    try FileManager.default.copyItem(at: CLI.binary, to: loneBinary)
    let example = EndToEndTests.repo.appendingPathComponent("examples/languages.lua").path
    let env = ["HOME": home.path, "XDG_CACHE_HOME": "", "CHARTSCENE_ASSETS": ""]
    var pngs: [Data] = []
    for (i, binary) in [loneBinary, loneBinary, CLI.binary].enumerated() {
      let out = tmp.appendingPathComponent("l\(i).png")
      let r = try CLI.run([example, "-o", out.path], cwd: tmp, env: env, executable: binary)
      XCTAssertEqual(r.status, 0, r.stderr)
      XCTAssertEqual(r.stderr, "", binary.path)
      pngs.append(try Data(contentsOf: out))
    }
    XCTAssertEqual(pngs[0], pngs[1])
    XCTAssertEqual(pngs[0], pngs[2])
  }
}
