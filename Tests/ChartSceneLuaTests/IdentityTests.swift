import ChartSceneHost
import Drawing
import Foundation
import SceneGraph
import XCTest

/// Typed identity (issue 38, item 2): the state the host keeps between ticks is keyed by the
/// node (a chart's axes, a template's counters, a sheet's chart by its child) and by the keys
/// of a state path, never by strings built from ids, so no id or key reaches another's state.
/// Each test renames a node (or a key) and checks that nothing else changes.
final class IdentityTests: XCTestCase {
  let dir = ScriptFolder()

  /// Every node of an `--inspect` document by id.
  func nodes(_ s: Session, at t: Double) throws -> [String: [String: Any]] {
    let doc = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(try s.inspect(at: t).utf8)) as? [String: Any])
    var out: [String: [String: Any]] = [:]
    func visit(_ n: [String: Any]) {
      if let id = n["id"] as? String { out[id] = n }
      for c in n["children"] as? [[String: Any]] ?? [] { visit(c) }
    }
    visit(try XCTUnwrap(doc["root"] as? [String: Any]))
    return out
  }

  /// A node's fields that depend on its state, not on its id (`parts` and the labels' frames
  /// are compared whole).
  func drawn(_ n: [String: Any]?) -> String {
    guard var n else { return "none" }
    n["id"] = nil
    n["children"] = nil
    let data = try? JSONSerialization.data(withJSONObject: n, options: [.sortedKeys])
    return data.flatMap { String(data: $0, encoding: .utf8) } ?? "?"
  }

  // MARK: - Axes

  /// A chart with id `a.right` beside a two-axis chart `a` draws its own data on its own axis
  /// (it used to take over `a`'s right axis: an empty plot labelled with a's range), and `a`
  /// keeps both of its axes; the same as when the first chart is called `b`.
  func testAChartNamedLikeAnotherChartsRightAxisKeepsItsOwn() throws {
    func scene(_ id: String) -> String {
      """
      local sets = cs.data.sample()
      local small = cs.data.series { name = "small", x = {0, 86400000, 172800000, 259200000},
        lines = { { id = "v", name = "v", values = {1, 3, 2, 4} } } }
      return cs.scene { width = 700, height = 900, fps = 30, duration = 2, root = cs.vstack {
        cs.chart { id = "\(id)", data = small },
        cs.chart { id = "a", data = sets[1], yScaled = true },
      } }
      """
    }
    let renamed = try nodes(try dir.session(scene("b")), at: 1)
    let clash = try nodes(try dir.session(scene("a.right")), at: 1)
    let a = try XCTUnwrap(clash["a"])
    XCTAssertEqual(a["yScaled"] as? Bool, true, "the chart has two axes")
    XCTAssertNotNil(a["yRanges"] as? [String: Any])
    let small = try XCTUnwrap(clash["a.right"])
    let yRange = try XCTUnwrap(small["yRange"] as? [Double])
    XCTAssertLessThanOrEqual(yRange[0], 1)
    XCTAssertGreaterThanOrEqual(yRange[1], 4)
    XCTAssertLessThan(yRange[1], 10, "its own data's axis, not a's right one: \(yRange)")
    XCTAssertEqual(drawn(small), drawn(renamed["b"]))
    XCTAssertEqual(drawn(a), drawn(renamed["a"]))
  }

  /// A sheet's chart has its own axes and X labels, keyed by the child it shows (not by a
  /// string a chart's id could spell), apart from the child's own chart.
  func testASheetsChartHasItsOwnAxesApartFromItsChilds() throws {
    let s = try dir.session("""
      local sets = cs.data.sample()
      return cs.scene { width = 400, height = 300, root = cs.chart { id = "sheet:c", data = sets[1] } }
      """)
    try s.advance(to: 0)
    let node = s.scene.root
    let spec = try XCTUnwrap(node.chart)
    let p = Presentation()
    let own = ChartKey(node.identity), sheet = Layout.sheetKey(node)
    XCTAssertNotEqual(own, sheet)
    XCTAssertEqual(sheet, ChartKey(node.identity, role: .sheet))
    let small = Rect(0, 0, 300, 60), tall = Rect(0, 0, 300, 600)
    p.updateChartAxes(own, spec: spec, plot: small, window: spec.data.window, at: 0)
    p.updateChartAxes(sheet, spec: spec, plot: tall, window: spec.data.window, at: 0)
    let a = try XCTUnwrap(p.axis(AxisKey(own))), b = try XCTUnwrap(p.axis(AxisKey(sheet)))
    XCTAssertNotEqual(a.scale, b.scale, "a 60 px plot and a 600 px one have other ticks")
    XCTAssertEqual(a.scale, ChartSnapshot.targetScale(spec: spec, plot: small, window: spec.data.window))
    XCTAssertEqual(b.scale, ChartSnapshot.targetScale(spec: spec, plot: tall, window: spec.data.window))
    // No right axis for a one-axis chart, and a zoom's layers are never animated.
    XCTAssertNil(p.axis(AxisKey(own, .right)))
    XCTAssertNil(p.axis(AxisKey(own.layer(.zoomDetail))))
    // Two nodes never share an identity, even with one id.
    XCTAssertNotEqual(Node(id: "x", kind: .spacer(minLength: 0)).identity, Node(id: "x", kind: .spacer(minLength: 0)).identity)
  }

  // MARK: - Counters

  /// A text with id `a.title` counts its own values beside a chart `a` whose title counts
  /// another set's (their counters used to be one number, each chasing the other's value).
  func testATextNamedLikeAChartsTitleCountsItsOwnValues() throws {
    func scene(_ id: String) -> String {
      """
      local sets = cs.data.sample()
      local small = cs.data.series { name = "small", x = {0, 86400000, 172800000, 259200000},
        lines = { { id = "v", name = "v", values = {1, 3, 2, 4} } } }
      return cs.scene { width = 700, height = 600, fps = 30, duration = 2, root = cs.vstack {
        cs.text { id = "\(id)", text = "now {value:v}", data = small },
        cs.chart { id = "a", data = sets[1], title = "at {value:y0}" },
      } }
      """
    }
    let renamed = try nodes(try dir.session(scene("b")), at: 1)
    let clash = try nodes(try dir.session(scene("a.title")), at: 1)
    XCTAssertEqual(clash["a.title"]?["text"] as? String, "now 4")
    XCTAssertEqual(clash["a.title"]?["text"] as? String, renamed["b"]?["text"] as? String)
    XCTAssertEqual(clash["a"]?["title"] as? String, renamed["a"]?["title"] as? String)
    XCTAssertNotEqual(clash["a"]?["title"] as? String, "at 4")
  }

  // MARK: - State paths

  /// `self.state.a.b` and `self.state["a.b"]` are two numbers, and so are `self.state[1]` and
  /// `self.state["1"]`: a state path is its keys, not a dotted string. Only the one set
  /// inside `cs.animate` moves; the others stay where they were.
  func testStatePathsAreKeysNotDottedStrings() throws {
    let s = try dir.session("""
      local v = cs.view { id = "v", state = { a = { b = 0 }, ["a.b"] = 0, list = { 0 }, ["list.1"] = 0, n = { [1] = 0, ["1"] = 0 } },
        animates = true, -- the numbers move by value (else the children would move, not the numbers)
        inspect = function(self)
          return { ab = self.shown.a.b, dotted = self.shown["a.b"], item = self.shown.list[1], itemDotted = self.shown["list.1"],
                   int = self.shown.n[1], str = self.shown.n["1"] }
        end,
        cs.spacer {} }
      return cs.scene { width = 200, height = 100, fps = 10, duration = 2, root = v,
        timeline = { cs.call { at = 0.5, fn = function()
          cs.animate({ duration = 1 }, function() v.state.a.b = 100; v.state.list[1] = 100; v.state.n[1] = 100 end)
        end } } }
      """)
    let v = try XCTUnwrap(try nodes(s, at: 1)["v"])
    for moving in ["ab", "item", "int"] {
      let x = try XCTUnwrap(v[moving] as? Double, moving)
      XCTAssertGreaterThan(x, 1, moving)
      XCTAssertLessThan(x, 99, moving)
    }
    for still in ["dotted", "itemDotted", "str"] {
      XCTAssertEqual(v[still] as? Double, 0, "\(still) moved with another key: \(v)")
    }
  }
}
