import Foundation
import XCTest

/// Issue 20, items 2, 3, 5, 7, 8: `cs.view` compositions — state, layout, motion from state,
/// the built-ins written on it, errors with their line, `--inspect` of state and placement.
final class ViewCompositionTests: FolderCase {
  /// A view whose tap moves its two children apart with a spring; prints each layout call.
  /// `gap` moves by value (`animates`): the layout runs on every frame it moves (without
  /// it the children would move by identity, the layout running once: IdentityMotionTests).
  let pair = """
    local function box() return cs.canvas{ draw = function(g, w, h) g:color("#3497ED"):rect(0, 0, w, h):fill() end } end
    local v = cs.view{
      id = "v", kind = "pair", state = { gap = 0, label = "a" }, animates = { "gap" },
      layout = function(self, w, h)
        print(string.format("layout %.2f", self.state.gap))
        for i, c in ipairs(self.children) do
          c.frame = { (i - 1) * (100 + self.state.gap), 0, 100, 100 }
          c.z = -i
        end
      end,
      on = { tap = function(self, e)
        cs.animate({ curve = "spring", duration = 0.5 }, function() self.state.gap = 200 end)
        self.state.label = "b"
      end },
      inspect = function(self) return { gap = self.state.gap } end,
      box(), box(),
    }
    return cs.scene{ width = 500, height = 100, fps = 10, duration = 3, root = v,
      timeline = { cs.tap{ at = 0.5, target = "v" } } }
    """

