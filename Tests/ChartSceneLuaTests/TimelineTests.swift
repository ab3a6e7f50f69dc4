import ChartSceneHost
import Foundation
import XCTest

/// Built-in behaviours driven through the timeline (synthetic pointers → recognisers) and
/// checked with --inspect at chosen times.
final class TimelineTests: XCTestCase {
  let dir = ScriptFolder()

  func json(_ script: String, at t: Double) throws -> [String: Any] {
    let s = try dir.session(script)
    let text = try s.inspect(at: t)
    return try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
  }

  func node(_ doc: [String: Any], _ id: String) -> [String: Any]? {
    func find(_ n: [String: Any]) -> [String: Any]? {
      if n["id"] as? String == id { return n }
      for c in n["children"] as? [[String: Any]] ?? [] { if let f = find(c) { return f } }
      return nil
    }
    return (doc["root"] as? [String: Any]).flatMap(find)
  }

  let chart = """
    local s = cs.data.sample()[1]
    s:setRange(0.5, 0.75)
    return cs.scene { width = 600, height = 500, fps = 30, duration = 4,
      root = cs.chart { id = "c", data = s },
      timeline = { %@ } }
    """

  func scene(_ events: String) -> String { chart.replacingOccurrences(of: "%@", with: events) }

  func range(_ doc: [String: Any]) -> [Double] { node(doc, "c")?["range"] as? [Double] ?? [] }

  func testDraggingTheMinimapWindowMovesItByTheDistance() throws {
    let s = scene("cs.drag { at = 0.1, target = 'c.minimap.window', by = {100, 0}, duration = 0.3 }")
    let before = try json(s, at: 0)
    let after = try json(s, at: 1)
    let mm = try XCTUnwrap((node(before, "c")?["parts"] as? [String: [Double]])?["minimap"])
    let moved = range(after)[0] - range(before)[0]
    XCTAssertEqual(moved, 100 / mm[2], accuracy: 0.003)
    XCTAssertEqual(range(after)[1] - range(after)[0], 0.25, accuracy: 1e-9)  // same width
    // Dragged towards the end, the window sticks to it (magnetic edge) and keeps its width.
    let far = try json(scene("cs.drag { at = 0.1, target = 'c.minimap.window', by = {2000, 0}, duration = 0.3 }"), at: 1)
    XCTAssertEqual(range(far), [0.75, 1.0])
  }

  func testDraggingAnEdgeMovesOnlyThatEdgeAndKeepsAMinimumWidth() throws {
    let left = try json(scene("cs.drag { at = 0.1, target = 'c.minimap.left', by = {-100, 0}, duration = 0.3 }"), at: 1)
    XCTAssertLessThan(range(left)[0], 0.5)
    XCTAssertEqual(range(left)[1], 0.75, accuracy: 1e-9)
    let squeezed = try json(scene("cs.drag { at = 0.1, target = 'c.minimap.right', by = {-1000, 0}, duration = 0.3 }"), at: 1)
    XCTAssertEqual(range(squeezed)[0], 0.5, accuracy: 1e-9)
    XCTAssertGreaterThan(range(squeezed)[1] - range(squeezed)[0], 0.015)
  }

  func testYRangeAnimatesAndSettles() throws {
    let s = """
      local s = cs.data.sample()[5]
      s:setRange(0.5, 0.6)
      return cs.scene { width = 600, height = 500, fps = 30, duration = 4, root = cs.chart { id = "c", data = s },
        timeline = { cs.call { at = 1, fn = function() s:setRange(0, 1) end } } }
      """
    let start = try XCTUnwrap(node(try json(s, at: 0.9), "c")?["yRange"] as? [Double])
    // The axis moves once the widening window holds values past the old top (when depends
    // on the scale's steps): some frame shows it between the two.
    let mids = try [1.15, 1.25, 1.35].map { try XCTUnwrap(node(try json(s, at: $0), "c")?["yRange"] as? [Double]) }
    let end = try json(s, at: 2)
    let final = try XCTUnwrap(node(end, "c")?["yRange"] as? [Double])
    let data = try XCTUnwrap(node(end, "c")?["dataRange"] as? [Double])
    XCTAssertNotEqual(start, final)
    XCTAssertTrue(mids.contains { $0[1] > min(start[1], final[1]) && $0[1] < max(start[1], final[1]) }, "\(start) \(mids) \(final)")
    XCTAssertTrue(final[0] <= data[0] && final[1] >= data[1])
  }

