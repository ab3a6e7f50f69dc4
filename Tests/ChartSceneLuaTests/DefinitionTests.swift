import ChartSceneHost
import Foundation
import XCTest
@testable import ChartSceneLua
@testable import LuaKit

/// The LuaLS definition file cannot drift from the bindings: every options table a corpus of
/// scripts opens is watched (`LuaOptions.observer`), and each key the binding accepts, the
/// type it reads it as, and each enum it checks must be declared in `APIDefinitions`; the
/// committed assets/types/chartscene.lua must be what `APIDefinitions` generates.
final class DefinitionTests: XCTestCase {
  static let repo = URL(fileURLWithPath: "\(#filePath)").deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

  /// Scripts that open every options table of the API (each with a few keys set, so the
  /// typed reads behind them run too), plus every example.
  static let corpus: [String] = [
    """
    local sets = cs.data.sample()
    local s = cs.data.series{ name = "S", x = {0, 86400000}, lines = { { id = "a", name = "A", color = "#ff0000", values = {1, 2}, type = "line" } } }
    local g2
    return cs.scene {
      width = 400, height = 900, fps = 30, duration = 1, background = "background", preset = "day",
      theme = { base = "night", accent = "#ff0000" },
      update = function() end,
      root = cs.vstack { spacing = 2, align = "center", padding = 1, background = "#fff", cornerRadius = 2, opacity = 1,
        offset = {0, 0}, scale = 1, frame = { width = 400 }, rotation3d = { angle = 0, axis = {0, 1, 0}, perspective = 900 },
        cs.hstack { cs.spacer { minLength = 1 }, cs.zstack { cs.text { text = "x", size = 12, weight = "bold", color = "text", align = "left" } } },
        cs.chart { data = sets[1], title = "T", minimap = true, legend = true, indicator = true, indicatorAt = 0.5, xAxis = true, yAxis = true, lineWidth = 2 },
        cs.card { data = s, title = "C", lineWidth = 2, xAxis = true, yAxis = true },
        cs.canvas { frame = { height = 40 }, draw = function(g) g:text("t", 1, 1, { size = 9, align = "left", weight = "bold", color = "text" }) end },
        cs.list { spacing = 1, rowHeight = 100, scroll = 0, cs.chart { data = sets[2] } },
        cs.carousel { spacing = 1, itemWidth = 100, angle = 20, scroll = 0, cs.chart { data = sets[3] } },
        cs.cards { scaleStep = 0.05, offsetStep = 30, cs.card { id = "k", data = sets[4] } , order = { "k" }, modal = "k" },
        cs.tabs { selected = 1, { title = "A", view = cs.chart { data = sets[5] }, icon = "chart" } },
      },
      timeline = {
        cs.tap { at = 0.1, pos = {1, 1} },
        cs.longpress { at = 0.1, pos = {1, 1}, duration = 0.6 },
        cs.drag { at = 0.1, pos = {1, 1}, by = {1, 1}, duration = 0.2, hold = 0 },
        cs.scroll { at = 0.1, pos = {1, 1}, by = {0, 1} },
        cs.call { at = 0.2, fn = function() cs.animate({ duration = 0.2, curve = "spring" }, function() end) end },
      },
    }
    """,
  ]

