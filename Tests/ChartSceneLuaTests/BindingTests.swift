import ChartSceneHost
import Foundation
import XCTest

final class BindingTests: XCTestCase {
  let dir = ScriptFolder()

  /// Every name of the contract that this version provides.
  func testContractNamesExist() throws {
    let names = [
      "cs.data.telegram", "cs.data.csv", "cs.data.series", "cs.data.sample",
      "cs.scene", "cs.chart", "cs.card", "cs.vstack", "cs.hstack", "cs.zstack", "cs.spacer", "cs.text", "cs.canvas",
    ]
    let checks = names.map { "assert(type(\($0)) == 'function', '\($0) missing')" }.joined(separator: "\n")
    let methods = ["range", "setRange", "hide", "show", "toggle", "isHidden", "dataRange", "valuesAt"]
      .map { "assert(type(set.\($0)) == 'function', 'ChartSet:\($0) missing')" }.joined(separator: "\n")
    let script = """
      local m = require("chartscene")
      assert(m == cs, "require('chartscene') is cs")
      \(checks)
      local set = cs.data.sample()[1]
      \(methods)
      assert(set.name == "Chart 1" and set.count == 112, set.name .. set.count)
      assert(#set.lines == 2 and set.lines[1].id == "y0" and set.lines[1].color == "#3DC23F" and set.lines[1].hidden == false)
      return \(scene("cs.chart{ data = set }").dropFirst(7))
      """
    _ = try dir.session(script)
  }

  func testChartSetMethodsAndSharing() throws {
    let script = """
      local sets = cs.data.sample()
      local again = cs.data.sample()
      assert(sets[1] == again[1], "the same set each time")
      local s = sets[5]
      local lo, hi = s:range()
      assert(lo == 0 and hi == 1)
      s:setRange(0.5, 0.75)
      lo, hi = s:range()
      assert(lo == 0.5 and hi == 0.75)
      s:hide("y1"); assert(s:isHidden("y1")); s:toggle("y1"); assert(not s:isHidden("y1")); s:hide("y2"); s:show("y2")
      s:hide("y3")
      local mn, mx = s:dataRange()
      assert(mn > 0 and mx > mn)
      local v = s:valuesAt(1)
      assert(v.time == 1552089600000 and v.values.y0 ~= nil and v.index == 372, v.time)
      return cs.scene{ root = cs.vstack{ cs.chart{ id = "a", data = s }, cs.card{ id = "b", data = s } } }
      """
    let session = try dir.session(script)
    let json = try session.inspect(at: 0)
    // Both views of the one set show its state.
    XCTAssertEqual(json.components(separatedBy: "\"range\": [0.5, 0.75]").count, 3)
    XCTAssertEqual(json.components(separatedBy: "\"hidden\": [\"y3\"]").count, 3)
  }

  /// A session, its Lua state and its scene are freed when the last reference goes (a
  /// --watch or --live reload drops the old one), callbacks and all.
  func testSessionsAreFreed() throws {
    weak var lua: AnyObject?
    weak var scene: AnyObject?
    do {
      let s = try dir.session("""
        return cs.scene{ width = 200, height = 100, duration = 0.5, fps = 10,
          root = cs.canvas{ draw = function(g) g:rect(0, 0, 10, 10):fill() end },
          update = function(t, dt) end,
          timeline = { cs.call{ at = 0.1, fn = function(s) end } } }
        """)
      _ = try s.displayList(at: 0.3)
      lua = s.lua
      scene = s.scene
    }
    XCTAssertNil(lua, "the Lua state leaked")
    XCTAssertNil(scene, "the scene leaked")
  }