  func testChipsToggleAndLongPressShowsOnlyOne() throws {
    let tap = try json(scene("cs.tap { at = 0.2, target = 'c.legend.y1' }"), at: 1)
    XCTAssertEqual(node(tap, "c")?["hidden"] as? [String], ["y1"])
    let twice = try json(scene("cs.tap { at = 0.2, target = 'c.legend.y1' }, cs.tap { at = 0.8, target = 'c.legend.y1' }"), at: 1.5)
    XCTAssertEqual(node(twice, "c")?["hidden"] as? [String], [])
    let only = try json(scene("cs.longpress { at = 0.2, target = 'c.legend.y1', duration = 0.7 }"), at: 1.5)
    XCTAssertEqual(node(only, "c")?["hidden"] as? [String], ["y0"])
  }

  func testPanningThePlotMovesTheIndicatorToAPoint() throws {
    let doc = try json(scene("cs.drag { at = 0.2, target = 'c.plot', by = {120, 0}, duration = 0.3 }"), at: 1)
    let ind = try XCTUnwrap(node(doc, "c")?["indicator"] as? [String: Any])
    XCTAssertNotNil(ind["index"] as? Int)
    let time = try XCTUnwrap(ind["time"] as? Double)
    XCTAssertEqual(time.truncatingRemainder(dividingBy: 86_400_000), 0)  // snapped to a daily point
  }

  let deck = """
    local sets = cs.data.sample()
    return cs.scene { width = 500, height = 700, fps = 30, duration = 6,
      root = cs.cards { id = "deck", padding = 20,
        cs.card { id = "a", data = sets[1] }, cs.card { id = "b", data = sets[2] }, cs.card { id = "c", data = sets[3] } },
      timeline = { %@ } }
    """

  func deckScene(_ events: String) -> String { deck.replacingOccurrences(of: "%@", with: events) }

  func testCardsLongPressDragSendsTheTopCardBackOrSpringsBack() throws {
    let sent = deckScene("cs.drag { at = 0.2, target = 'deck', by = {0, 400}, hold = 0.6, duration = 0.5 }")
    XCTAssertEqual(node(try json(sent, at: 0), "deck")?["order"] as? [String], ["a", "b", "c"])
    XCTAssertEqual(node(try json(sent, at: 3), "deck")?["order"] as? [String], ["b", "c", "a"])
    let short = deckScene("cs.drag { at = 0.2, target = 'deck', by = {0, 40}, hold = 0.6, duration = 0.3 }")
    XCTAssertEqual(node(try json(short, at: 3), "deck")?["order"] as? [String], ["a", "b", "c"])
    // Without the long press the drag does nothing to the deck.
    let quick = deckScene("cs.drag { at = 0.2, target = 'deck', by = {0, 400}, duration = 0.3 }")
    XCTAssertEqual(node(try json(quick, at: 3), "deck")?["order"] as? [String], ["a", "b", "c"])
  }

  func testTapOpensTheModalAndATapOutsideClosesIt() throws {
    let s = deckScene("cs.tap { at = 0.2, target = 'deck' }, cs.tap { at = 2, pos = {250, 10} }")
    XCTAssertEqual(node(try json(s, at: 1), "deck")?["modal"] as? String, "a")
    XCTAssertTrue(node(try json(s, at: 3), "deck")?["modal"] is NSNull)
    // Inside the sheet, the modal chart's own controls work.
    let hide = deckScene("cs.tap { at = 0.2, target = 'deck' }, cs.tap { at = 1.2, target = 'a.legend.y0' }")
    XCTAssertEqual(node(try json(hide, at: 2), "a")?["hidden"] as? [String], ["y0"])
  }

  func testListScrollsWithADragAndAWheel() throws {
    let list = """
      local sets = cs.data.sample()
      return cs.scene { width = 400, height = 600, fps = 30, duration = 4,
        root = cs.list { id = "l", rowHeight = 300, cs.chart { data = sets[1] }, cs.chart { data = sets[2] }, cs.chart { data = sets[3] } },
        timeline = { cs.drag { at = 0.2, target = 'l', by = {0, -200}, duration = 0.5 }, cs.scroll { at = 2, target = 'l', by = {0, -50}, duration = 0.2 } } }
      """
    let afterDrag = try XCTUnwrap(node(try json(list, at: 1.9), "l")?["scroll"] as? Double)
    XCTAssertGreaterThanOrEqual(afterDrag, 200)
    XCTAssertLessThanOrEqual(afterDrag, 324)  // clamped to the content: 3 * 300 + 2 * 12 - 600
    let afterWheel = try XCTUnwrap(node(try json(list, at: 3), "l")?["scroll"] as? Double)
    XCTAssertEqual(afterWheel, max(0, afterDrag - 50), accuracy: 1e-6)
  }