  func json(_ r: CLI.Result) throws -> [String: Any] {
    try XCTUnwrap(JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any], r.stderr)
  }

  func testStateMovesTheChildrenAndAStillFrameCallsNoLua() throws {
    try write("p.lua", pair)
    let r = try run(["p.lua", "--inspect", "--at", "2.9"])
    XCTAssertEqual(r.status, 0, r.stderr)
    let calls = r.stderr.split(separator: "\n").filter { $0.hasPrefix("layout") }
    // Once at the start, then only while the gap moves (0.5 s of spring at 10 fps, plus the
    // tap's tick): never on the frames before the tap or after it settled.
    XCTAssertGreaterThanOrEqual(calls.count, 5, calls.joined(separator: "\n"))
    XCTAssertLessThanOrEqual(calls.count, 12, calls.joined(separator: "\n"))
    XCTAssertEqual(calls.first, "layout 0.00")
    XCTAssertEqual(calls.last, "layout 200.00")
    let moving = calls.dropFirst().dropLast().compactMap { Double($0.split(separator: " ")[1]) }
    XCTAssertTrue(moving.contains { $0 > 1 && $0 < 199 }, "no frame in between: \(calls)")
    let root = try XCTUnwrap(try json(r)["root"] as? [String: Any])
    XCTAssertEqual(root["kind"] as? String, "pair")
    XCTAssertEqual(root["gap"] as? Double, 200)
    XCTAssertEqual((root["state"] as? [String: Any])?["label"] as? String, "b")
    let kids = try XCTUnwrap(root["children"] as? [[String: Any]])
    XCTAssertEqual(kids[1]["frame"] as? [Double], [300, 0, 100, 100])
    XCTAssertEqual((kids[1]["placed"] as? [String: Any])?["z"] as? Double, -2)
  }

  func testMidMotionIsBetweenAndInspectShowsIt() throws {
    try write("p.lua", pair)
    let r = try run(["p.lua", "--inspect", "--at", "0.7"])
    XCTAssertEqual(r.status, 0, r.stderr)
    let root = try XCTUnwrap(try json(r)["root"] as? [String: Any])
    let gap = try XCTUnwrap((root["state"] as? [String: Any])?["gap"] as? Double)
    XCTAssertGreaterThan(gap, 1)
    XCTAssertLessThan(gap, 199)
    XCTAssertEqual(root["gap"] as? Double, gap, "inspect functions read the state as shown")
  }

  func testLayoutErrorsNameTheirLineAndTime() throws {
    let cases: [(String, String)] = [
      ("c.scale = -1", "s.lua:3: in layout at 0 s: bad scale for child 1 in layout (a number from 0 to 1000000 expected, got -1)"),
      ("c.size = 3", "s.lua:3: in layout at 0 s: unknown property 'size' for child 1 in layout (a layout sets frame, offset, scale, opacity, rotation3d, z, hidden, clip, depth, passing, sheet, modal)"),
      ("c.frame = { 0, 0, 0/0, 10 }", "s.lua:3: in layout at 0 s: bad frame for child 1 in layout (finite numbers x, y, width, height expected)"),
      ("self.children[7].z = 1", "s.lua:3: in layout at 0 s: no child 7 in layout (the view has 1)"),
      ("self.state.n = 2", "s.lua:3: in layout at 0 s: cannot set self.state.n in a layout or draw function, nor through self.shown (change the state in a handler, cs.call or update)"),
      ("self.target.n = 2", "s.lua:3: in layout at 0 s: a layout or draw function cannot change the state (change it in a handler, cs.call or update)"),
    ]
    for (line, message) in cases {
      try write("s.lua", """
        return cs.scene{ width = 200, height = 100, root = cs.view{ state = { n = 1 }, layout = function(self, w, h)
          local c = self.children[1]
          \(line)
        end, cs.text{ text = "x" } } }
        """)
      let r = try run(["s.lua", "-o", "s.png"])
      XCTAssertEqual(r.status, 1, line)
      XCTAssertEqual(r.stderr, "error: \(message)\n", line)
      XCTAssertFalse(FileManager.default.fileExists(atPath: dir.appendingPathComponent("s.png").path), line)
    }
  }

  func testHandlerStateErrorsAndBadOptions() throws {
    try write("s.lua", """
      return cs.scene{ width = 200, height = 100, duration = 1, root = cs.view{ id = "v",
        on = { tap = function(self, e)
          self.state.f = print
        end },
        cs.text{ text = "x" } }, timeline = { cs.tap{ at = 0.2, target = "v" } } }
      """)
    var r = try run(["s.lua", "--inspect", "--at", "0.5"])
    XCTAssertEqual(r.stderr, "error: s.lua:3: in tap handler at 0.22 s: bad state value for 'f' (numbers, strings, booleans and tables of them; got function)\n")
    try write("s.lua", """
      return cs.scene{ width = 200, height = 100,
        root = cs.list{ spacing = -1 } }
      """)
    r = try run(["s.lua", "--inspect"])
    XCTAssertEqual(r.stderr, "error: s.lua:2: bad field 'spacing' in cs.list (must be between 0 and 1000, got -1)\n")
    try write("s.lua", "return cs.scene{ width = 200, height = 100, root = cs.view{ scrolls = 'up' } }\n")
    r = try run(["s.lua", "--inspect"])
    XCTAssertEqual(r.status, 1)
    XCTAssertTrue(r.stderr.hasPrefix("error: s.lua:1: invalid scrolls 'up'"), r.stderr)
  }

  /// A view made when the script has used all its memory is one line at its line (the
  /// prelude behind cs.view once trapped the process here).
  func testAViewMadeWithNoMemoryLeftIsOneLine() throws {
    try write("full.lua", """
      local opts = { cs.text{ text = "a" } }
      local t, n, ok = {}, 0, true
      while ok do ok = pcall(function() n = n + 1; t[n] = string.rep("x", 24) .. n end) end
      local v = cs.view(opts)
      return cs.scene{ width = 100, height = 100, root = v }
      """)
    let r = try run(["full.lua", "--max-memory", "16M", "-o", "full.png"])
    XCTAssertEqual(r.status, 1, r.stderr)
    XCTAssertEqual(r.stderr, "error: full.lua:4: script needs more memory than the 16 MiB allowed (--max-memory)\n")
    XCTAssertFalse(FileManager.default.fileExists(atPath: dir.appendingPathComponent("full.png").path))
  }

  func testAPresetFillsAViewsOptionsUnlessTheScriptSetThem() throws {
    try write("presets/tight.lua", "return { list = { spacing = 2, rowHeight = 100 } }\n")
    try write("l.lua", """
      local s = cs.data.sample()
      return cs.scene{ width = 300, height = 400, root = cs.list{ id = "l", preset = "tight", rowHeight = 150,
        cs.chart{ data = s[1] }, cs.chart{ data = s[2] } } }
      """)
    let r = try run(["l.lua", "--inspect"])
    XCTAssertEqual(r.status, 0, r.stderr)
    let kids = try XCTUnwrap(((try json(r)["root"]) as? [String: Any])?["children"] as? [[String: Any]])
    XCTAssertEqual(kids.map { $0["frame"] as? [Double] }, [[0, 0, 300, 150], [0, 152, 300, 150]])
  }

  func testAComposedListScrollsWithTheWheelAndDrags() throws {
    try write("l.lua", """
      local s = cs.data.sample()
      local rows = { id = "l", rowHeight = 200 }
      for i = 1, 5 do rows[i] = cs.chart{ id = "r" .. i, data = s[i] } end
      return cs.scene{ width = 300, height = 400, fps = 30, duration = 3, root = cs.list(rows),
        timeline = { cs.scroll{ at = 0.2, target = "l", by = { 0, 150 }, duration = 0.2 },
                     cs.drag{ at = 1.0, from = { 150, 300 }, by = { 0, -100 }, duration = 0.4 } } }
      """)
    var r = try run(["l.lua", "--inspect", "--at", "0.9"])
    XCTAssertEqual((try json(r)["root"] as? [String: Any])?["scroll"] as? Double, 150, r.stderr)
    r = try run(["l.lua", "--inspect", "--at", "2.9"])
    let scroll = try XCTUnwrap((try json(r)["root"] as? [String: Any])?["scroll"] as? Double)
    XCTAssertEqual(scroll, 250, accuracy: 1, "the drag that began on r2's plot scrolled the list")
  }

  func testLuaTabsSelectOnATapOfTheBarAndFadeIn() throws {
    try write("t.lua", """
      local s = cs.data.sample()
      return cs.scene{ width = 300, height = 400, fps = 30, duration = 2, root = cs.tabs{ id = "t",
          { title = "A", view = cs.chart{ id = "a", data = s[1] }, icon = "list" },
          { title = "B", view = cs.chart{ id = "b", data = s[2] } } },
        timeline = { cs.tap{ at = 0.5, pos = { 225, 380 } } } }
      """)
    var r = try run(["t.lua", "--inspect", "--at", "0.4"])
    var root = try XCTUnwrap(try json(r)["root"] as? [String: Any], r.stderr)
    XCTAssertEqual(root["selected"] as? Int, 1)
    XCTAssertEqual(root["tabs"] as? [String], ["A", "B"])
    var kids = try XCTUnwrap(root["children"] as? [[String: Any]])
    XCTAssertEqual(kids[0]["frame"] as? [Double], [0, 0, 300, 344])
    XCTAssertEqual(kids[1]["visible"] as? Bool, false)
    // Half-way through the fade, the new tab is shown and partly transparent.
    r = try run(["t.lua", "--inspect", "--at", "0.65"])
    root = try XCTUnwrap(try json(r)["root"] as? [String: Any], r.stderr)
    XCTAssertEqual(root["selected"] as? Int, 2)
    kids = try XCTUnwrap(root["children"] as? [[String: Any]])
    XCTAssertNil(kids[1]["visible"])
    let opacity = try XCTUnwrap((kids[1]["placed"] as? [String: Any])?["opacity"] as? Double)
    XCTAssertGreaterThan(opacity, 0.05)
    XCTAssertLessThan(opacity, 0.95)
  }

  func testLuaCardsOrderPlacementModalAndAUsefulHeight() throws {
    try write("d.lua", """
      local s = cs.data.sample()
      local deck = { id = "deck", order = { "c2", "c0" }, modal = "c1" }
      for i = 0, 5 do deck[#deck + 1] = cs.card{ id = "c" .. i, data = s[i % 5 + 1] } end
      return cs.scene{ width = 600, height = 800, root = cs.cards(deck) }
      """)
    var r = try run(["d.lua", "--inspect"])
    let root = try XCTUnwrap(try json(r)["root"] as? [String: Any], r.stderr)
    XCTAssertEqual(root["order"] as? [String], ["c2", "c0", "c1", "c3", "c4", "c5"])
    XCTAssertEqual(root["modal"] as? String, "c1")
    let kids = try XCTUnwrap(root["children"] as? [[String: Any]])
    func placed(_ k: Int) -> [String: Any] { kids[k]["placed"] as? [String: Any] ?? [:] }
    XCTAssertEqual(placed(2)["scale"] as? Double, 1)
    XCTAssertEqual(placed(0)["scale"] as? Double ?? 0, 0.94, accuracy: 1e-9)
    XCTAssertLessThan((placed(0)["offset"] as? [Double])?[1] ?? 0, 0)  // shifted up: it peeks out above
    XCTAssertEqual(kids[2]["frame"] as? [Double], kids[0]["frame"] as? [Double])
    XCTAssertEqual(kids[5]["visible"] as? Bool, false)  // deeper than four: not drawn
    // The sheet is drawn over a dim of the whole scene, with the chart's check marks.
    r = try run(["d.lua", "-o", "d.png"])
    XCTAssertEqual(r.status, 0, r.stderr)
    // At 320x240 the front card keeps a useful height.
    r = try run(["d.lua", "--inspect", "--size", "320x240"])
    let small = try XCTUnwrap((try json(r)["root"] as? [String: Any])?["children"] as? [[String: Any]], r.stderr)
    for c in small { XCTAssertGreaterThanOrEqual((c["frame"] as? [Double])?[3] ?? 0, 120) }
    // Bad options keep their messages.
    try write("e.lua", "return cs.scene{ width = 200, height = 200, root = cs.cards{ modal = 'q', cs.card{ id = 'a', data = cs.data.sample()[1] } } }\n")
    r = try run(["e.lua", "--inspect"])
    XCTAssertEqual(r.stderr, "error: e.lua:1: bad field 'modal' in cs.cards (no card with id 'q')\n")
  }

  func testACopiedCompositionWorksLikeTheBuiltInAndSharedOnesAreFound() throws {
    let show = try run(["composition", "show", "cards"])
    XCTAssertEqual(show.status, 0, show.stderr)
    try write("mycards.lua", show.stdout)
    let scene = { (make: String) in """
      local s = cs.data.sample()
      \(make)
      return cs.scene{ width = 400, height = 500, fps = 30, duration = 2, root = make{ id = "deck",
          cs.card{ id = "a", data = s[1] }, cs.card{ id = "b", data = s[2] }, cs.card{ id = "c", data = s[3] } },
        timeline = { cs.drag{ at = 0.2, target = "deck", by = { 0, 300 }, hold = 0.6, duration = 0.4 } } }
      """ }
    try write("builtin.lua", scene("local make = cs.cards"))
    try write("copy.lua", scene("local make = require('mycards')"))
    try write("shared.lua", scene("local make = require('tabs') and require('cards')"))
    for name in ["builtin", "copy", "shared"] {
      let r = try run(["\(name).lua", "-o", "\(name).png", "--at", "1.1"])
      XCTAssertEqual(r.status, 0, "\(name): \(r.stderr)")
    }
    let a = try Data(contentsOf: dir.appendingPathComponent("builtin.png"))
    XCTAssertEqual(a, try Data(contentsOf: dir.appendingPathComponent("copy.png")), "the copy moves as the built-in does")
    XCTAssertEqual(a, try Data(contentsOf: dir.appendingPathComponent("shared.png")))
    // A composition in the script's compositions/ folder is found by require and listed.
    try write("compositions/stackish.lua", "-- A vertical stack, as a composition.\nreturn function(t) return cs.vstack(t) end\n")
    let list = try run(["composition", "list"])
    XCTAssertTrue(list.stdout.contains("stackish"), list.stdout)
    XCTAssertTrue(list.stdout.contains("cards     built-in"), list.stdout)
    let missing = try run(["composition", "show", "nope"])
    XCTAssertEqual(missing.status, 1)
    XCTAssertTrue(missing.stderr.hasPrefix("error: composition 'nope' not found"), missing.stderr)
  }
}

