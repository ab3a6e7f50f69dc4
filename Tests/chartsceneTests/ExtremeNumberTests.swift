import Foundation
import XCTest

/// Every numeric option of every constructor, every numeric argument of every canvas and
/// ChartSet method, and the numbers of inline data, given extreme values (±1e300, NaN, ±inf,
/// −0, ±2^53, 1e-300, −1, 1e9): each script ends in a picture or in one clean error line,
/// never a trap, a hang or a runaway allocation. The options and methods are read from
/// `chartscene definitions` (the declarations the bindings validate with), so a number added
/// to the API is attacked here without a change to this test.
///
/// All the scripts run as one `chartscene batch` (a few hundred renders in one process, about
/// 30 s); when the batch does not end cleanly, each script runs alone to name the culprit.
final class ExtremeNumberTests: TempFolderCase {
  static let values = ["1e300", "-1e300", "0/0", "1/0", "-1/0", "-0.0", "2^53", "-(2^53)", "1e-300", "-1", "1e9"]

  struct Case {
    var name: String; var script: String; var inspect: Bool
    /// How the option's check refuses a value while the script is evaluated (`bad field 'k'
    /// in`): an option read by a constructor in the script's body, not in a function run later.
    var refusedAtLoad: String? = nil
  }

  /// Templates whose option is read in a function called later (a draw, a layout, a timeline
  /// call), not while the script is evaluated.
  static let readLater: Set<String> = ["cs.ChildLayout", "cs.MeasureOptions", "cs.AnimateOptions", "cs.GraphicsTextOptions", "cs.GraphicsImageOptions"]

  /// Option classes of the definitions: their number fields (`number`, `number[]`, `integer`...).
  static func numberFields(_ defs: String) -> [(cls: String, field: String, type: String)] {
    var out: [(String, String, String)] = []
    var cls: String? = nil
    for line in defs.split(separator: "\n", omittingEmptySubsequences: false) {
      if line.hasPrefix("---@class ") {
        // `---@class (exact) cs.ChartOptions`: the attribute is not the name.
        var rest = line.dropFirst(10)
        if rest.hasPrefix("(exact) ") { rest = rest.dropFirst(8) }
        cls = String(rest.split(separator: ":")[0].split(separator: " ")[0])
      } else if line.hasPrefix("---@field "), let c = cls {
        let parts = line.dropFirst(10).split(separator: " ", maxSplits: 2).map(String.init)
        guard parts.count >= 2 else { continue }
        let name = parts[0].hasSuffix("?") ? String(parts[0].dropLast()) : parts[0]
        let type = parts[1]
        if type.split(separator: "|").contains(where: { $0 == "number" || $0 == "integer" || $0 == "number[]" }) {
          out.append((c, name, type))
        }
      } else if !line.hasPrefix("---") {
        cls = nil
      }
    }
    return out
  }

  /// Methods of a class with their parameters (`Graphics:rect` → [x, y, w, h, radius]) and
  /// which of them are numbers.
  static func methods(_ defs: String, of cls: String) -> [(name: String, params: [(String, Bool)])] {
    var out: [(String, [(String, Bool)])] = []
    var types: [String: String] = [:]
    for line in defs.split(separator: "\n", omittingEmptySubsequences: false) {
      if line.hasPrefix("---@param ") {
        let parts = line.dropFirst(10).split(separator: " ").map(String.init)
        if parts.count >= 2 { types[parts[0].replacingOccurrences(of: "?", with: "")] = parts[1] }
      } else if line.hasPrefix("function \(cls):") {
        let sig = line.dropFirst("function \(cls):".count)
        let name = String(sig.prefix { $0 != "(" })
        let inner = sig.drop { $0 != "(" }.dropFirst().prefix { $0 != ")" }
        let params = inner.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        out.append((name, params.map { ($0, types[$0].map { $0.split(separator: "|").contains("number") } ?? false) }))
        types = [:]
      } else if !line.hasPrefix("---") {
        types = [:]
      }
    }
    return out
  }