  func testModalClosesWithASwipeDown() throws {
    let s = deckScene("cs.tap { at = 0.2, target = 'deck' }, cs.drag { at = 1.5, target = 'a.title', by = {0, 200}, duration = 0.3 }")
    XCTAssertEqual(node(try json(s, at: 1.4), "deck")?["modal"] as? String, "a")
    XCTAssertTrue(node(try json(s, at: 3), "deck")?["modal"] is NSNull)
  }

  func testCarouselScrollsAndSnapsAndTurnedItemsAreHit() throws {
    let s = """
      local sets = cs.data.sample()
      return cs.scene { width = 900, height = 400, fps = 30, duration = 4,
        root = cs.carousel { id = "k", itemWidth = 300, spacing = 20, angle = 40,
          cs.chart { id = "a", data = sets[1] }, cs.chart { id = "b", data = sets[2] }, cs.chart { id = "c", data = sets[3] } },
        timeline = {
          cs.drag { at = 0.2, target = 'k', by = {-200, 0}, duration = 0.4 },
          -- A tap on the turned item to the right hits its chip through the 3D turn.
          cs.tap { at = 2.5, target = 'c.legend.y0' },
        } }
      """
    let scroll = try XCTUnwrap(node(try json(s, at: 2), "k")?["scroll"] as? Double)
    XCTAssertEqual(scroll.truncatingRemainder(dividingBy: 320), 0, accuracy: 1e-6, "snapped to an item: \(scroll)")
    XCTAssertGreaterThan(scroll, 0)
    XCTAssertEqual(node(try json(s, at: 3), "c")?["hidden"] as? [String], ["y0"])
  }

  func testTabsSwitchOnTap() throws {
    let tabs = """
      local s = cs.data.sample()[1]
      return cs.scene { width = 400, height = 400, fps = 30, duration = 2,
        root = cs.tabs { id = "t", { title = "A", view = cs.chart { data = s } }, { title = "B", view = cs.spacer {} } },
        timeline = { cs.tap { at = 0.5, pos = {300, 380} } } }
      """
    XCTAssertEqual(node(try json(tabs, at: 0), "t")?["selected"] as? Int, 1)
    XCTAssertEqual(node(try json(tabs, at: 1), "t")?["selected"] as? Int, 2)
  }

  func testCallbackErrorsNameTheirLine() throws {
    let script = "return cs.scene { duration = 1, root = cs.spacer {},\n  update = function(t) if t > 0.5 then error('late') end end,\n  timeline = { cs.call { at = 0.2, fn = function()\n    local x = nil\n    return x.y\n  end } } }"
    let s = try dir.session(script)
    XCTAssertThrowsError(try s.inspect(at: 0.9)) {
      XCTAssertEqual(($0 as? HostError)?.message.replacingOccurrences(of: dir.path + "/", with: ""), "s.lua:5: attempt to index a nil value (local 'x')")
    }
    let u = try dir.session("return cs.scene { duration = 1, root = cs.spacer {},\n  update = function(t)\n    if t > 0.5 then error('late') end\n  end }")
    XCTAssertThrowsError(try u.inspect(at: 0.9)) {
      XCTAssertEqual(($0 as? HostError)?.message.replacingOccurrences(of: dir.path + "/", with: ""), "s.lua:3: late")
    }
    XCTAssertEqual(dir.error("return cs.scene { duration = 1, root = cs.spacer {}, timeline = { cs.tap { at = 0, target = 'nowhere' } } }"),
                   "s.lua:1: cs.tap: no node or part 'nowhere'")
    XCTAssertEqual(dir.error("return cs.tap { at = 1 }"),
                   "s.lua:1: missing field 'target' in cs.tap (a node id like \"deck\" or a part like \"views.minimap.window\"; or pos = {x, y})")
    XCTAssertEqual(dir.error("return cs.animate({ curve = 'bouncy' }, function() end)"),
                   "s.lua:1: invalid curve 'bouncy' in cs.animate, expected one of: 'linear', 'easeInOut', 'spring', 'decay'")
  }
}
