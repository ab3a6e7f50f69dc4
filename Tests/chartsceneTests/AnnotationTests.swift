import Foundation
import XCTest

/// Issue 25, items 1 and 2: annotations pinned to data stay on their data point in every
/// frame (window animation, carousel turn, card move), read from `--inspect --at T`; counters
/// in templates tween; bad inputs give one line.
final class AnnotationTests: FolderCase {
  /// The chart node `id` of an `--inspect` document at time `t`, and the script's stderr.
  func chart(_ script: String, _ id: String, at t: Double) throws -> ([String: Any], String) {
    let r = try run([script, "--inspect", "--at", String(t)])
    XCTAssertEqual(r.status, 0, r.stderr)
    let json = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
    var found: [String: Any]?
    func find(_ n: [String: Any]) { if n["id"] as? String == id { found = n }; (n["children"] as? [[String: Any]])?.forEach(find) }
    find(try XCTUnwrap(json["root"] as? [String: Any]))
    return (try XCTUnwrap(found, "no node \(id) at \(t)"), r.stderr)
  }

  /// Where the data point (time `at` ms, value `v`) is on screen, computed from what
  /// `--inspect` says of the chart (plot, window, Y range, frame, drawn frame, 3D turn) the
  /// way the renderer maps it; and the note's reported point. Returns the distance in px.
  func offset(_ c: [String: Any], at: Double, value v: Double, first: Double, last: Double) throws -> Double? {
    let plot = try XCTUnwrap((c["parts"] as? [String: Any])?["plot"] as? [Double])
    let range = try XCTUnwrap(c["range"] as? [Double]), y = try XCTUnwrap(c["yRange"] as? [Double])
    let note = try XCTUnwrap((c["annotations"] as? [[String: Any]])?.first)
    guard (note["alpha"] as? Double ?? 0) > 0 else { return nil }  // faded out: nothing to follow
    let from = first + range[0] * (last - first), to = first + range[1] * (last - first)
    var px = plot[0] + (at - from) / (to - from) * plot[2]
    let top = plot[1] + min(20, plot[3] / 3), bottom = plot[1] + plot[3] - 1  // the lines' rect (lineWidth 2)
    var py = bottom - (v - y[0]) / (y[1] - y[0]) * (bottom - top)
    let point = try XCTUnwrap(note["point"] as? [Double])
    var worst = hypot(point[0] - px, point[1] - py)
    // On screen: the 3D turn about the frame's centre (perspective 1000), then offset and scale.
    let frame = try XCTUnwrap(c["frame"] as? [Double]), drawn = try XCTUnwrap(c["drawn"] as? [Double])
    if let turn = c["rotation3d"] as? Double {
      let cx = frame[0] + frame[2] / 2, cy = frame[1] + frame[3] / 2
      let theta = turn * .pi / 180, u = px - cx, k = 1000 / max(1, 1000 + u * sin(theta))
      px = cx + u * cos(theta) * k
      py = cy + (py - cy) * k
    }
    let s = drawn[2] / frame[2]
    px = drawn[0] + (px - frame[0]) * s
    py = drawn[1] + (py - frame[1]) * s
    let screen = try XCTUnwrap(note["drawnPoint"] as? [Double])
    worst = max(worst, hypot(screen[0] - px, screen[1] - py))
    return worst
  }