  /// A scene around one option table: `OPT` is replaced by `key = value`.
  static let templates: [String: String] = [
    "cs.SceneOptions": "return cs.scene { width = 200, height = 160, root = cs.chart { data = a }, OPT }",
    "cs.ChartOptions": "return cs.scene { width = 200, height = 160, root = cs.chart { data = a, OPT } }",
    "cs.CardOptions": "return cs.scene { width = 200, height = 160, root = cs.card { data = a, OPT } }",
    "cs.StackOptions": "return cs.scene { width = 200, height = 160, root = cs.vstack { cs.chart { data = a }, cs.chart { data = b }, OPT } }",
    "cs.HStackOptions": "return cs.scene { width = 200, height = 160, root = cs.hstack { cs.chart { data = a }, cs.text { text = 'x' }, OPT } }",
    "cs.ZStackOptions": "return cs.scene { width = 200, height = 160, root = cs.zstack { cs.chart { data = a }, cs.text { text = 'x' }, OPT } }",
    "cs.SpacerOptions": "return cs.scene { width = 200, height = 160, root = cs.vstack { cs.spacer { OPT }, cs.chart { data = a } } }",
    "cs.TextOptions": "return cs.scene { width = 200, height = 160, root = cs.text { text = 'Hello', OPT } }",
    "cs.CanvasOptions": "return cs.scene { width = 200, height = 160, root = cs.canvas { draw = function(g) g:circle(20, 20, 10):fill() end, OPT } }",
    "cs.ListOptions": "return cs.scene { width = 200, height = 160, root = cs.list { cs.chart { data = a }, cs.chart { data = b }, OPT } }",
    "cs.CarouselOptions": "return cs.scene { width = 200, height = 160, root = cs.carousel { cs.card { data = a }, cs.card { data = b }, OPT } }",
    "cs.ViewOptions": "return cs.scene { width = 200, height = 160, root = cs.view { layout = function(self, w, h) self.children[1].frame = { 0, 0, w, h / 2 } end, cs.chart { data = a }, OPT } }",
    "cs.ChildLayout": "return cs.scene { width = 200, height = 160, root = cs.view { layout = function(self, w, h) local c = self.children[1]; c.OPT end, cs.chart { data = a } } }",
    "cs.MeasureOptions": "return cs.scene { width = 200, height = 160, root = cs.canvas { draw = function(g) local w = cs.measure('Hi', { OPT }); g:rect(0, 0, math.min(w, 100), 10):fill() end } }",
    "cs.RaceOptions": "return cs.scene { width = 200, height = 160, duration = 1, fps = 10, root = cs.race { data = a, OPT } }",
    "cs.NoteOptions": "return cs.scene { width = 200, height = 160, duration = 1, fps = 10, root = cs.chart { data = a, annotations = { cs.note { at = a:valuesAt(0.9).time, value = 10, text = 'n', OPT } } } }",
    "cs.BandOptions": "return cs.scene { width = 200, height = 160, duration = 1, fps = 10, root = cs.chart { data = a, annotations = { cs.band { from = a:valuesAt(0.8).time, to = a:valuesAt(0.9).time, text = 'b', OPT } } } }",
    "cs.RuleOptions": "return cs.scene { width = 200, height = 160, duration = 1, fps = 10, root = cs.card { data = a, annotations = { cs.rule { text = 'r', OPT } } } }",
    "cs.FollowOptions": "return cs.scene { width = 200, height = 160, duration = 1, fps = 10, root = cs.chart { data = a }, update = cs.follow { data = a, window = 30 * 86400, duration = 1, OPT } }",
    "cs.CardsOptions": "return cs.scene { width = 200, height = 160, root = cs.cards { cs.card { data = a }, cs.card { data = b }, OPT } }",
    "cs.TabsOptions": "return cs.scene { width = 200, height = 160, root = cs.tabs { { title = 'A', view = cs.chart { data = a } }, { title = 'B', view = cs.chart { data = b } }, OPT } }",
    "cs.Frame": "return cs.scene { width = 200, height = 160, root = cs.vstack { cs.chart { data = a, frame = { OPT } } } }",
    "cs.Rotation3D": "return cs.scene { width = 200, height = 160, root = cs.chart { data = a, rotation3d = { angle = 20, OPT } } }",
    "cs.CallOptions": "return cs.scene { width = 200, height = 160, duration = 1, fps = 10, root = cs.chart { data = a }, timeline = { cs.call { fn = function() a:setRange(0.2, 0.6) end, OPT } } }",
    "cs.AnimateOptions": "return cs.scene { width = 200, height = 160, duration = 1, fps = 10, root = cs.chart { data = a }, timeline = { cs.call { at = 0.1, fn = function() cs.animate({ OPT }, function() a:setRange(0.1, 0.3) end) end } } }",
    "cs.CSVOptions": "return cs.scene { width = 200, height = 160, root = cs.chart { data = cs.data.csv('d.csv', { OPT }) } }",
    "cs.JSONOptions": "return cs.scene { width = 200, height = 160, root = cs.chart { data = cs.data.json('d.json', { OPT }) } }",
    "cs.GraphicsTextOptions": "return cs.scene { width = 200, height = 160, root = cs.canvas { draw = function(g) g:text('Hi', 10, 10, { OPT }) end } }",
    "cs.GraphicsImageOptions": "local i = cs.image('p.png') return cs.scene { width = 200, height = 160, root = cs.canvas { draw = function(g) g:image(i, 10, 10, 50, 50, { OPT }) end } }",
    "cs.AudioClip": "return cs.scene { width = 200, height = 160, duration = 1, fps = 10, audio = { file = 'v.wav', OPT }, root = cs.chart { data = a } }",
    "cs.Caption": "return cs.scene { width = 200, height = 160, duration = 1, fps = 10, captions = { { from = 0, to = 1, text = 'Hi', OPT } }, root = cs.chart { data = a } }",
  ]
  /// Classes whose numbers are covered by hand below (inline series) or are read-only fields.
  static let notOptions: Set<String> = ["cs.SeriesOptions", "cs.SeriesLine", "cs.ChartSet", "cs.Scene", "cs.GestureEvent", "cs.ChartGeometry", "cs.View", "cs.Image", "cs.TimelineFile"]
  static let events = ["cs.TapOptions": "tap", "cs.LongpressOptions": "longpress", "cs.DragOptions": "drag", "cs.ScrollOptions": "scroll"]

