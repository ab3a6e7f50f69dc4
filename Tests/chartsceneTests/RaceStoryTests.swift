import Foundation
import XCTest

/// Issue 25, item 3 (the rest): the race's bars never overlap at rest and swap in order (W6's
/// shape: 30 series, 20 periods, 1280x720), the line race, images per bar.
final class RaceStoryTests: FolderCase {
  /// W6's race: 30 series over 20 periods, values from a deterministic generator.
  static func script(kind: String = "bar", extra: String = "") -> String {
    """
    local seed = 11
    local function rand() seed = (seed * 1103515245 + 12345) % 2147483648; return seed / 2147483648 end
    local x, lines = {}, {}
    for k = 1, 20 do x[k] = os.time({ year = 2000 + k, month = 1, day = 1, hour = 0 }) * 1000 end
    for i = 1, 30 do
      local v, values = 100 + 900 * rand(), {}
      for k = 1, 20 do v = v * (0.8 + 0.5 * rand()); values[k] = v end
      lines[i] = { id = "s" .. i, name = "Series " .. i, values = values }
    end
    local set = cs.data.series { name = "W6", x = x, lines = lines }
    return cs.scene { width = 1280, height = 720, fps = 30, duration = 19.5,
      root = cs.race { id = "r", data = set, top = 10, period = 1, kind = "\(kind)", title = "W6" \(extra) } }
    """
  }