  func testErrorLines() {
    XCTAssertEqual(dir.error("return cs.chart(nil)"), "s.lua:1: bad argument #1 to 'chart' (table expected, got nil)")
    XCTAssertEqual(dir.error("return cs.chart()"), "s.lua:1: bad argument #1 to 'chart' (table expected, got no value)")
    XCTAssertEqual(dir.error("local s = cs.data.sample()[1]\nreturn cs.scene{ root = cs.chart{ data = s, minmap = false } }"),
                   "s.lua:2: unknown key 'minmap' in cs.chart (did you mean 'minimap'?)")
    XCTAssertEqual(dir.error("return cs.scene{ theme = 'dusk', root = cs.spacer{} }"),
                   "s.lua:1: invalid theme 'dusk' in cs.scene, expected one of: 'day', 'night'")
    XCTAssertEqual(dir.error("return cs.scene{ width = 0, root = cs.spacer{} }"),
                   "s.lua:1: bad field 'width' in cs.scene (must be between 1 and 16384, got 0)")
    XCTAssertEqual(dir.error("return cs.scene{ width = 'wide', root = cs.spacer{} }"),
                   "s.lua:1: bad field 'width' in cs.scene (number expected, got string)")
    XCTAssertEqual(dir.error("return cs.scene{ }"), "s.lua:1: missing field 'root' in cs.scene (the view to draw, e.g. cs.chart{...})")
    XCTAssertEqual(dir.error("return cs.vstack{ align = 'middle' }"),
                   "s.lua:1: invalid align 'middle' in cs.vstack, expected one of: 'leading', 'center', 'trailing', 'top', 'bottom'")
    XCTAssertEqual(dir.error("return cs.chart{ title = 'x' }"), "s.lua:1: missing field 'data' in cs.chart (a ChartSet from cs.data.*)")
    XCTAssertEqual(dir.error("return cs.chart{ data = 5 }"), "s.lua:1: bad field 'data' in cs.chart (ChartSet (from cs.data.*) expected, got number)")
    XCTAssertTrue(dir.error("return cs.text{ text = 'a', color = 'reddish' }").hasPrefix("s.lua:1: bad colour 'reddish' for 'color' in cs.text (expected '#RRGGBB', '#RRGGBBAA' or a theme colour: 'background',"))
    XCTAssertEqual(dir.error("local x = nil\n\nreturn x.y"), "s.lua:3: attempt to index a nil value (local 'x')")
    XCTAssertEqual(dir.error("error('boom')"), "s.lua:1: boom")
    XCTAssertEqual(dir.error("error('boom', 0)"), "s.lua: boom")
    XCTAssertEqual(dir.error("local a = 1\nreturn 5\n"), "s.lua:2: the script must return cs.scene{ ... } (it returned number)")
    XCTAssertEqual(dir.error("return cs.scene{ root = cs.chart{ data = cs.data.sample()[1] } "), "s.lua:1: '}' expected near <eof>")
    XCTAssertEqual(dir.error("local s = cs.data.sample()[1]\ns:hide('y9')"),
                   "s.lua:2: bad argument #2 to 'hide' (no line 'y9' in 'Chart 1'; lines are 'y0' ('#0'), 'y1' ('#1'))")
    XCTAssertEqual(dir.error("cs.data.telegram('missing.json')"), "s.lua:1: cannot read '\(dir.path)/missing.json': no such file".replacingOccurrences(of: dir.path + "/", with: ""))
    XCTAssertEqual(dir.error("local v = cs.spacer{}\nreturn cs.scene{ root = cs.vstack{ v, v } }"),
                   "s.lua:2: child #2 in cs.vstack is already used elsewhere in the scene (a view can be placed once)")
    XCTAssertEqual(dir.error("return cs.scene{ root = cs.vstack{ cs.spacer{ id = 'a' }, cs.spacer{ id = 'a' } } }"),
                   "s.lua:1: duplicate id 'a' (ids must be unique; first used by a spacer)")
    XCTAssertEqual(dir.error("local s = cs.data.sample()[1]\nreturn cs.scene{ root = cs.chart{ data = s, indicatorAt = 2 } }"),
                   "s.lua:2: bad field 'indicatorAt' in cs.chart (a fraction of the time axis, 0 to 1, expected; got 2.0)")
  }