  static let prelude = "local cs = require('chartscene')\nlocal a, b = cs.data.sample()[1], cs.data.sample()[4]\n"

  static func cases(_ defs: String) -> (cases: [Case], missing: [String]) {
    var out: [Case] = []
    var missing: [String] = []
    for (cls, field, type) in numberFields(defs) where !notOptions.contains(cls) {
      var template = templates[cls]
      if let event = events[cls] {
        let base = "cs.\(event) { at = 0.2, pos = { 100, 80 }, by = { 10, 10 }, OPT }"
        template = "return cs.scene { width = 200, height = 160, duration = 1, fps = 10, root = cs.chart { data = a }, timeline = { \(base) } }"
      }
      guard let t = template else { missing.append("\(cls).\(field)"); continue }
      for v in values {
        let value = type.contains("[]") && !type.contains("number|") ? "{ \(v), \(v), \(v == "0/0" ? "0" : v) }" : v
        // number[] fields take two numbers (pos, by, offset) or three (axis): both shapes.
        let shapes = type.contains("[]") ? [value, "{ \(v), \(v) }"] : [value]
        for (k, s) in shapes.enumerated() {
          let script = prelude + t.replacingOccurrences(of: "OPT", with: "\(field) = \(s)")
          out.append(Case(name: "\(cls).\(field)=\(v)\(k > 0 ? "#\(k)" : "")", script: script, inspect: cls != "cs.SceneOptions",
                          refusedAtLoad: readLater.contains(cls) ? nil : "bad field '\(field)' in "))
        }
      }
    }
    for (name, params) in methods(defs, of: "Graphics") where params.contains(where: { $0.1 }) {
      let ordinary: [String: String] = ["x": "20", "y": "20", "w": "40", "h": "30", "r": "10", "radius": "4", "dx": "5", "dy": "5", "sx": "2", "sy": "2"]
      for (i, p) in params.enumerated() where p.1 {
        for v in values {
          let args = params.enumerated().map { j, q in j == i ? v : (q.1 ? ordinary[q.0] ?? "1" : (q.0 == "s" ? "'Hi'" : "nil")) }
          let call = "g:\(name)(\(args.joined(separator: ", ")))"
          let body = "g:moveTo(5, 5) \(call) g:lineTo(150, 120) g:circle(60, 60, 30) g:rect(10, 10, 80, 40, 8) g:stroke() g:text('after', 30, 30)"
          let script = prelude + "return cs.scene { width = 200, height = 160, root = cs.canvas { draw = function(g) \(body) end } }"
          out.append(Case(name: "Graphics:\(name)(\(p.0)=\(v))", script: script, inspect: false))
        }
      }
    }
    for (name, params) in methods(defs, of: "ChartSet") where params.contains(where: { $0.1 }) {
      for v in values {
        let args = params.map { $0.1 ? v : "nil" }
        let script = prelude + "a:\(name)(\(args.joined(separator: ", ")))\nreturn cs.scene { width = 200, height = 160, root = cs.chart { data = a, indicatorAt = 0.5 } }"
        out.append(Case(name: "ChartSet:\(name)(\(v))", script: script, inspect: true))
      }
    }
    // Inline data: extreme times and values (a value each, and all of them at once).
    for v in values {
      let series = "cs.data.series { x = { 0, 86400000, 172800000, 259200000 }, lines = { { id = 'y', values = { 1, \(v), 3, \(v) } } } }"
      out.append(Case(name: "series value \(v)", script: prelude + "return cs.scene { width = 200, height = 160, root = cs.chart { data = \(series), indicatorAt = 0.4 } }", inspect: true))
      let times = "cs.data.series { x = { 0, \(v), 2e11 }, lines = { { id = 'y', values = { 1, 2, 3 } } } }"
      out.append(Case(name: "series time \(v)", script: prelude + "return cs.scene { width = 200, height = 160, root = cs.chart { data = \(times) } }", inspect: true))
    }
    let all = values.map { "\($0)" }.joined(separator: ", ")
    let mixed = "cs.data.series { x = { \(values.indices.map { String($0 * 86_400_000) }.joined(separator: ", ")) }, lines = { { id = 'y', values = { \(all) } }, { id = 'z', type = 'bar', values = { \(all) } } } }"
    out.append(Case(name: "series all extremes", script: prelude + "return cs.scene { width = 200, height = 160, root = cs.vstack { cs.chart { data = \(mixed), indicatorAt = 0.5 }, cs.chart { data = \(mixed.replacingOccurrences(of: "'bar'", with: "'area'")), stacked = true } } }", inspect: true))
    return (out, missing)
  }