  func follow(_ script: String, _ id: String, frames: ClosedRange<Int>, fps: Double, at: Double, value: Double, turns: Bool = false, moves: Bool = false) throws {
    var measured = 0, turned = 0, moved = 0
    var worst = 0.0
    for k in frames {
      let t = Double(k) / fps
      let (c, stderr) = try chart(script, id, at: t)
      let bounds = stderr.split(whereSeparator: { $0.isWhitespace }).compactMap { Double($0) }
      guard bounds.count == 2 else { return XCTFail("script should print its first and last time: \(stderr)") }
      guard let d = try offset(c, at: at, value: value, first: bounds[0], last: bounds[1]) else { continue }
      measured += 1
      worst = max(worst, d)
      XCTAssertLessThanOrEqual(d, 0.5, "\(script) at \(t) s: the note is \(d) px from its data point")
      if let r = c["rotation3d"] as? Double, abs(r) > 1 { turned += 1 }
      if let f = c["frame"] as? [Double], let dr = c["drawn"] as? [Double], f != dr { moved += 1 }
    }
    XCTAssertGreaterThan(measured, frames.count / 2, "\(script): the note should show in most frames")
    if turns { XCTAssertGreaterThan(turned, 3, "\(script): the chart should turn") }
    if moves { XCTAssertGreaterThan(moved, 3, "\(script): the card should move") }
    print("\(script): \(measured) frames, worst \(worst) px")
  }

  func testANoteFollowsAWindowAnimation() throws {
    try write("w.lua", """
      local set = cs.data.sample()[1]
      set:setRange(0.5, 0.8)
      print(set:valuesAt(0).time, set:valuesAt(1).time)
      local at = set:valuesAt(0.75).time
      return cs.scene { width = 600, height = 500, fps = 20, duration = 2,
        root = cs.chart { id = "c", data = set, annotations = { cs.note { at = at, value = 150, text = "here" } } },
        timeline = { cs.call { at = 0.1, fn = function() set:setRange(0.6, 0.9, 1.2) end } } }
      """)
    let at = try firstAndAt("w.lua", fraction: 0.75)
    try follow("w.lua", "c", frames: 0...34, fps: 20, at: at, value: 150)
  }

  func testANoteTurnsWithTheCarousel() throws {
    try write("car.lua", """
      local sets = cs.data.sample()
      print(sets[1]:valuesAt(0).time, sets[1]:valuesAt(1).time)
      local cards = {}
      for i = 1, 3 do
        cards[i] = cs.card { id = "c" .. i, data = sets[1], annotations = { cs.note { at = sets[1]:valuesAt(0.9).time, value = 50, text = "here" } } }
      end
      return cs.scene { width = 720, height = 480, fps = 20, duration = 1.5,
        root = cs.carousel { id = "car", angle = 35, cards[1], cards[2], cards[3] },
        timeline = { cs.drag { at = 0.1, target = "car", by = { -400, 0 }, duration = 0.8 } } }
      """)
    let at = try firstAndAt("car.lua", fraction: 0.9)
    try follow("car.lua", "c2", frames: 0...28, fps: 20, at: at, value: 50, turns: true)
  }

  func testANoteMovesWithItsCard() throws {
    try write("m.lua", """
      local set = cs.data.sample()[1]
      print(set:valuesAt(0).time, set:valuesAt(1).time)
      local v = cs.view { id = "v", state = { k = 0 },
        layout = function(self, w, h)
          local c = self.children[1]
          c.frame = { 40, 40, w - 200, h - 160 }
          c.offset = { self.state.k * 120, self.state.k * 60 }
          c.scale = 1 - 0.35 * self.state.k
        end,
        on = { tap = function(self) cs.animate({ curve = "spring", duration = 0.8 }, function() self.state.k = 1 end) end },
        cs.card { id = "a", data = set, annotations = { cs.note { at = set:valuesAt(0.85).time, value = 100, text = "here" } } } }
      return cs.scene { width = 720, height = 560, fps = 20, duration = 1.5, root = v,
        timeline = { cs.tap { at = 0.1, target = "v" } } }
      """)
    let at = try firstAndAt("m.lua", fraction: 0.85)
    try follow("m.lua", "a", frames: 0...26, fps: 20, at: at, value: 100, moves: true)
  }

  /// The time at `fraction` of the sample set's axis, as the script computes it.
  func firstAndAt(_ script: String, fraction: Double) throws -> Double {
    try write("probe.lua", """
      local set = cs.data.sample()[1]
      print(set:valuesAt(\(fraction)).time)
      return cs.scene { width = 100, height = 100, root = cs.spacer() }
      """)
    let r = try run(["probe.lua", "--inspect"])
    return try XCTUnwrap(Double(r.stderr.trimmingCharacters(in: .whitespacesAndNewlines)), r.stderr)
  }