  func bars(_ t: Double, file: String = "race.lua") throws -> [[String: Any]] {
    let r = try run([file, "--inspect", "--at", "\(t)"])
    XCTAssertEqual(r.status, 0, r.stderr)
    let root = try XCTUnwrap((try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])?["root"] as? [String: Any], r.stderr)
    return try XCTUnwrap(root["bars"] as? [[String: Any]])
  }

  func testBarsNeverOverlapAtRestAndSwapInOrder() throws {
    try write("race.lua", Self.script())
    // At rest (on a data point): ranks 1, 2, 3, ... by value, and the bars' rectangles are
    // apart, top to bottom in rank order.
    for k in [0, 1, 5, 9, 13, 19] {
      let b = try bars(Double(k))
      XCTAssertGreaterThanOrEqual(b.count, 10)
      let ranks = b.map { $0["rank"] as! Double }
      XCTAssertEqual(ranks, (1...b.count).map(Double.init), "t = \(k)")
      let values = b.map { $0["value"] as! Double }
      XCTAssertEqual(values, values.sorted(by: >), "t = \(k)")
      let rects = b.map { ($0["rect"] as! [Double]) }
      for i in 1..<rects.count {
        XCTAssertLessThan(rects[i - 1][1] + rects[i - 1][3], rects[i][1], "t = \(k): bars \(i) and \(i + 1) overlap")
        XCTAssertGreaterThan(rects[i][3], 0)
      }
    }
    // Between two points bars swap in order: each pair that changes places does so once (no
    // back-and-forth), and two bars a whole place or more apart are in the order of their
    // values (only a pair passing each other is out of it, while it passes).
    for k in [2, 7, 12] {
      let samples = try (0...10).map { try bars(Double(k) + Double($0) / 10) }
      func entry(_ s: [[String: Any]], _ name: String) -> (rank: Double, value: Double)? {
        s.first { $0["name"] as? String == name }.map { ($0["rank"] as! Double, $0["value"] as! Double) }
      }
      let names = Set(samples[0].compactMap { $0["name"] as? String }).intersection(samples[10].compactMap { $0["name"] as? String }).sorted()
      XCTAssertGreaterThan(names.count, 5)
      var swaps = 0
      for (i, a) in names.enumerated() {
        for b in names[(i + 1)...] {
          let signs = samples.compactMap { s -> Double? in
            guard let x = entry(s, a), let y = entry(s, b) else { return nil }
            return (x.rank - y.rank).sign == .minus ? -1 : 1
          }
          let changes = zip(signs, signs.dropFirst()).filter { $0 != $1 }.count
          XCTAssertLessThanOrEqual(changes, 1, "\(a) and \(b) between \(k) and \(k + 1) change places \(changes) times")
          swaps += changes
        }
      }
      for s in samples {
        let r = s.map { $0["rank"] as! Double }
        XCTAssertEqual(r, r.sorted(), "listed in drawn order")
        for x in s { for y in s where (x["rank"] as! Double) + 1 <= (y["rank"] as! Double) {
          XCTAssertGreaterThanOrEqual(x["value"] as! Double, y["value"] as! Double, "\(x) is a place ahead of \(y) with a smaller value")
        } }
      }
      XCTAssertGreaterThan(swaps, 0, "the data should swap some bars between \(k) and \(k + 1)")
    }
  }

  func testALineRaceDrawsItsLinesWithTheirLabelsApart() throws {
    try write("race.lua", Self.script(kind: "line"))
    let b = try bars(10)
    let shown = b.filter { $0["tip"] != nil }
    XCTAssertGreaterThanOrEqual(shown.count, 10)
    // Every tip is at now (the plot's right edge), higher for a larger value.
    let tips = shown.map { $0["tip"] as! [Double] }
    XCTAssertEqual(Set(tips.map { ($0[0] * 100).rounded() }).count, 1, "\(tips)")
    let byValue = shown.sorted { ($0["value"] as! Double) > ($1["value"] as! Double) }.map { ($0["tip"] as! [Double])[1] }
    XCTAssertEqual(byValue, byValue.sorted())
    // The labels are at least a line apart.
    let labels = shown.map { $0["label"] as! Double }.sorted()
    for i in 1..<labels.count { XCTAssertGreaterThanOrEqual(labels[i] - labels[i - 1], 10, "\(labels)") }
    let r = try run(["race.lua", "-o", "line.png", "--at", "10"])
    XCTAssertEqual(r.status, 0, r.stderr)
    XCTAssertEqual(r.stderr, "")
    XCTAssertEqual(try run(["lint", "race.lua"]).status, 0)
  }

  func testImagesPerBar() throws {
    // A red 8x8 PNG, drawn by chartscene itself.
    try write("logo.lua", "return cs.scene { width = 8, height = 8, background = '#FF0000', root = cs.spacer {} }")
    XCTAssertEqual(try run(["logo.lua", "-o", "logo.png"]).status, 0)
    try write("race.lua", Self.script(extra: ", images = { s1 = 'logo.png', s2 = 'logo.png' }"))
    try write("plain.lua", Self.script())
    for (f, t) in [("race.lua", "3"), ("plain.lua", "3")] {
      let r = try run([f, "-o", f + ".png", "--at", t])
      XCTAssertEqual(r.status, 0, r.stderr)
    }
    XCTAssertNotEqual(try Data(contentsOf: dir.appendingPathComponent("race.lua.png")), try Data(contentsOf: dir.appendingPathComponent("plain.lua.png")))
    // In a line race too.
    try write("line.lua", Self.script(kind: "line", extra: ", images = { s1 = 'logo.png' }"))
    XCTAssertEqual(try run(["line.lua", "-o", "line.png", "--at", "5"]).status, 0)

    try write("bad1.lua", Self.script(extra: ", images = { s1 = 'gone.png' }"))
    try fails(["bad1.lua", "-o", "x.png"], "cannot read 'gone.png': no such file")
    try write("notpng.txt", "hello")
    try write("bad2.lua", Self.script(extra: ", images = { s1 = 'notpng.txt' }"))
    try fails(["bad2.lua", "-o", "x.png"], "cannot use 'notpng.txt' as an image: it is not a PNG file")
    try write("bad3.lua", Self.script(extra: ", images = { nope = 'logo.png' }"))
    try fails(["bad3.lua", "-o", "x.png"], "bad field 'images' in cs.race: the data has no line 'nope'")
    try write("bad4.lua", Self.script(kind: "pie"))
    try fails(["bad4.lua", "-o", "x.png"], "invalid kind 'pie' in cs.race, expected one of: 'bar', 'line'")
    // Damaged after its header: refused when read, not drawn as nothing.
    var png = try Data(contentsOf: dir.appendingPathComponent("logo.png"))
    png = png.prefix(40)
    try png.write(to: dir.appendingPathComponent("cut.png"))
    try write("bad5.lua", "local i = cs.image('cut.png')\nreturn cs.scene { root = cs.spacer {} }")
    try fails(["bad5.lua", "-o", "x.png"], "error: bad5.lua:1: cannot use 'cut.png' as an image: the PNG file is damaged")
  }
}
