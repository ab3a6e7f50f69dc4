import ChartSceneHost
import Drawing
import Foundation
import SceneGraph
import XCTest

/// Issue 38, items 3 and 4: motion by identity (a change inside `cs.animate` lays the view
/// out once for the new state and moves each child from where it is drawn to its new place),
/// `animates` (keys that still move by value), and children that come and go with a
/// transition. Simulated in-process, frame by frame, reading what is drawn.
final class IdentityMotionTests: XCTestCase {
  let dir = ScriptFolder()

  /// A child as drawn: its frame moved and scaled by its placement, its opacity and z.
  struct Drawn { var rect: Rect; var opacity: Double; var z: Double; var visible: Bool }

  func drawn(_ s: Session, _ id: String) -> Drawn? {
    guard let n = s.scene.node(id: id) else { return nil }
    let p = n.placement, c = n.frame.center, k = p.scale
    let r = Rect((n.frame.x - c.x) * k + c.x + p.offset.x, (n.frame.y - c.y) * k + c.y + p.offset.y, n.frame.width * k, n.frame.height * k)
    return Drawn(rect: r, opacity: p.opacity, z: p.z, visible: p.visible)
  }

  /// Each frame from t0 to t1 (30 fps): what `ids` look like.
  func film(_ s: Session, _ ids: [String], from t0: Double, to t1: Double) throws -> [[String: Drawn]] {
    var out: [[String: Drawn]] = []
    var k = Int((t0 * 30).rounded())
    while Double(k) / 30 <= t1 + 1e-9 {
      try s.advance(to: Double(k) / 30)
      var shot: [String: Drawn] = [:]
      for id in ids { shot[id] = drawn(s, id) }
      out.append(shot)
      k += 1
    }
    return out
  }

  /// Fails unless the values only go one way (within a hundredth of a pixel).
  func assertMonotonic(_ xs: [Double], _ what: String, file: StaticString = #filePath, line: UInt = #line) {
    let steps = zip(xs, xs.dropFirst()).map { $1 - $0 }
    let up = steps.contains { $0 > 0.01 }, down = steps.contains { $0 < -0.01 }
    XCTAssertFalse(up && down, "\(what) goes back and forth: \(xs.map { Int($0.rounded()) })", file: file, line: line)
  }

  // MARK: - A swipe deck

  /// The deck of docs/compositions.md: the state is the order of the cards (whole numbers);
  /// its layout refuses any other index.
  static let swipe = """
    local sets = cs.data.sample()
    local deck = {
      id = "deck", padding = 24,
      state = { order = { 1, 2, 3, 4, 5 }, dx = 0 },
      layout = function(self, w, h)
        local step = 28
        for k, i in ipairs(self.state.order) do
          if math.type(i) ~= "integer" then error("a fractional index reached the layout: " .. i) end
          local c = self.children[i]
          c.frame = { 0, 4 * step, w, h - 4 * step }
          c.offset = { k == 1 and self.state.dx or 0, -(k - 1) * step }
          c.scale = 1 - (k - 1) * 0.05
          c.z = -k
        end
      end,
      on = {
        drag = function(self, e)
          if e.phase == "changed" then
            self.state.dx = e.dx
          elseif math.abs(e.dx) > 120 then
            cs.animate({ duration = 0.6 }, function()
              local order = self.state.order
              table.insert(order, table.remove(order, 1))
              self.state.dx = 0
            end)
          else
            cs.animate({ curve = "spring", duration = 0.5 }, function() self.state.dx = 0 end)
          end
        end,
      },
    }
    for i = 1, 5 do deck[i] = cs.card { id = "card" .. i, data = sets[i] } end
    return cs.scene { width = 420, height = 520, fps = 30, duration = 4, root = cs.view(deck),
      timeline = { cs.drag { at = 0.3, target = "deck", by = { 240, 0 }, duration = 0.3 }, TIMELINE } }
    """

  let cards = (1...5).map { "card\($0)" }