  /// A counter between two values: every frame between them, changing by a bounded amount,
  /// never through zero; it starts from the value shown, not from 0.
  func testACounterTweensFromThePreviousValue() throws {
    try write("n.lua", """
      local set = cs.data.sample()[1]
      set:setRange(0.5, 0.8)
      return cs.scene { width = 600, height = 200, fps = 30, duration = 2,
        root = cs.text { id = "t", data = set, text = "{value:y0}" },
        timeline = { cs.call { at = 0.5, fn = function() set:setRange(0.0, 0.29, false) end } } }
      """)
    var shown: [Double] = []
    for k in 0...40 {
      let (t, _) = try chart("n.lua", "t", at: Double(k) / 30)
      let text = try XCTUnwrap(t["text"] as? String).replacingOccurrences(of: ",", with: "").replacingOccurrences(of: "\u{2212}", with: "-")
      shown.append(try XCTUnwrap(Double(text), text))
    }
    let a = shown[0], b = shown[40]
    XCTAssertNotEqual(a, b, "the two windows should end on different values")
    XCTAssertEqual(shown[14], a)  // before the change (t = 0.467 s)
    var between = 0
    for k in 1..<shown.count {
      XCTAssertLessThanOrEqual(abs(shown[k] - shown[k - 1]), abs(b - a) * 0.3 + 1, "frame \(k): \(shown[k - 1]) -> \(shown[k])")
      XCTAssertGreaterThanOrEqual(shown[k], min(a, b) - 1e-9, "frame \(k)")
      XCTAssertLessThanOrEqual(shown[k], max(a, b) + 1e-9, "frame \(k)")
      XCTAssertNotEqual(shown[k], 0, "frame \(k)")
      if shown[k] != a && shown[k] != b { between += 1 }
    }
    XCTAssertGreaterThan(between, 6, "the counter should take several frames: \(shown)")
  }

  func testTemplatesAndTimes() throws {
    try write("f.lua", """
      local set = cs.data.sample()[1]
      set:setRange(0.5, 0.8)
      return cs.scene { width = 600, height = 400,
        root = cs.vstack { cs.text { id = "t", data = set, text = "{{x}} {time:%Y-%m-%d %a %B %q} {value:y0|compact}" },
          cs.chart { id = "c", data = set, title = "At {time}", indicatorAt = 0.6,
            annotations = { cs.band { from = "2019-01-20", to = "2019-01-27T12:00", text = "week" }, cs.rule { value = 100 } } } } }
      """)
    let (t, _) = try chart("f.lua", "t", at: 0)
    XCTAssertEqual(t["text"] as? String, "{x} 2019-02-13 Wed February 1 65")
    let (c, _) = try chart("f.lua", "c", at: 0)
    XCTAssertEqual(c["title"] as? String, "At Wed, Jan 23 2019")  // the indicator's point
    let marks = try XCTUnwrap(c["annotations"] as? [[String: Any]])
    XCTAssertEqual(marks.map { $0["kind"] as? String }, ["band", "rule"])
  }

