import ChartSceneHost
import ChartSceneLua
import Foundation
import SceneGraph
import XCTest

/// Each option is declared once (`OptionTable`): a script and a preset accept the same values
/// with the same message, and the docs' option tables are the declarations'.
final class OptionSchemaTests: XCTestCase {
  static let repo = URL(fileURLWithPath: "\(#filePath)").deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
  let dir = ScriptFolder()

  /// A call of the constructor with `key = value` (and what it needs besides).
  func call(_ table: OptionTable, _ key: String, _ value: String) -> String {
    switch table.owner {
    case "cs.chart", "cs.card": return "\(table.owner){ data = cs.data.sample()[1], \(key) = \(value) }"
    default: return "\(table.owner){ \(key) = \(value), cs.text{ text = 'a' } }"
    }
  }

  /// nil when the script loads, else the message's reason (what the parentheses hold).
  func luaProblem(_ table: OptionTable, _ key: String, _ value: Double) -> String? {
    let script = "return cs.scene{ width = 400, height = 300, root = \(call(table, key, "\(value)")) }"
    do {
      _ = try dir.session(script).displayList(at: 0)
      return nil
    } catch {
      return reason(String(describing: error), prefix: "bad field '\(key)' in \(table.owner) (")
    }
  }

  func presetProblem(_ section: String, _ key: String, _ value: Double) -> String? {
    let p = dir.write("presets/p.lua", "return { \(section) = { \(key) = \(value) } }")
    do {
      _ = try PresetLoader(scriptDirectory: dir.path, assetsDirectory: EndToEndAssets.path).load(p)
      return nil
    } catch {
      return reason(error.message, prefix: "bad value for '\(section).\(key)' in preset (")
    }
  }

  func reason(_ message: String, prefix: String) -> String {
    guard let r = message.range(of: prefix) else { return "unexpected: " + message }
    return String(message[r.upperBound...].dropLast())
  }

  /// Every number a preset may set: at, inside and outside each end, Lua and preset agree.
  func testLuaAndPresetsAcceptTheSameNumbersWithTheSameMessage() {
    var checked = 0
    for table in OptionTable.all {
      guard let section = table.presetSection else { continue }
      for spec in table.options where spec.preset {
        guard case .number(let b?) = spec.kind else { continue }
        let step = max(1e-3, (b.upper - b.lower) / 1000)
        for v in [b.lower, b.upper, b.lower - step, b.upper + step, b.lower + step, b.upper - step, (b.lower + b.upper) / 2] {
          let lua = luaProblem(table, spec.key, v), preset = presetProblem(section, spec.key, v)
          XCTAssertEqual(lua, preset, "\(table.owner).\(spec.key) = \(v): Lua and preset disagree")
          XCTAssertEqual(lua == nil, b.contains(v), "\(table.owner).\(spec.key) = \(v)")
          checked += 1
        }
      }
    }
    XCTAssertGreaterThanOrEqual(checked, 7 * 3)
  }

  /// The disagreements issue 24 found, each resolved one way for both.
  func testTheFormerDisagreements() {
    // carousel.itemWidth = 0: refused by both (an item needs a width).
    XCTAssertEqual(luaProblem(.carousel, "itemWidth", 0), "must be between 1 and 16384, got 0")
    XCTAssertEqual(presetProblem("carousel", "itemWidth", 0), "must be between 1 and 16384, got 0")
    // cards.scaleStep: at least 0 and below 0.5 for both (a preset refused 0.495, above 0.49).
    XCTAssertNil(luaProblem(.cards, "scaleStep", 0.495))
    XCTAssertNil(presetProblem("cards", "scaleStep", 0.495))
    XCTAssertEqual(luaProblem(.cards, "scaleStep", 0.5), "must be at least 0 and below 0.5, got 0.5")
    XCTAssertEqual(presetProblem("cards", "scaleStep", 0.5), "must be at least 0 and below 0.5, got 0.5")
    // list.rowHeight: 1 to 16384 for both.
    XCTAssertEqual(luaProblem(.list, "rowHeight", 0.5), "must be between 1 and 16384, got 0.5")
    XCTAssertEqual(presetProblem("list", "rowHeight", 0.5), "must be between 1 and 16384, got 0.5")
    XCTAssertNil(presetProblem("list", "rowHeight", 16384))
    // chart.lineWidth: above 0, at most 50 for both (a preset refused 0.05, a script took it).
    XCTAssertNil(luaProblem(.chart, "lineWidth", 0.05))
    XCTAssertNil(presetProblem("chart", "lineWidth", 0.05))
    XCTAssertEqual(luaProblem(.chart, "lineWidth", 0), "must be above 0 and at most 50, got 0")
    XCTAssertEqual(presetProblem("chart", "lineWidth", 0), "must be above 0 and at most 50, got 0")
    XCTAssertEqual(luaProblem(.card, "lineWidth", 51), "must be above 0 and at most 50, got 51")
  }