/// Issue 24, item 6: "the folder is unchanged" must see a rewrite of the same length.
final class FolderSnapshotTests: FolderCase {
  func testASameLengthRewriteIsAChange() throws {
    try write("out.png", String(repeating: "a", count: 200))
    let before = try snapshot()
    try write("out.png", String(repeating: "a", count: 150) + String(repeating: "b", count: 50))
    XCTAssertNotEqual(try snapshot(), before)
    try write("out.png", String(repeating: "a", count: 200))
    XCTAssertEqual(try snapshot(), before)
  }
}

/// Issue 25, item 3 (begun): `cs.race`, a bar chart race written as a Lua composition.
final class RaceTests: FolderCase {
  let script = """
    local x, a, b, c = {}, {}, {}, {}
    for i = 1, 4 do x[i] = (1577836800 + (i - 1) * 31 * 86400) * 1000 end
    a = { 10, 20, 30, 40 }; b = { 40, 30, 20, 10 }; c = { 0, 0, 5, 50 }
    local set = cs.data.series{ name = "S", x = x, lines = {
      { id = "a", name = "A", values = a }, { id = "b", name = "B", values = b }, { id = "c", name = "C", values = c } } }
    return cs.scene{ width = 640, height = 360, fps = 10, duration = 3, root = cs.race{ id = "r", data = set, top = 2, period = 1 } }
    """