  func testCompositionErrors() {
    let two = "cs.card{ id = 'a', data = cs.data.sample()[1] }, cs.card{ id = 'b', data = cs.data.sample()[2] }"
    XCTAssertEqual(dir.error("return cs.cards{ order = { 'a', 'z' }, \(two) }"), "s.lua:1: bad field 'order' in cs.cards (no card with id 'z'; cards are 'a', 'b')")
    XCTAssertEqual(dir.error("return cs.cards{ modal = 'q', \(two) }"), "s.lua:1: bad field 'modal' in cs.cards (no card with id 'q')")
    XCTAssertEqual(dir.error("return cs.cards{ scaleStep = 0.7 }"), "s.lua:1: bad field 'scaleStep' in cs.cards (must be at least 0 and below 0.5, got 0.7)")
    XCTAssertEqual(dir.error("return cs.tabs{ { title = 'x', view = cs.spacer{} }, selected = 'y' }"),
                   "s.lua:1: bad field 'selected' in cs.tabs (no tab titled 'y'; tabs are 'x')")
    XCTAssertEqual(dir.error("return cs.tabs{ { title = 'x' } }"), "s.lua:1: missing field 'view' in cs.tabs tab #1")
    XCTAssertEqual(dir.error("return cs.tabs{ }"), "s.lua:1: cs.tabs needs at least one tab ({ title = ..., view = ... })")
    XCTAssertEqual(dir.error("return cs.tabs{ { title = 'x', view = cs.spacer{}, icon = 'star' } }"),
                   "s.lua:1: invalid icon 'star' in cs.tabs tab #1, expected one of: 'list', 'carousel', 'cards', 'chart'")
    XCTAssertEqual(dir.error("return cs.carousel{ itemWidht = 3 }"), "s.lua:1: unknown key 'itemWidht' in cs.carousel (did you mean 'itemWidth'?)")
    XCTAssertEqual(dir.error("return cs.spacer{ rotation3d = { angle = 20, axis = {0, 0, 1} } }"),
                   "s.lua:1: bad field 'axis' in cs.spacer rotation3d (a turn about {0, 1, 0} or {1, 0, 0} expected)")
  }

  func testBadDataFilesNameTheirPlace() {
    dir.write("bad.json", "[{\"columns\": [[\"x\", 1, 2], [\"y0\", 1, \"a\"]]}]")
    XCTAssertEqual(dir.error("cs.data.telegram('bad.json')"), "s.lua:1: bad.json: [0].columns[1][2]: expected a number, got string")
    dir.write("cut.json", "[{\"columns\": [[\"x\", 1, 2")
    XCTAssertEqual(dir.error("cs.data.telegram('cut.json')"), "s.lua:1: cut.json: invalid JSON at byte 24 (line 1, column 25): unexpected end of file in an array")
    dir.write("bad.csv", "t,a\n2019-01-01,1\n2019-01-02,x\n")
    XCTAssertEqual(dir.error("cs.data.csv('bad.csv')"), "s.lua:1: bad.csv: line 3, column 2: expected a number, got 'x' in column 'a'; add 'x' to missing, or leave the column out with columns")
  }

  func testSandbox() {
    XCTAssertEqual(dir.error("io.open('x')"), "s.lua:1: 'io' is not available in chartscene scripts")
    XCTAssertEqual(dir.error("os.execute('ls')"), "s.lua:1: 'os.execute' is not available in chartscene scripts")
    XCTAssertEqual(dir.error("os.remove('x')"), "s.lua:1: 'os.remove' is not available in chartscene scripts")
    XCTAssertEqual(dir.error("dofile('x')"), "s.lua:1: 'dofile' is not available in chartscene scripts")
    XCTAssertEqual(dir.error("string.dump(print)"), "s.lua:1: 'string.dump' is not available in chartscene scripts")
    // A binary chunk is refused as the manual says of a chunk the mode refuses: nil and a
    // message (issue 37, item 11).
    XCTAssertEqual(dir.error("assert(load('\\27Lua', 'x', 'b'))"), "s.lua:1: attempt to load a binary chunk (chartscene scripts load text chunks only)")
    XCTAssertEqual(dir.error("local f, e = load('\\27Lua')\nerror(e, 0)"), "s.lua: attempt to load a binary chunk (chartscene scripts load text chunks only)")
    XCTAssertEqual(dir.error("local f, e = load('\\27Lua', 'x', 't')\nerror(e, 0)"), "s.lua: attempt to load a binary chunk (mode is 't')")
    XCTAssertEqual(dir.error("local x = debug.traceback()"), "s.lua:1: 'debug' is not available in chartscene scripts")
    XCTAssertEqual(dir.error("require('../etc/passwd')"), "s.lua:1: module '../etc/passwd' not found (module names are like 'helpers' or 'lib.colors')")
    XCTAssertEqual(dir.error("local n = 0\nwhile true do n = n + 1 end"), "s.lua:2: script ran for too long (over 1 s; --max-time)")
    // A pcall in the script cannot keep an endless loop going past the limit (0.2 s: the
    // stop is what is checked, whatever the limit).
    var start = Date()
    XCTAssertEqual(dir.error("while true do\n  pcall(function() while true do end end)\nend", maxTime: 0.2), "s.lua:2: script ran for too long (over 0.2 s; --max-time)")
    XCTAssertLessThan(Date().timeIntervalSince(start), 10)  // stopped, not run on (generous: a shared machine)
    start = Date()
    XCTAssertTrue(dir.error("while true do\n  xpcall(function() while true do end end, function(e) while true do end end)\nend", maxTime: 0.2).hasSuffix("script ran for too long (over 0.2 s; --max-time)"))
    XCTAssertLessThan(Date().timeIntervalSince(start), 10)  // stopped, not run on (generous: a shared machine)
    // Callbacks get a tenth: an endless draw function stops with its line.
    XCTAssertEqual(dir.error("return cs.scene{ root = cs.canvas{ draw = function(g)\n  while true do end\nend } }"),
                   "s.lua:2: script ran for too long (over 0.1 s; --max-time)")
  }