  /// Labels that cannot be placed without covering each other are left out (the marks stay),
  /// and lint names each one left out; a note at the plot's corner keeps its label, slid
  /// inside the plot.
  func testCrowdedLabelsAreLeftOutAndLintChecksThem() throws {
    try write("l.lua", """
      local set = cs.data.sample()[1]
      local at = set:valuesAt(0.9).time
      return cs.scene { width = 260, height = 200,
        root = cs.chart { id = "c", data = set, minimap = false, legend = false, annotations = {
          cs.note { at = at, value = 100, text = "A long first label here" }, cs.note { at = at, value = 110, text = "A long second label here" },
          cs.note { at = at, value = 120, text = "A long third label here" } } } }
      """)
    let (c, _) = try chart("l.lua", "c", at: 0)
    let marks = try XCTUnwrap(c["annotations"] as? [[String: Any]])
    XCTAssertEqual(marks.count, 3)
    let labels = marks.compactMap { $0["frame"] as? [Double] }
    XCTAssertLessThan(labels.count, 3, "three long labels at one point cannot all fit")
    for i in 0..<labels.count {
      for j in (i + 1)..<max(i + 1, labels.count) {
        let a = labels[i], b = labels[j]
        XCTAssertFalse(a[0] < b[0] + b[2] && b[0] < a[0] + a[2] && a[1] < b[1] + b[3] && b[1] < a[1] + a[3], "labels \(a) and \(b) overlap")
      }
    }
    let lint = try run(["lint", "l.lua"])
    XCTAssertEqual(lint.status, 1, lint.stdout + lint.stderr)
    let missing = marks.filter { $0["frame"] is NSNull }.compactMap { $0["text"] as? String }
    XCTAssertFalse(missing.isEmpty)
    let said = lint.stdout + lint.stderr
    for text in missing {
      XCTAssertTrue(said.contains("chart 'c': annotation '\(text)' has no room for its label (it is not drawn)"), said)
    }
    XCTAssertEqual(said.split(separator: "\n").filter { $0.contains("has no room") }.count, missing.count, said)

    // At the plot's top right corner (the last point, the axis's top): above, right and
    // below-centred all leave the plot; the label slides in beside the point.
    try write("corner.lua", """
      local set = cs.data.series { x = { 1546300800000, 1546387200000, 1546473600000 }, lines = {
        { id = "a", name = "A", color = "#3497ED", values = { 10, 20, 100 } } } }
      return cs.scene { width = 400, height = 300,
        root = cs.chart { id = "c", data = set, minimap = false, legend = false, annotations = {
          cs.note { at = 1546473600000, line = "a", text = "The newest, highest" } } } }
      """)
    let (corner, _) = try chart("corner.lua", "c", at: 0)
    let note = try XCTUnwrap((corner["annotations"] as? [[String: Any]])?.first)
    let frame = try XCTUnwrap(note["frame"] as? [Double], "the corner note has a label")
    let plot = try XCTUnwrap((corner["parts"] as? [String: Any])?["plot"] as? [Double])
    XCTAssertGreaterThanOrEqual(frame[0], plot[0] - 0.01)
    XCTAssertLessThanOrEqual(frame[0] + frame[2], plot[0] + plot[2] + 0.01)
    XCTAssertGreaterThanOrEqual(frame[1], plot[1] - 0.01)
    XCTAssertEqual(try run(["lint", "corner.lua"]).status, 0)
  }

  /// cs.follow keeps the window's right edge on the newest data: from the window's width to
  /// the end of the axis over `duration`, eased, the width unchanged; by set or by chart id.
  func testFollowMovesTheWindowWithTheNewestData() throws {
    for how in ["data = set", "chart = 'c'"] {
      try write("fo.lua", """
        local set = cs.data.sample()[1]
        return cs.scene { width = 500, height = 400, fps = 20, duration = 5,
          root = cs.chart { id = "c", data = set, title = "{value:y0} on {time}" },
          update = cs.follow { \(how), window = 30 * 86400, from = 1, duration = 3 } }
        """)
      var ranges: [[Double]] = []
      for k in stride(from: 0, through: 100, by: 5) {
        let (c, _) = try chart("fo.lua", "c", at: Double(k) / 20)
        ranges.append(try XCTUnwrap(c["range"] as? [Double]))
      }
      let width = ranges[0][1] - ranges[0][0]
      XCTAssertEqual(ranges[0][0], 0, accuracy: 1e-9, how)
      XCTAssertEqual(ranges[4][1], ranges[0][1], accuracy: 1e-9, "\(how): still before `from`")
      XCTAssertEqual(ranges.last![1], 1, accuracy: 1e-9, how)
      for k in 1..<ranges.count {
        XCTAssertEqual(ranges[k][1] - ranges[k][0], width, accuracy: 1e-9, "\(how): the width stays")
        XCTAssertGreaterThanOrEqual(ranges[k][1], ranges[k - 1][1] - 1e-12, "\(how): never back")
      }
      // Eased: slower in the first and last quarter second than in the middle.
      let start = ranges[5][1] - ranges[4][1], middle = ranges[11][1] - ranges[10][1]
      XCTAssertLessThan(start, middle / 2, how)
    }
    try write("f.lua", "local set = cs.data.sample()[1]\nreturn cs.scene { width = 300, height = 300, fps = 10, duration = 1, root = cs.chart { id = 'c', data = set },\n  update = cs.follow { chart = 'nope', window = 86400, duration = 1 } }")
    try fails(["f.lua"], "f.lua:3: bad field 'chart' in cs.follow (no chart 'nope' (charts: 'c'))")
    try write("f.lua", "local set = cs.data.sample()[1]\nreturn cs.scene { width = 300, height = 300, root = cs.chart { id = 'c', data = set },\n  update = cs.follow { data = set, duration = 1 } }")
    try fails(["f.lua"], "f.lua:3: missing field 'window' in cs.follow")
  }

