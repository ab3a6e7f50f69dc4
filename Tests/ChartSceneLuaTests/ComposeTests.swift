import ChartSceneHost
import Foundation
import SceneGraph
import XCTest

/// Issue 38, item 6: `cs.compose` (the common view keys and the caller's `on` merged in, so
/// `cs.tabs`, `cs.cards` and `cs.race` no longer drop it) and handlers' content coordinates.
final class ComposeTests: XCTestCase {
  let dir = ScriptFolder()

  /// A scene whose `root` gets the caller's handlers; a call at the end checks they ran.
  func run(_ root: String, _ events: String, expect: String) throws {
    let s = try dir.session("""
      local sets = cs.data.sample()
      local seen = {}
      local function note(name) return function(self, e) seen[#seen + 1] = name end end
      return cs.scene { width = 500, height = 600, fps = 30, duration = 2, root = \(root),
        timeline = { \(events),
          cs.call { at = 1.8, fn = function()
            local got = table.concat(seen, " ")
            if got ~= "\(expect)" then error("handlers ran: '" .. got .. "'", 0) end
          end } } }
      """)
    try s.advance(to: 1.9)
  }

  func testTabsCardsAndRaceKeepTheCallersOn() throws {
    try run("""
      cs.tabs { id = "t", on = { longpress = note("tabs") },
        { title = "A", view = cs.text { id = "a", text = "a" } }, { title = "B", view = cs.text { id = "b", text = "b" } } }
      """, "cs.longpress { at = 0.2, pos = { 250, 20 } }", expect: "tabs")
    try run("""
      cs.cards { id = "d", padding = 20, on = { tap = note("cards") }, cs.card { id = "a", data = sets[1] }, cs.card { id = "b", data = sets[2] } }
      """, "cs.tap { at = 0.2, target = 'd' }", expect: "cards")
    try run("""
      cs.race { id = "r", data = sets[1], on = { tap = note("race") } }
      """, "cs.tap { at = 0.2, target = 'r' }", expect: "race")
  }

  func testComposeMergesHandlersAndPassesTheCommonKeys() throws {
    try run("""
      cs.compose({ id = "x", padding = 30, on = { tap = note("caller"), drag = note("drag") } },
        { kind = "mine", on = { tap = note("own") }, cs.text { id = "t", text = "hi" } })
      """, "cs.tap { at = 0.2, target = 'x' }", expect: "own caller")
    let s = try dir.session("""
      return cs.scene { width = 300, height = 200, root = cs.compose({ id = "x", padding = 30, opacity = 0.5 }, { kind = "mine", cs.text { text = "hi" } }) }
      """)
    try s.advance(to: 0)
    let x = try XCTUnwrap(s.scene.node(id: "x"))
    XCTAssertEqual(x.style.padding.left, 30)
    XCTAssertEqual(x.style.opacity, 0.5)
    XCTAssertEqual(x.kind.name, "mine")
  }

  func testHandlersGetContentCoordinates() throws {
    try run("""
      cs.view { id = "v", padding = { 10, 40 }, on = { tap = function(self, e)
        if e.contentX ~= e.x - 40 or e.contentY ~= e.y - 10 then error("content point " .. e.contentX .. ", " .. e.contentY) end
        seen[#seen + 1] = string.format("%g,%g", e.contentX, e.contentY)
      end } }
      """, "cs.tap { at = 0.2, pos = { 100, 50 } }", expect: "60,40")
  }
}