  func bars(_ t: Double) throws -> (bars: [[String: Any]], date: String) {
    let r = try run(["race.lua", "--inspect", "--at", "\(t)"])
    let root = try XCTUnwrap((try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])?["root"] as? [String: Any], r.stderr)
    return (try XCTUnwrap(root["bars"] as? [[String: Any]]), try XCTUnwrap(root["date"] as? String))
  }

  func testValuesCountUpRanksSwapSmoothlyAndTheTopIsKept() throws {
    try write("race.lua", script)
    var (b, date) = try bars(0)
    XCTAssertEqual(b.map { $0["name"] as? String }, ["B", "A"])
    XCTAssertEqual(date, "Jan 2020")
    // Half-way between the first two points, values are in between (a counter) and B stays ahead.
    (b, date) = try bars(0.5)
    var byName = Dictionary(uniqueKeysWithValues: b.map { ($0["name"] as! String, $0) })
    XCTAssertEqual(byName["A"]?["value"] as? Double ?? 0, 15, accuracy: 1e-9)
    XCTAssertEqual(byName["B"]?["rank"] as? Double ?? 0, 1, accuracy: 1e-9)
    // Between the second and third, A passes B: half-way, both are at rank 1.5.
    (b, date) = try bars(1.5)
    byName = Dictionary(uniqueKeysWithValues: b.map { ($0["name"] as! String, $0) })
    XCTAssertEqual(byName["A"]?["value"] as? Double ?? 0, 25, accuracy: 1e-9)
    XCTAssertEqual(byName["B"]?["rank"] as? Double ?? 0, 1.5, accuracy: 1e-9)
    XCTAssertEqual(byName["A"]?["rank"] as? Double ?? 0, 1.5, accuracy: 1e-9)
    // C has not started until its values leave 0; at the end it leads, and only the top two show.
    (b, date) = try bars(2.99)
    XCTAssertEqual(b.first?["name"] as? String, "C")
    XCTAssertLessThanOrEqual(b.count, 3)
    XCTAssertEqual(date, "Apr 2020")
    let r = try run(["race.lua", "-o", "race.png", "--at", "1.5"])
    XCTAssertEqual(r.status, 0, r.stderr)
    let lint = try run(["lint", "race.lua"])
    XCTAssertEqual(lint.status, 0, lint.stdout + lint.stderr)
  }

  func testARaceNeedsData() throws {
    try write("bad.lua", "return cs.scene{ width = 200, height = 100,\n root = cs.race{ top = 3 } }\n")
    let r = try run(["bad.lua", "--inspect"])
    XCTAssertEqual(r.stderr, "error: bad.lua:2: missing field 'data' in cs.race (a ChartSet from cs.data.*)\n")
  }
}