  func testRequireFindsModulesNextToTheScript() throws {
    dir.write("lib/util.lua", "local M = {}\nfunction M.title() return 'From module' end\nreturn M")
    let s = try dir.session("local u = require('lib.util')\nassert(require('lib.util') == u)\nreturn cs.scene{ root = cs.text{ text = u.title() } }")
    XCTAssertTrue(try s.inspect(at: 0).contains("From module"))
    dir.write("broken.lua", "return {\n  x = ,\n}")
    XCTAssertEqual(dir.error("require('broken')"), "broken.lua:2: unexpected symbol near ','")
  }

  func testCanvasRecordsIntoTheDisplayList() throws {
    let s = try dir.session("""
      return cs.scene{ width = 200, height = 100, root = cs.canvas{ id = "c", draw = function(g, w, h, t)
        g:color("#FF0000"):rect(0, 0, w / 2, h):fill()
        g:save(); g:translate(10, 10); g:color("grid"):lineWidth(3):moveTo(0, 0):lineTo(50, 50):stroke(); g:restore()
        g:text("hello", 5, 5, { size = 20, align = "left" })
      end } }
      """)
    let list = try s.displayList(at: 0)
    let dump = RecordingPainterDump.of(list)
    XCTAssertTrue(dump.contains("path fill #FF0000 R0,0,100,100"), dump)
    XCTAssertTrue(dump.contains("transform 1 0 0 1 10 10"), dump)
    XCTAssertTrue(dump.contains("text \"hello\" 20.0/regular"), dump)
    XCTAssertEqual(dir.error("return cs.scene{ root = cs.canvas{ draw = function(g) g:color('blue') end } }"),
                   "s.lua:1: bad argument #2 to 'color' ('#RRGGBB', '#RRGGBBAA' or a theme colour expected, got 'blue')")
    XCTAssertEqual(dir.error("return cs.scene{ root = cs.canvas{ draw = function(g)\n  local x = nil + 1\nend } }"),
                   "s.lua:2: attempt to perform arithmetic on a nil value")
  }

  func testInlineSeriesAndCSV() throws {
    dir.write("d.csv", "date,Views\n2019-01-01,10\n2019-01-02,20\n")
    let s = try dir.session("""
      local a = cs.data.series{ name = "Inline", x = {0, 86400000, 172800000}, lines = { { id = "v", name = "Visits", color = "#336699", values = {1, 2, 3} } } }
      local b = cs.data.csv("d.csv")
      assert(a.name == "Inline" and a.lines[1].color == "#336699" and b.count == 2 and b.lines[1].name == "Views")
      return cs.scene{ root = cs.hstack{ cs.chart{ data = a }, cs.chart{ data = b } } }
      """)
    XCTAssertTrue(try s.inspect(at: 0).contains("\"dataRange\": [1.0, 3.0]"))
    XCTAssertEqual(dir.error("cs.data.series{ x = {1, 2}, lines = { { values = {1} } } }"),
                   "s.lua:1: cs.data.series: lines[1].values: has 1 values, but x has 2")
  }
}

import Drawing
import Render
enum RecordingPainterDump { static func of(_ l: DisplayList) -> String { RecordingPainter().dump(l) } }