  func testTheBindingsAcceptExactlyWhatTheDefinitionsDeclare() throws {
    var keys: [String: Set<String>] = [:]
    var reads: [String: [String: (String, [String])]] = [:]
    LuaOptions.observer = { owner, key, kind, values in
      let o = Self.normalised(owner)
      if let key {
        reads[o, default: [:]][key] = (kind == "string" && reads[o]?[key]?.0 == "choice") ? reads[o]![key]! : (kind, values)
      } else {
        keys[o, default: []].formUnion(values)
      }
    }
    defer { LuaOptions.observer = nil }
    let folder = ScriptFolder()
    var scripts = Self.corpus
    for name in try FileManager.default.contentsOfDirectory(atPath: Self.repo.appendingPathComponent("examples").path).sorted() where name.hasSuffix(".lua") {
      scripts.append(try String(contentsOf: Self.repo.appendingPathComponent("examples/" + name), encoding: .utf8))
    }
    // The examples' composition modules (examples/lib), copied: require refuses links out of the folder.
    try FileManager.default.copyItem(atPath: Self.repo.appendingPathComponent("examples/lib").path, toPath: folder.path + "/lib")
    folder.write("d.csv", "date,a,b\n2020-01-01,1,2\n2020-01-02,3,4\n")
    // The examples' data files (examples/data), where the examples find them.
    try FileManager.default.createSymbolicLink(atPath: folder.path + "/data", withDestinationPath: Self.repo.appendingPathComponent("examples/data").path)
    scripts.append("return cs.scene { root = cs.chart { data = cs.data.csv('d.csv', { name = 'D', delimiter = ',', colors = { '#ff0000' } }) } }")
    folder.write("d.json", "[{\"date\": \"2020-01-01\", \"a\": 1}, {\"date\": \"2020-01-02\", \"a\": 2}]")
    scripts.append("return cs.scene { root = cs.chart { data = cs.data.json('d.json', { name = 'J', x = 'date', timeFormat = '%Y-%m-%d', columns = { 'a' }, missing = { '' }, sort = true, names = { 'A' }, colors = { '#ff0000' } }) } }")
    scripts.append("return cs.scene { root = cs.chart { data = cs.data.csv('d.csv', { x = 1, columns = 'b', sort = false, missing = '-' }) } }")
    // Sound and captions (issue 25): the check reads only a sound file's first bytes.
    folder.write("v.wav", "RIFF\u{1}\u{1}\u{1}\u{1}WAVEfmt ")
    try Data(base64Encoded: "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=")!.write(to: URL(fileURLWithPath: folder.path + "/p.png"))
    scripts.append("local p = cs.image('p.png'); return cs.scene { root = cs.canvas { draw = function(g) g:image(p, 0, 0, 1, 1, { opacity = 1 }) end } }")
    scripts.append("return cs.scene { duration = 2, audio = { { file = 'v.wav', at = 0.5, gain = 0.8 } }, captions = { { from = 0, to = 1, text = 'Hi' } }, root = cs.chart { data = cs.data.sample()[1] } }")
    for (i, text) in scripts.enumerated() {
      let session = try folder.session(text, name: "corpus\(i).lua")
      _ = try session.displayList(at: 0.5)
    }
    var withTimeline = Session.Overrides()
    withTimeline.timeline = folder.write("tl.lua", "return { cs.tap { at = 0.1, pos = {1, 1} } }")
    _ = try folder.session(scripts[0], name: "timeline.lua", overrides: withTimeline)
    let declared = Dictionary(uniqueKeysWithValues: APIDefinitions.options.map { ($0.owner, $0) })
    let aliases = Dictionary(uniqueKeysWithValues: APIDefinitions.aliases.map { ($0.0, $0.1) })
    XCTAssertGreaterThanOrEqual(keys.count, 25, "the corpus should open every options table")
    for (owner, accepted) in keys {
      guard let d = declared[owner] else { XCTFail("options of '\(owner)' are not in APIDefinitions (keys \(accepted.sorted()))"); continue }
      let names = Set(d.fields.map(\.name))
      XCTAssertEqual(names.subtracting(accepted), [], "\(owner): declared in APIDefinitions but not accepted by the binding")
      XCTAssertEqual(accepted.subtracting(names), [], "\(owner): accepted by the binding but missing from APIDefinitions")
      for (key, (kind, values)) in reads[owner] ?? [:] {
        guard let field = d.fields.first(where: { $0.name == key }) else { continue }
        let types = field.type.split(separator: "|").map(String.init)
        switch kind {
        case "number": XCTAssertTrue(types.contains { $0 == "number" || $0 == "integer" }, "\(owner).\(key) is read as a number but declared \(field.type)")
        case "boolean": XCTAssertTrue(types.contains("boolean"), "\(owner).\(key) is read as a boolean but declared \(field.type)")
        case "numbers": XCTAssertTrue(types.contains("number[]"), "\(owner).\(key) is read as a list of numbers but declared \(field.type)")
        case "string": XCTAssertTrue(types.contains { $0 == "string" || aliases[$0] != nil }, "\(owner).\(key) is read as a string but declared \(field.type)")
        case "choice":
          let alias = types.first { aliases[$0] != nil }
          XCTAssertEqual(alias.flatMap { aliases[$0] }.map(Set.init), Set(values), "\(owner).\(key): the enum the binding checks differs from the declared alias \(field.type)")
        default: break
        }
      }
    }
    // Every options class is opened by the corpus (so none is stale).
    for owner in declared.keys { XCTAssertNotNil(keys[owner], "APIDefinitions declares '\(owner)', which the corpus never opened") }
  }

  /// Every function of `cs` and `cs.data` is declared, and nothing more.
  func testEveryFunctionOfTheModuleIsDeclared() throws {
    let folder = ScriptFolder()
    let session = try folder.session("""
    local names = {}
    for k, v in pairs(cs) do if type(v) == "function" then names[#names + 1] = "cs." .. k end end
    for k in pairs(cs.data) do names[#names + 1] = "cs.data." .. k end
    table.sort(names)
    return cs.scene { root = cs.text { text = table.concat(names, " ") } }
    """)
    let text = try session.inspect(at: 0)
    let declared = Set(APIDefinitions.functions.map(\.name).filter { $0.hasPrefix("cs.") })
    guard let start = text.range(of: "\"text\": \"")?.upperBound, let end = text[start...].firstIndex(of: "\"") else { return XCTFail(text) }
    let actual = Set(text[start..<end].split(separator: " ").map(String.init))
    XCTAssertEqual(actual.subtracting(declared), [], "functions of cs missing from APIDefinitions")
    XCTAssertEqual(declared.subtracting(actual), [], "APIDefinitions declares functions cs does not have")
  }

  func testTheShippedDefinitionFileIsCurrent() throws {
    let shipped = try String(contentsOf: Self.repo.appendingPathComponent("assets/types/chartscene.lua"), encoding: .utf8)
    XCTAssertEqual(shipped, APIDefinitions.luaLS(), "assets/types/chartscene.lua is stale: run scripts/docs (or chartscene definitions > assets/types/chartscene.lua)")
    // Option tables and layout records are exact (an unknown key is flagged); the canvas's
    // methods chain; cs.null is there (issue 40).
    for needle in ["---@meta", "---@class (exact) cs.ChartOptions", "---@field title? string", "---@param opts cs.ChartOptions", "---@alias cs.Curve",
                   "---@class (exact) cs.ChildLayout", "---@return cs.Graphics\nfunction Graphics:fill() end", "---@field null cs.Null"] {
      XCTAssertTrue(shipped.contains(needle), needle)
    }
  }

  static func normalised(_ owner: String) -> String {
    if owner.hasSuffix(" frame") { return "frame" }
    if owner.hasSuffix(" rotation3d") { return "rotation3d" }
    if owner.hasSuffix(" on") { return "on" }
    if owner.hasPrefix("cs.tabs tab #") { return "cs.tabs tab" }
    if owner.hasPrefix("cs.data.series lines[") { return "cs.data.series lines" }
    return owner
  }
}
