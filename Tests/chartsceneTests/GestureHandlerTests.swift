import Foundation
import XCTest

/// Issue 20, item 1: any view takes `on = { tap, longpress, drag }` handlers, fed by the same
/// recognisers as the timeline and `--live`; the built-in behaviours keep what they take.
final class GestureHandlerTests: FolderCase {
  /// Each handler call printed as one line (print goes to standard error).
  let show = """
    local function show(self, e)
      print(string.format("%s %s x=%.0f y=%.0f child=%s phase=%s dx=%.0f dy=%.0f vx=%.0f held=%s t=%.2f",
        e.kind, self.id, e.x, e.y, tostring(e.child), tostring(e.phase), e.dx or 0, e.dy or 0, e.vx or 0, tostring(e.held), e.time))
    end

    """

  func lines(_ r: CLI.Result) -> [String] { r.stderr.split(separator: "\n").map(String.init) }

  func testHandlersGetWhatTheirChildrenDoNotTake() throws {
    try write("h.lua", show + """
      local s = cs.data.sample()[1]
      s:setRange(0.5, 0.8)
      return cs.scene{ width = 400, height = 600, duration = 4, fps = 30,
        root = cs.vstack{ id = "stack", padding = 20,
          on = { tap = function(self, e) show(self, e); s:setRange(0.1, 0.4) end, longpress = show, drag = show },
          cs.text{ id = "hello", text = "Tap me", on = { tap = show } },
          cs.chart{ id = "c", data = s },
          cs.spacer{ minLength = 100 },
        },
        timeline = {
          cs.tap{ at = 0.2, target = "hello" },
          cs.tap{ at = 0.5, pos = { 200, 560 } },
          cs.tap{ at = 0.8, target = "c.plot" },
          cs.longpress{ at = 1.0, pos = { 200, 560 }, duration = 0.8 },
          cs.drag{ at = 2.0, from = { 100, 560 }, by = { 150, -20 }, duration = 0.5 },
          cs.drag{ at = 3.0, from = { 100, 560 }, by = { 50, 0 }, duration = 0.4, hold = 0.6 },
        } }
      """)
    let r = try run(["h.lua", "--inspect", "--at", "3.99"])
    XCTAssertEqual(r.status, 0, r.stderr)
    let l = lines(r)
    guard l.count >= 3 else { return XCTFail(r.stderr) }
    // The text takes its own tap; the stack gets a tap below the chart, with the child under it.
    XCTAssertEqual(l[0], "tap hello x=26 y=9 child=nil phase=nil dx=0 dy=0 vx=0 held=nil t=0.23")
    XCTAssertEqual(l[1], "tap stack x=200 y=560 child=3 phase=nil dx=0 dy=0 vx=0 held=nil t=0.53")
    // The tap on the chart's plot went to the chart (its indicator), not to the stack.
    XCTAssertEqual(l[2], "longpress stack x=200 y=560 child=3 phase=nil dx=0 dy=0 vx=0 held=nil t=1.50")
    let drags = l.filter { $0.hasPrefix("drag") }
    XCTAssertEqual(drags.first, "drag stack x=100 y=560 child=nil phase=began dx=0 dy=0 vx=0 held=false t=2.10")
    XCTAssertTrue(drags.contains("drag stack x=250 y=540 child=nil phase=ended dx=150 dy=-20 vx=0 held=false t=2.53"), drags.joined(separator: "\n"))
    // Velocity while moving: positive along the drag.
    XCTAssertTrue(drags.contains { $0.contains("phase=changed") && $0.contains("vx=580") }, drags.joined(separator: "\n"))
    // The sequenced gesture: a long press, then a drag marked held.
    XCTAssertTrue(l.contains("longpress stack x=100 y=560 child=nil phase=nil dx=0 dy=0 vx=0 held=nil t=3.50"), r.stderr)
    XCTAssertTrue(drags.contains { $0.contains("held=true") && $0.contains("phase=began") })
    // The handler's change happened: the chart's window moved to 0.1-0.4.
    XCTAssertTrue(r.stdout.contains("\"range\":[0.1,0.4]") || r.stdout.contains("\"range\": [0.1, 0.4]"), r.stdout.prefix(600).description)
  }

  /// "A composition's handler gets what its children do not take": a drag that starts on a
  /// text that only takes taps goes to the stack around it, a tap stays with the text.
  func testWhatAViewDoesNotHandleGoesToTheViewAroundIt() throws {
    try write("p.lua", show + """
      return cs.scene{ width = 300, height = 300, duration = 2, fps = 30,
        root = cs.vstack{ id = "stack", on = { drag = show, tap = show },
          cs.text{ id = "t", text = "Tap", frame = { width = 200, height = 100 }, on = { tap = show } } },
        timeline = { cs.tap{ at = 0.2, target = "t" }, cs.drag{ at = 0.6, target = "t", by = { 40, 0 }, duration = 0.2 } } }
      """)
    let r = try run(["p.lua", "--inspect", "--at", "1.9"])
    XCTAssertEqual(r.status, 0, r.stderr)
    let l = lines(r)
    XCTAssertEqual(l.first, "tap t x=100 y=50 child=nil phase=nil dx=0 dy=0 vx=0 held=nil t=0.23")
    XCTAssertTrue(l.dropFirst().allSatisfy { $0.hasPrefix("drag stack") }, r.stderr)
    XCTAssertEqual(l.dropFirst().first, "drag stack x=150 y=50 child=1 phase=began dx=0 dy=0 vx=0 held=false t=0.70")
    XCTAssertTrue(l.last?.contains("phase=ended dx=40 dy=0") == true, r.stderr)
  }

