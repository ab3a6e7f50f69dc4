import ChartSceneHost
import Drawing
import Foundation
import SceneGraph
import XCTest

/// The X axis's context (YearContextTests) while the window moves: it fades out as a pan
/// or zoom starts and back in after the window stops, never popping (no more than 0.35 of
/// opacity from one frame to the next at 60 fps), never over a visible label, and fully
/// drawn once the window is at rest again.
final class YearContextMotionTests: TempFolderCase {
  /// Two years of daily points from 2018-01-01 (or 20 days of hourly ones), a window at
  /// `from`, animated to `to` at 0.5 s for `duration` s.
  func script(hourly: Bool, from: (Double, Double), to: (Double, Double), duration: Double, width: Int) throws -> String {
    let url = tmp.appendingPathComponent("pan-\(hourly)-\(width)-\(to.0).lua")
    let (n, step) = hourly ? (480, 3_600_000) : (730, 86_400_000)
    try """
    local cs = require("chartscene")
    local x, v = {}, {}
    for i = 0, \(n - 1) do x[#x+1] = 1514764800000 + i * \(step); v[#v+1] = 100 + 50 * math.sin(i / 7) end
    local set = cs.data.series{ name = "S", x = x, lines = { { id = "a", name = "A", color = "#3DC23F", values = v } } }
    set:setRange(\(from.0), \(from.1))
    return cs.scene{ width = \(width), height = 400, fps = 60, duration = \(0.5 + duration + 1),
      root = cs.chart{ id = "c", data = set, legend = false },
      timeline = { cs.call{ at = 0.5, fn = function() cs.animate({ duration = \(duration), curve = "easeInOut" }, function() set:setRange(\(to.0), \(to.1)) end) end } } }
    """.write(to: url, atomically: true, encoding: .utf8)
    return url.path
  }

  /// From one frame to the next: the same context (text and place, to `sameWithin` px of
  /// motion) changes by at most 0.35; one that leaves or arrives does so at most 0.35
  /// opaque; and it is never over a visible label.
  func assertStep(from p: DrawnLabel?, to c: DrawnLabel?, labels: [DrawnLabel], sameWithin: Double, _ what: String,
                  file: StaticString = #filePath, line: UInt = #line) {
    if let p, let c, p.text == c.text, abs(p.frame.x - c.frame.x) < sameWithin {
      XCTAssertLessThanOrEqual(abs(c.alpha - p.alpha), 0.35, "\(what): '\(c.text)' \(p.alpha) → \(c.alpha)", file: file, line: line)
    } else {
      XCTAssertLessThanOrEqual(p?.alpha ?? 0, 0.35, "\(what): '\(p?.text ?? "")' vanishes at \(p?.alpha ?? 0)", file: file, line: line)
      XCTAssertLessThanOrEqual(c?.alpha ?? 0, 0.35, "\(what): '\(c?.text ?? "")' pops in at \(c?.alpha ?? 0)", file: file, line: line)
    }
    if let c, c.alpha > 0.1 {
      for l in labels where l.alpha > 0.1 { XCTAssertFalse(l.frame.intersects(c.frame), "\(what): '\(c.text)' over '\(l.text)'", file: file, line: line) }
    }
  }

  func testContextFadesWithTheWindowsMotion() throws {
    // A pan across New Year, a zoom in from a quarter to a week, and a zoom into a day of
    // hourly data (there the context is the date). (Not a zoom out: the labels themselves
    // may change by more than 0.35 a frame there, and the context fades with its label.)
    let cases: [(Bool, (Double, Double), (Double, Double), Double, Int)] = [
      (false, (0.3, 0.4), (0.55, 0.65), 2, 720), (false, (0.2, 0.45), (0.3, 0.31), 1, 1280), (true, (0.1, 0.6), (0.51, 0.53), 1, 720),
    ]
    for (hourly, from, to, duration, width) in cases {
      let what = "\(hourly ? "hourly" : "daily") \(from) → \(to) at \(width) px"
      let session = try Session(scriptPath: try script(hourly: hourly, from: from, to: to, duration: duration, width: width), quiet: true)
      let clock = session.simulation.clock
      var previous: DrawnLabel? = nil
      var sawFade = false
      for k in 0..<clock.frameCount {
        let t = clock.time(ofFrame: k)
        let a = try session.chartAxes(at: t).axes
        let c = a.xContext
        if let c, c.alpha > 0.05, c.alpha < 0.95 { sawFade = true }
        if k > 0 { assertStep(from: previous, to: c, labels: a.xLabels, sameWithin: 60, "\(what), t=\(t)") }
        // At rest before and after: the year (or the date) fully drawn.
        if t < 0.5 || t > 0.5 + duration + 0.6, !a.xLabels.contains(where: { $0.text == "2018" || $0.text == "2019" }) {
          XCTAssertEqual(c?.alpha, 1, "\(what), t=\(t): \(a.xLabels.map(\.text)) \(c?.text ?? "no context")")
        }
        previous = c
      }
      XCTAssertTrue(sawFade, "\(what): the context never faded")
    }
  }

  /// A camera following the data across New Year (`cs.follow`: the window moved at once,
  /// frame by frame): the axis start says the year all along (`2018`, then `2019`), the
  /// labels that slide under it give way, its text changes only while it is faint, and it
  /// is never over a visible label.
  func testAFollowingCameraKeepsTheYearAtTheAxisStart() throws {
    let url = tmp.appendingPathComponent("follow.lua")
    try """
    local cs = require("chartscene")
    local x, v = {}, {}
    for i = 0, 180 do x[#x+1] = 1538352000000 + i * 86400000; v[#v+1] = 100 + 50 * math.sin(i / 7) end  -- from 2018-10-01
    local set = cs.data.series{ name = "S", x = x, lines = { { id = "a", name = "A", color = "#3DC23F", values = v } } }
    return cs.scene{ width = 720, height = 400, fps = 30, duration = 6,
      root = cs.chart{ id = "c", data = set, legend = false },
      update = cs.follow{ chart = "c", window = 60 * 86400, duration = 6 } }
    """.write(to: url, atomically: true, encoding: .utf8)
    let session = try Session(scriptPath: url.path, quiet: true)
    let clock = session.simulation.clock
    var previous: DrawnLabel? = nil
    var texts: [String] = []
    var shown = 0, moving = 0
    for k in 0..<clock.frameCount {
      let t = clock.time(ofFrame: k)
      let a = try session.chartAxes(at: t).axes
      let c = a.xContext
      if k >= 3 { moving += 1; if (c?.alpha ?? 0) > 0.5 { shown += 1 } }
      if let c, c.alpha > 0.5, texts.last != c.text { texts.append(c.text) }
      // (Frame 1 is the camera's first move: the context at rest goes at once, as for a drag.)
      if k > 1 { assertStep(from: previous, to: c, labels: a.xLabels, sameWithin: 0.001, "t=\(t)") }
      if let c, c.alpha > 0.1, k >= 3 {
        XCTAssertEqual(c.frame.minX, a.xLabels.map(\.frame.minX).min().map { min($0, c.frame.minX) } ?? c.frame.minX, "t=\(t): not at the axis start")
      }
      previous = c
    }
    XCTAssertEqual(texts.suffix(2), ["2018", "2019"], "\(texts)")
    XCTAssertGreaterThan(Double(shown), 0.8 * Double(moving), "the year shows in \(shown) of \(moving) moving frames")
  }
}