  func testBadInputsGiveOneLine() throws {
    let set = "local set = cs.data.sample()[1]\n"
    let cases: [(String, String)] = [
      ("return cs.scene { width = 300, height = 300, root = cs.chart { data = set, annotations = { cs.note { at = 0, line = 'nope' } } } }",
       "f.lua:2: bad field 'line' in cs.note (no line 'nope' in"),
      ("return cs.scene { width = 300, height = 300, root = cs.text { data = set, text = 'Sales {value:y0' } }",
       "f.lua:2: bad field 'text' in cs.text (template 'Sales {value:y0' has a '{' without its closing '}'"),
      ("return cs.scene { width = 300, height = 300, root = cs.text { data = set, text = '{sales}' } }",
       "f.lua:2: bad field 'text' in cs.text (unknown template field '{sales}'"),
      ("return cs.scene { width = 300, height = 300, root = cs.text { data = set, text = '{value:sales}' } }",
       "f.lua:2: bad field 'text' in cs.text (no line 'sales' in"),
      ("return cs.scene { width = 300, height = 300, root = cs.text { data = set, text = '{value:y0|money}' } }",
       "unknown format 'money' in template field '{value:y0|money}'"),
      ("return cs.scene { width = 300, height = 300, root = cs.text { data = set, text = '{time:%Q}' } }",
       "unknown conversion '%Q'"),
      ("return cs.scene { width = 300, height = 300, root = cs.text { text = '{time}' } }",
       "missing field 'data' in cs.text"),
      ("return cs.scene { width = 300, height = 300, root = cs.chart { data = set, title = 'x {value}' } }",
       "bad field 'title' in cs.chart (template field '{value}' needs a line"),
      ("return cs.scene { width = 300, height = 300, root = cs.chart { data = set, annotations = { cs.band { from = 'soon', to = 5 } } } }",
       "bad field 'from' in cs.band (a time expected"),
      ("return cs.scene { width = 300, height = 300, root = cs.chart { data = set, annotations = { cs.rule { text = 'x' } } } }",
       "cs.rule takes 'value' (a horizontal line) or 'at' (a vertical one)"),
      ("return cs.scene { width = 300, height = 300, root = cs.chart { data = set, annotations = { 5 } } }",
       "bad annotation #1 in cs.chart (cs.note, cs.band or cs.rule expected, got number)"),
      ("return cs.scene { width = 300, height = 300, root = cs.chart { data = set, annotations = { cs.note { at = 0, value = 1, appear = 2, disappear = 1 } } } }",
       "bad field 'disappear' in cs.note (must be after 'appear'"),
    ]
    for (body, expected) in cases {
      try write("f.lua", set + body)
      try fails(["f.lua"], expected)
    }
  }
}