  func testCoordinatesAreTheViewsOwnThroughTransforms() throws {
    try write("t.lua", show + """
      return cs.scene{ width = 400, height = 400, duration = 1, fps = 30,
        root = cs.zstack{ cs.text{ id = "t", text = "x", frame = { width = 100, height = 100 }, offset = { 50, 0 }, scale = 2, on = { tap = show } } },
        timeline = { cs.tap{ at = 0.2, pos = { 260, 210 } } } }
      """)
    let r = try run(["t.lua", "--inspect", "--at", "0.9"])
    XCTAssertEqual(r.status, 0, r.stderr)
    // Frame 150..250 centred at 200; offset 50 and scale 2 about the centre: scene x 260 is
    // local 200 + (260 - 250) / 2 = 205, i.e. 55 from the frame's left; y 210 → 205, 55.
    XCTAssertEqual(lines(r), ["tap t x=55 y=55 child=nil phase=nil dx=0 dy=0 vx=0 held=nil t=0.23"])
  }

  func testAListStillScrollsUnderAViewThatTakesOnlyTaps() throws {
    try write("l.lua", """
      local s = cs.data.sample()
      return cs.scene{ width = 300, height = 400, duration = 2, fps = 30,
        root = cs.list{ id = "list", rowHeight = 200,
          cs.text{ id = "a", text = "A", frame = { height = 200 }, on = { tap = function(self, e) print("tap " .. self.id) end } },
          cs.chart{ data = s[1] }, cs.chart{ data = s[2] } },
        timeline = { cs.drag{ at = 0.2, from = { 150, 150 }, by = { 0, -120 }, duration = 0.4 }, cs.tap{ at = 1.2, pos = { 150, 20 } } } }
      """)
    let r = try run(["l.lua", "--inspect", "--at", "1.9"])
    XCTAssertEqual(r.status, 0, r.stderr)
    XCTAssertEqual(lines(r), ["tap a"])
    let json = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
    let root = try XCTUnwrap(json["root"] as? [String: Any])
    XCTAssertGreaterThan((root["scroll"] as? Double) ?? 0, 100, "the drag scrolled the list: \(root.keys.sorted())")
  }

  func testBadHandlersAreOneLine() throws {
    try write("e.lua", """
      return cs.scene{ width = 200, height = 200, duration = 2, fps = 10,
        root = cs.text{ id = "t", text = "x", on = { tap = function(self, e)
          error("boom " .. e.kind)
        end } },
        timeline = { cs.tap{ at = 1.2, target = "t" } } }
      """)
    try fails(["e.lua", "-o", "e.mp4"], "e.lua:3: in tap handler at 1.3 s: boom tap", seconds: 10)
    try write("loop.lua", """
      return cs.scene{ width = 200, height = 200, duration = 2, fps = 10,
        root = cs.text{ id = "t", text = "x", on = { drag = function(self, e)
          while true do end
        end } },
        timeline = { cs.drag{ at = 0.5, target = "t", by = { 30, 0 } } } }
      """)
    try fails(["loop.lua", "-o", "l.mp4", "--max-time", "2"], "loop.lua:3: in drag handler at 0.7 s: script ran for too long (over 0.2 s; --max-time)", seconds: 10)
    try write("k.lua", "return cs.scene{ width = 200, height = 200, root = cs.text{ text = 'x', on = { tapp = function() end } } }")
    try fails(["k.lua"], "k.lua:1: unknown key 'tapp' in cs.text on (did you mean 'tap'?)")
    try write("f.lua", "return cs.scene{ width = 200, height = 200, root = cs.text{ text = 'x', on = { tap = 3 } } }")
    try fails(["f.lua"], "f.lua:1: bad field 'tap' in cs.text on (function expected, got number)")
    try write("t.lua", "return cs.scene{ width = 200, height = 200, root = cs.chart{ data = cs.data.sample()[1], on = 'tap' } }")
    try fails(["t.lua"], "t.lua:1: bad field 'on' in cs.chart (table of handlers expected, got string)")
  }

  /// `indicator = false` allows no crosshair: a tap or a drag on the plot shows none, and
  /// the stack around the chart gets the tap (the chart does not take it).
  func testAChartWithoutIndicatorTakesNoPlotTap() throws {
    try write("n.lua", show + """
      local s = cs.data.sample()[1]
      return cs.scene{ width = 400, height = 600, duration = 2, fps = 30,
        root = cs.vstack{ id = "stack", padding = 20, on = { tap = show },
          cs.chart{ id = "c", data = s, indicator = false },
          cs.chart{ id = "d", data = cs.data.sample()[2] },
        },
        timeline = {
          cs.tap{ at = 0.2, target = "c.plot" },
          cs.tap{ at = 0.6, target = "d.plot" },
        } }
      """)
    let r = try run(["n.lua", "--inspect", "--at", "1.5"])
    XCTAssertEqual(r.status, 0, r.stderr)
    let taps = lines(r).filter { $0.hasPrefix("tap") }
    XCTAssertEqual(taps.count, 1, r.stderr)
    XCTAssertTrue(taps.first?.hasPrefix("tap stack") == true && taps.first?.contains("child=1") == true, r.stderr)
    let scene = try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any]
    func node(_ n: Any?, _ id: String) -> [String: Any]? {
      guard let d = n as? [String: Any] else { return nil }
      if d["id"] as? String == id { return d }
      for c in (d["children"] as? [Any]) ?? [] { if let f = node(c, id) { return f } }
      return nil
    }
    let root = scene?["root"]
    XCTAssertNotNil(node(root, "c"), r.stdout.prefix(300).description)
    XCTAssertTrue(node(root, "c")?["indicator"] is NSNull, "\(node(root, "c")?["indicator"] ?? "missing")")
    XCTAssertNotNil(node(root, "d")?["indicator"] as? [String: Any], "the other chart's plot still takes its tap")
  }
}