  /// A `--timeline` file's own numbers (`duration`), which no scene script holds: each extreme
  /// value plays or ends in one line naming the field.
  func testExtremeTimelineFileNumbersEndInAPictureOrOneLine() throws {
    try Data((Self.prelude + "return cs.scene { width = 200, height = 160, duration = 1, fps = 10, root = cs.chart { data = a } }").utf8).write(to: tmp.appendingPathComponent("s.lua"))
    for v in Self.values {
      try Data("return { merge = true, duration = \(v), cs.tap { at = 0.2, pos = { 100, 80 } } }".utf8).write(to: tmp.appendingPathComponent("t.lua"))
      let r = try CLI.run(["s.lua", "--timeline", "t.lua", "--at", "0.5", "-o", "o.png"], cwd: tmp)
      if r.status == 0 { continue }
      XCTAssertEqual(r.status, 1, "duration = \(v): \(r.stderr)")
      let lines = r.stderr.split(separator: "\n")
      XCTAssertEqual(lines.count, 1, "duration = \(v): \(r.stderr)")
      XCTAssertTrue(r.stderr.hasPrefix("error: t.lua: bad field 'duration' in the timeline file"), "duration = \(v): \(r.stderr)")
    }
  }

  func testExtremeNumbersEndInAPictureOrOneLine() throws {
    let defs = try CLI.run(["definitions"])
    XCTAssertEqual(defs.status, 0)
    let (cases, missing) = Self.cases(defs.stdout)
    XCTAssertEqual(missing, [], "option classes with numbers this test does not know how to place: add a template")
    XCTAssertGreaterThan(cases.count, 400)
    try FileManager.default.createDirectory(at: tmp.appendingPathComponent("out"), withIntermediateDirectories: true)
    var jobs = ""
    for (k, c) in cases.enumerated() {
      // (Not atomically: a temporary file and a rename for each of 2,500 scripts made this
      // loop wait seconds on the disk.)
      try c.script.write(to: tmp.appendingPathComponent("s\(k).lua"), atomically: false, encoding: .utf8)
      jobs += "s\(k).lua --max-time 5 --max-memory 256M -o out/s\(k).png\n"
    }
    try jobs.write(to: tmp.appendingPathComponent("jobs.txt"), atomically: true, encoding: .utf8)
    try "date,a,b\n2020-01-01,1,2\n2020-01-02,3,4\n2020-01-03,5,6\n".write(to: tmp.appendingPathComponent("d.csv"), atomically: true, encoding: .utf8)
    try #"[{"date":"2020-01-01","a":1,"b":2},{"date":"2020-01-02","a":3,"b":4}]"#.write(to: tmp.appendingPathComponent("d.json"), atomically: true, encoding: .utf8)
    // A sound's first bytes (all a still reads of it) and a 1x1 PNG (issue 25's audio, cs.image).
    try "RIFF\u{1}\u{1}\u{1}\u{1}WAVEfmt ".write(to: tmp.appendingPathComponent("v.wav"), atomically: true, encoding: .utf8)
    try Data(base64Encoded: "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=")!.write(to: tmp.appendingPathComponent("p.png"))
    let start = Date()
    let r = try CLI.run(["timeout", "-s", "KILL", "240", CLI.binary.path, "batch", "jobs.txt"], cwd: tmp,
                        executable: URL(fileURLWithPath: "/usr/bin/env"))
    let took = Date().timeIntervalSince(start)
    // Warnings (an event after the scene's end...) are fine; errors are one line a job.
    let lines = r.stderr.split(separator: "\n").map(String.init).filter { !$0.hasPrefix("warning: ") }
    print("extreme numbers: \(cases.count) scripts in \(Int(took)) s, \(lines.count) refused")
    let unclean = lines.filter { !$0.hasPrefix("error: jobs.txt:") }
    let clean = r.status <= 1 && unclean.isEmpty
    if !clean {
      // Name the culprits: each script alone.
      var bad: [String] = []
      for (k, c) in cases.enumerated() {
        let one = try CLI.run(["timeout", "-s", "KILL", "30", CLI.binary.path, "s\(k).lua", "--max-time", "5", "--max-memory", "256M", "-o", "out/one.png"],
                              cwd: tmp, executable: URL(fileURLWithPath: "/usr/bin/env"))
        let errs = one.stderr.split(separator: "\n")
        if one.status > 1 || (one.status == 1 && !(errs.count == 1 && errs[0].hasPrefix("error: "))) {
          bad.append("\(c.name): exit \(one.status): \(one.stderr.prefix(300))")
        }
      }
      XCTFail("the batch did not end cleanly (exit \(r.status)):\n\(unclean.prefix(20).joined(separator: "\n"))\n\(r.stderr.suffix(1000))\nscripts that fail alone:\n" + bad.joined(separator: "\n"))
      return
    }
    // Every refusal names the script and its line: `error: jobs.txt:7: s6.lua:3: bad field ...`.
    for l in lines {
      let parts = l.split(separator: ":", maxSplits: 4).map(String.init)
      guard parts.count >= 5, let n = Int(parts[2]) else { XCTFail("not one clean line: \(l)"); continue }
      XCTAssertTrue(parts[3].hasSuffix(".lua") && Int(parts[4].prefix { $0 != ":" }) != nil, "\(cases[n - 1].name): \(l)")
    }
    // What was not refused wrote its picture.
    let refused = Set(lines.compactMap { Int($0.split(separator: ":")[2]) })
    var refusal: [Int: String] = [:]
    for l in lines { if let n = Int(l.split(separator: ":")[2]) { refusal[n] = l } }
    for (k, c) in cases.enumerated() where !refused.contains(k + 1) {
      XCTAssertTrue(FileManager.default.fileExists(atPath: tmp.appendingPathComponent("out/s\(k).png").path), "\(c.name): no picture and no error")
    }
    XCTAssertGreaterThan(cases.count - refused.count, cases.count / 8, "many extremes should still draw (most are refused by ranges)")
    // --inspect lays out the same scenes: the largest values, each alone. (Each its own
    // process, two at a time.) A scene whose option the batch saw refused while the script
    // was evaluated is not laid out by --inspect either (the same script is evaluated the
    // same way before either): its refusal is checked above, once.
    let largest = cases.enumerated().filter { k, c in
      guard c.inspect && (c.name.hasSuffix("=1e300") || c.name.hasSuffix("=-1e300") || c.name.hasSuffix("=1e9")) else { return false }
      if let load = c.refusedAtLoad, let line = refusal[k + 1], line.contains(": s\(k).lua:3: " + load) { return false }
      return true
    }
    print("extreme numbers: --inspect of \(largest.count) scenes")
    let inspected = CLI.runAll(largest.map { k, _ in
      CLI.Job(args: ["timeout", "-s", "KILL", "30", CLI.binary.path, "s\(k).lua", "--max-time", "5", "--inspect"], cwd: tmp,
              executable: URL(fileURLWithPath: "/usr/bin/env"))
    })
    for ((_, c), one) in zip(largest, inspected) {
      let errs = one.stderr.split(separator: "\n")
      XCTAssertTrue(one.status == 0 || (one.status == 1 && errs.count == 1 && errs[0].hasPrefix("error: ")), "--inspect \(c.name): exit \(one.status): \(one.stderr.prefix(300))")
    }
    XCTAssertLessThan(took, 200, "the batch of extremes should take well under a minute")
  }
}