  func testASwipeDeckMovesEveryCardToItsNewPlace() throws {
    let s = try dir.session(Self.swipe.replacingOccurrences(of: ", TIMELINE", with: ""))
    let rest0 = try film(s, cards, from: 0, to: 0)[0]
    // The swipe lets go at about 0.63 s; the motion takes 0.6 s.
    let frames = try film(s, cards, from: 0.7, to: 1.5)
    for id in cards {
      assertMonotonic(frames.map { $0[id]!.rect.minX }, "\(id)'s x")
      assertMonotonic(frames.map { $0[id]!.rect.minY }, "\(id)'s y")
      assertMonotonic(frames.map { $0[id]!.z }, "\(id)'s z")
    }
    // Mid-way every card is between where it was and where it goes.
    let mid = frames[6], end = frames.last!
    for (k, id) in cards.enumerated() where k > 0 {
      XCTAssertGreaterThan(mid[id]!.rect.minY, rest0[id]!.rect.minY + 1, "\(id) moves up a place")
      XCTAssertLessThan(mid[id]!.rect.minY, end[id]!.rect.minY - 1, "\(id) is still on its way")
      XCTAssertEqual(end[id]!.rect.minY, rest0[cards[k - 1]]!.rect.minY, accuracy: 1e-6, "\(id) takes the place of the card before it")
    }
    XCTAssertGreaterThan(mid["card1"]!.rect.minX, 1, "the swiped card comes back from where it was let go")
    XCTAssertEqual(end["card1"]!.rect.minY, rest0["card5"]!.rect.minY, accuracy: 1e-6, "the swiped card is at the back")
    // At rest the z order is the new order: card2 in front, card1 behind all.
    let z = cards.sorted { end[$0]!.z > end[$1]!.z }
    XCTAssertEqual(z, ["card2", "card3", "card4", "card5", "card1"])
    XCTAssertEqual(end["card2"]!.z, -1)
    // The order is whole numbers in the state as drawn, mid-motion too.
    let json = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(try s.inspect(at: 0.9).utf8)) as? [String: Any])
    let state = try XCTUnwrap((json["root"] as? [String: Any])?["state"] as? [String: Any])
    XCTAssertEqual(state["order"] as? [Int], [2, 3, 4, 5, 1])
  }

  func testTheLayoutRunsOnceForTheNewOrderAndNotWhileTheCardsMove() throws {
    let s = try dir.session(Self.swipe.replacingOccurrences(of: ", TIMELINE", with: ""))
    try s.advance(to: 0.68)
    guard case .view(let spec)? = s.scene.node(id: "deck")?.kind, let layout = spec.layout else { return XCTFail("no deck") }
    let calls = layout.calls
    _ = try film(s, cards, from: 0.7, to: 1.5)
    XCTAssertEqual(layout.calls, calls, "a frame of motion by identity calls no Lua")
  }

  func testASecondSwipeMidMotionStartsFromWhatIsShown() throws {
    // The second card is thrown while the first motion still runs (it settles at about 1.25 s).
    let s = try dir.session(Self.swipe.replacingOccurrences(of: "TIMELINE", with: "cs.drag { at = 0.7, target = 'deck', by = { -240, 0 }, duration = 0.4, flick = true }"))
    let frames = try film(s, cards, from: 0.6, to: 2.4)
    // The finger moves unevenly, so a step is compared with the steps on either side: a card
    // that lost what was left of its motion (or took the model's place) would jump alone.
    for id in cards {
      let steps = zip(frames, frames.dropFirst()).map { a, b in
        max(abs(b[id]!.rect.minX - a[id]!.rect.minX), abs(b[id]!.rect.minY - a[id]!.rect.minY))
      }
      for i in 1..<(steps.count - 1) {
        XCTAssertLessThanOrEqual(steps[i], 3 * max(steps[i - 1], steps[i + 1]) + 8,
                                 "\(id) jumps \(steps[i]) px at frame \(i) (neighbours \(steps[i - 1]), \(steps[i + 1]))")
      }
    }
    let end = frames.last!
    XCTAssertEqual(cards.sorted { end[$0]!.z > end[$1]!.z }, ["card3", "card4", "card5", "card1", "card2"])
    XCTAssertEqual(end["card2"]!.rect.midX, end["card3"]!.rect.midX, accuracy: 1e-6, "every card back in line")
  }

  // MARK: - A grid reordered by table.insert and table.remove

  static let grid = """
    local sets = cs.data.sample()
    local grid = {
      id = "grid", padding = 16,
      state = { ids = { "a", "b", "c", "d", "e", "f" } },
      layout = function(self, w, h)
        local columns, gap = 3, 12
        local cw, ch = (w - gap * (columns - 1)) / columns, (h - gap) / 2
        local cell = {}
        for k, id in ipairs(self.state.ids) do cell[id] = k - 1 end
        for _, c in ipairs(self.children) do
          local k = cell[c.id]
          c.frame = { (k % columns) * (cw + gap), (k // columns) * (ch + gap), cw, ch }
        end
      end,
      on = {
        tap = function(self, e)
          if not e.child then return end
          local id = self.children[e.child].id
          cs.animate({ duration = 0.6 }, function()
            local ids = self.state.ids
            for k = 1, #ids do if ids[k] == id then table.remove(ids, k) break end end
            table.insert(ids, 1, id)
          end)
        end,
      },
    }
    for i, id in ipairs({ "a", "b", "c", "d", "e", "f" }) do grid[i] = cs.card { id = id, data = sets[(i - 1) % 5 + 1] } end
    return cs.scene { width = 720, height = 420, fps = 30, duration = 2, root = cs.view(grid),
      timeline = { cs.tap { at = 0.3, target = "e" } } }
    """

  func testAGridReorderedByInsertAndRemoveMovesEveryTileByIdentity() throws {
    let s = try dir.session(Self.grid)
    let ids = ["a", "b", "c", "d", "e", "f"]
    let start = try film(s, ids, from: 0, to: 0)[0]
    let frames = try film(s, ids, from: 0.3, to: 1.2)
    let end = frames.last!
    // e goes first; a to d each move one cell on; f stays.
    XCTAssertEqual(end["e"]!.rect, start["a"]!.rect)
    XCTAssertEqual(end["a"]!.rect, start["b"]!.rect)
    XCTAssertEqual(end["b"]!.rect, start["c"]!.rect)
    XCTAssertEqual(end["c"]!.rect, start["d"]!.rect)
    XCTAssertEqual(end["d"]!.rect, start["e"]!.rect)
    XCTAssertEqual(end["f"]!.rect, start["f"]!.rect)
    for id in ids {
      assertMonotonic(frames.map { $0[id]!.rect.minX }, "\(id)'s x")
      assertMonotonic(frames.map { $0[id]!.rect.minY }, "\(id)'s y")
    }
    // Mid-way each moving tile is strictly between its two cells (c goes down and left).
    let mid = frames[frames.count / 2]
    for (id, from, to) in [("e", "e", "a"), ("c", "c", "d"), ("a", "a", "b")] {
      let x = mid[id]!.rect.minX, y = mid[id]!.rect.minY
      let (x0, x1) = (start[from]!.rect.minX, start[to]!.rect.minX), (y0, y1) = (start[from]!.rect.minY, start[to]!.rect.minY)
      if x0 != x1 { XCTAssertTrue(x > min(x0, x1) && x < max(x0, x1), "\(id) at x \(x) mid-way, not between \(x0) and \(x1)") }
      if y0 != y1 { XCTAssertTrue(y > min(y0, y1) && y < max(y0, y1), "\(id) at y \(y) mid-way, not between \(y0) and \(y1)") }
    }
  }

  // MARK: - animates: numbers that move by value

  /// A row whose `x` moves its child; with `animates` the layout sees it mid-way.
  func row(_ animates: String) -> String {
    """
    local seen = {}
    local v = cs.view { id = "v", state = { x = 0 }, \(animates)
      layout = function(self, w, h)
        seen[#seen + 1] = self.state.x
        self.children[1].frame = { self.state.x, 0, 50, 50 }
      end,
      inspect = function(self) local n = 0 for _, x in ipairs(seen) do if x > 0 and x < 100 then n = n + 1 end end return { between = n } end,
      cs.text { id = "t", text = "a" } }
    return cs.scene { width = 400, height = 100, fps = 30, duration = 2, root = v,
      timeline = { cs.call { at = 0.2, fn = function() cs.animate(0.5, function() v.state.x = 100 end) end } } }
    """
  }

  func testAnimatesMovesANumberByValueAndOtherwiseTheChildrenMove() throws {
    for (opt, byValue) in [("animates = { 'x' },", true), ("animates = true,", true), ("", false)] {
      let s = try dir.session(row(opt))
      try s.advance(to: 0.45)
      let x = try XCTUnwrap(drawn(s, "t")).rect.minX
      XCTAssertGreaterThan(x, 5, opt)
      XCTAssertLessThan(x, 95, opt)
      let json = try s.inspect(at: 1.5)
      XCTAssertEqual(json.contains("\"between\": 0"), !byValue, "\(opt): \(json)")
      XCTAssertEqual(try XCTUnwrap(drawn(s, "t")).rect.minX, 100, opt)
    }
  }

  // MARK: - Children that come and go

  static let bench = """
    local sets = cs.data.sample()
    local kept
    local v = cs.view { id = "v", padding = 10,
      layout = function(self, w, h)
        for i, c in ipairs(self.children) do c.frame = { (i - 1) * 110, 0, 100, 100 } end
      end,
      cs.card { id = "a", data = sets[1] }, cs.card { id = "b", data = sets[2] }, cs.card { id = "c", data = sets[3], transition = "scale" } }
    return cs.scene { width = 600, height = 200, fps = 30, duration = 3, root = v, timeline = { EVENTS } }
    """

  func bench(_ events: String) throws -> Session {
    try dir.session(Self.bench.replacingOccurrences(of: "EVENTS", with: events))
  }

  func testAChildAddedInsideAnimateEntersWithItsTransition() throws {
    let s = try bench("""
      cs.call { at = 0.5, fn = function() cs.animate(0.6, function() v:add(cs.card { id = "n", data = sets[4], transition = { edge = "left" } }, 2) end) end }
      """)
    try s.advance(to: 0.4)
    XCTAssertNil(s.scene.node(id: "n"))
    let b0 = try XCTUnwrap(drawn(s, "b")).rect
    try s.advance(to: 0.8)
    let n = try XCTUnwrap(drawn(s, "n")), b = try XCTUnwrap(drawn(s, "b")).rect
    XCTAssertLessThan(n.rect.minX, 110 - 5, "it slides in from the left")
    XCTAssertGreaterThan(b.minX, b0.minX + 5, "b makes room for it, moving")
    XCTAssertLessThan(b.minX, b0.minX + 105)
    try s.advance(to: 1.2)
    XCTAssertEqual(try XCTUnwrap(drawn(s, "n")).rect.minX, 120, accuracy: 1e-9)
    XCTAssertEqual(try XCTUnwrap(drawn(s, "b")).rect.minX, 230, accuracy: 1e-9)
    guard case .view(let spec)? = s.scene.node(id: "v")?.kind else { return XCTFail() }
    XCTAssertEqual(spec.layout?.motions.count, 0, "settled motions are dropped")
  }

  func testAChildAddedOutsideAnimateIsThereAtOnce() throws {
    let s = try bench("cs.call { at = 0.5, fn = function() v:add(cs.card { id = 'n', data = sets[4] }) end }")
    try s.advance(to: 0.5)
    let n = try XCTUnwrap(drawn(s, "n"))
    XCTAssertEqual(n.rect.minX, 340)
    XCTAssertEqual(n.opacity, 1)
  }

  func testAChildRemovedInsideAnimateLeavesThenIsGone() throws {
    let s = try bench("""
      cs.call { at = 0.5, fn = function() cs.animate(0.6, function() v:remove("a") end) end },
      cs.call { at = 1.5, fn = function() cs.animate(0.6, function() v:remove("c") end) end }
      """)
    try s.advance(to: 0.8)
    let a = try XCTUnwrap(drawn(s, "a"))
    XCTAssertTrue(a.opacity > 0.05 && a.opacity < 0.95, "a fades out: \(a.opacity)")
    XCTAssertEqual(a.rect.minX, 10, "where it was")
    let b = try XCTUnwrap(drawn(s, "b")).rect
    XCTAssertTrue(b.minX > 10 && b.minX < 120, "b moves into its place: \(b.minX)")
    try s.advance(to: 1.2)
    XCTAssertNil(s.scene.node(id: "a"), "gone once it has left")
    XCTAssertEqual(try XCTUnwrap(drawn(s, "b")).rect.minX, 10)
    try s.advance(to: 1.8)
    let c = try XCTUnwrap(drawn(s, "c"))
    XCTAssertTrue(c.rect.width > 5 && c.rect.width < 95, "c shrinks away (transition = 'scale'): \(c.rect.width)")
    try s.advance(to: 2.2)
    XCTAssertNil(s.scene.node(id: "c"))
    // The view's handlers and layout see only the children that are there.
    guard case .view(let spec)? = s.scene.node(id: "v")?.kind else { return XCTFail() }
    XCTAssertEqual(s.scene.node(id: "v")?.children.count, 1)
    XCTAssertEqual(spec.layout?.leaving.count, 0)
  }

  func testAChildRemovedOutsideAnimateIsGoneAtOnceAndCanComeBack() throws {
    let s = try bench("""
      cs.call { at = 0.5, fn = function() keep = v.children[1]; v:remove("a") end },
      cs.call { at = 1.0, fn = function() cs.animate(0.3, function() v:add(keep, 1) end) end }
      """.replacingOccurrences(of: "keep", with: "kept"))
    try s.advance(to: 0.5)
    XCTAssertNil(s.scene.node(id: "a"))
    XCTAssertEqual(try XCTUnwrap(drawn(s, "b")).rect.minX, 10)
    try s.advance(to: 1.1)
    let a = try XCTUnwrap(drawn(s, "a"))
    XCTAssertTrue(a.opacity > 0.05 && a.opacity < 0.95, "it fades in again: \(a.opacity)")
    try s.advance(to: 1.5)
    XCTAssertEqual(try XCTUnwrap(drawn(s, "a")).opacity, 1)
    XCTAssertEqual(try XCTUnwrap(drawn(s, "b")).rect.minX, 120)
  }

  // MARK: - Bad uses: one line at the script's line

  func testBadUsesAreOneLineAtTheScriptsLine() throws {
    let cases: [(String, String)] = [
      // A transition that is not one.
      ("local x = 1\nreturn cs.scene { width = 200, height = 100, root = cs.card { data = cs.data.sample()[1], transition = 'fade' } }",
       "s.lua:2: bad field 'transition' in cs.card (\"opacity\", \"scale\" or { edge = \"left\" | \"right\" | \"top\" | \"bottom\" } expected, got 'fade')"),
      ("return cs.scene { width = 200, height = 100, root = cs.text { text = 'a', transition = { edge = 'up' } } }",
       "s.lua:1: bad field 'transition' in cs.text (\"opacity\", \"scale\" or { edge = \"left\" | \"right\" | \"top\" | \"bottom\" } expected)"),
      // An animates key that is not a number.
      ("return cs.scene { width = 200, height = 100, root = cs.view { state = { order = 'ab' }, animates = { 'order' } } }",
       "s.lua:1: bad field 'animates' in cs.view ('order' is a string in the state, not a number or a table of numbers)"),
      ("return cs.scene { width = 200, height = 100, root = cs.view { state = { scroll = 0 }, animates = { 'scrol' } } }",
       "s.lua:1: bad field 'animates' in cs.view (the state has no key 'scrol')"),
      ("local v = cs.view { state = { x = 0 }, animates = { 'x' } }\nreturn cs.scene { width = 200, height = 100, duration = 1, root = v,\n  timeline = { cs.call { at = 0.1, fn = function()\n    v.state.x = 'far' end } } }",
       "s.lua:4: bad state value for 'x' (a number or a table of numbers expected: it is in the view's animates; got string)"),
      // Two children with one id.
      ("local sets = cs.data.sample()\nlocal v = cs.view { cs.card { id = 'a', data = sets[1] } }\nreturn cs.scene { width = 200, height = 100, duration = 1, root = v,\n  timeline = { cs.call { at = 0.1, fn = function()\n    v:add(cs.card { id = 'a', data = sets[2] }) end } } }",
       "s.lua:5: add: the scene already has a view with id 'a' (ids must be unique)"),
      ("local v = cs.view { cs.text { id = 'a', text = 'x' } }\nreturn cs.scene { width = 200, height = 100, duration = 1, root = v,\n  timeline = { cs.call { at = 0.1, fn = function()\n    v:remove('b') end } } }",
       "s.lua:4: remove: no child 'b' in the view (its children are 'a')"),
      ("local v = cs.view { state = { n = 0 }, layout = function(self) self:remove('a') end, cs.text { id = 'a', text = 'x' } }\nreturn cs.scene { width = 200, height = 100, root = v }",
       "s.lua:1: in layout at 0 s: a layout or draw function cannot change the children (remove them in a handler, cs.call or update)"),
    ]
    for (script, message) in cases {
      let got = failure(script)
      XCTAssertEqual(got, message)
      XCTAssertFalse(got.contains("\n"), got)
    }
  }

  /// The error a script stops with by 0.5 s (at load, in layout or in a timeline call).
  func failure(_ script: String, file: StaticString = #filePath, line: UInt = #line) -> String {
    do {
      let s = try dir.session(script)
      try s.advance(to: 0.5)
      XCTFail("no error", file: file, line: line)
      return ""
    } catch let e as HostError {
      return e.message.replacingOccurrences(of: dir.path + "/", with: "")
    } catch {
      XCTFail("unexpected \(error)", file: file, line: line)
      return ""
    }
  }
}