  /// zstack.spacing: accepted and checked like a stack's (valid scripts stay valid), and it
  /// changes nothing: a z-stack has no gaps. No preset section sets a stack's spacing.
  func testAZStackTakesSpacingAndIgnoresIt() throws {
    func frames(_ spacing: String) throws -> String {
      let s = try dir.session("return cs.scene{ width = 300, height = 200, root = cs.zstack{ \(spacing) cs.text{ text = 'a' }, cs.text{ text = 'bb' } } }")
      return try s.inspect(at: 0)
    }
    XCTAssertEqual(try frames("spacing = 40,"), try frames(""))
    XCTAssertEqual(luaProblem(.zstack, "spacing", -1), luaProblem(.vstack, "spacing", -1))
    XCTAssertEqual(luaProblem(.zstack, "spacing", -1), "must be between 0 and 16384, got -1")
    XCTAssertNil(Preset.key("zstack.spacing"))  }

  /// Each form of bounds says itself the same way in messages and in the docs.
  func testBoundsWords() {
    XCTAssertEqual(Bounds.closed(1...16384).problem(0), "must be between 1 and 16384, got 0")
    XCTAssertEqual(Bounds.closed(1...16384).text, "1 to 16384")
    XCTAssertEqual(Bounds.above(0, atMost: 50).problem(0), "must be above 0 and at most 50, got 0")
    XCTAssertEqual(Bounds.above(0, atMost: 50).text, "above 0, at most 50")
    XCTAssertEqual(Bounds.atLeast(0, below: 0.5).problem(0.5), "must be at least 0 and below 0.5, got 0.5")
    XCTAssertEqual(Bounds.atLeast(0, below: 0.5).shortText, "[0…0.5)")
    XCTAssertEqual(Bounds.closed(0...Double.infinity).problem(-1), "must be at least 0, got -1")
    XCTAssertEqual(Bounds.closed(0...Double.infinity).text, "0 or more")
    XCTAssertNil(Bounds.above(0, atMost: 50).problem(50))
    XCTAssertEqual(dir.error("return cs.scene{ root = cs.text{ text = 'a' }, timeline = { cs.call{ at = -1, fn = function() end } } }"),
                   "s.lua:1: bad field 'at' in cs.call (must be at least 0, got -1)")
    XCTAssertEqual(dir.error("return cs.scene{ root = cs.text{ text = 'a' }, timeline = { cs.tap{ at = -1, pos = {1, 1} } } }"),
                   "s.lua:1: bad field 'at' in cs.tap (must not be negative)")
  }

  /// The option tables in docs/lua-api.md are what the declarations generate, and every
  /// declared constructor has one.
  func testTheDocsOptionTablesAreCurrent() throws {
    let page = try String(contentsOf: Self.repo.appendingPathComponent("docs/lua-api.md"), encoding: .utf8)
    var problems: [String] = []
    let fresh = OptionTable.updatingDocs(page) { problems.append($0) }
    XCTAssertEqual(problems, [])
    XCTAssertTrue(fresh == page, "docs/lua-api.md's option tables are stale: run scripts/docs (or chartscene definitions --docs docs/lua-api.md)")
    let documented = OptionTable.documentedKeys(page)
    for table in OptionTable.all {
      let missing = Set(table.keys).subtracting(documented[table.documentedWith ?? table.owner] ?? [])
      XCTAssertEqual(missing, [], "docs/lua-api.md has no option table (<!-- options: \(table.owner) -->) showing these keys of \(table.owner)")
    }
  }

  /// A stale table is noticed: changing a generated row makes the page differ.
  func testAStaleTableIsNoticed() throws {
    let page = try String(contentsOf: Self.repo.appendingPathComponent("docs/lua-api.md"), encoding: .utf8)
    let row = "| `itemWidth` |"
    guard let r = page.range(of: row) else { return XCTFail("no itemWidth row") }
    let edited = page.replacingCharacters(in: r, with: "| `itemWidth` | edited |")
    XCTAssertNotEqual(OptionTable.updatingDocs(edited), edited)
    XCTAssertEqual(OptionTable.updatingDocs(edited), page)
  }
}
