import ChartSceneHost
import Drawing
import Foundation
import SceneGraph
import XCTest

/// X labels fade in time, not only with the zoom: on a zoom so fast that it crosses a level
/// of labels within a frame or two, no label's opacity jumps by more than 0.35 between two
/// frames at 60 fps; at rest every label is fully opaque, and a still is the same however
/// it is reached.
final class XLabelFadeTests: TempFolderCase {
  /// Hourly points over `days`; a fast linear zoom in at 0.5 s, a spring out at 1.5 s.
  func script(days: Int, zoom: (Double, Double), duration: Double, width: Int) throws -> String {
    let url = tmp.appendingPathComponent("zoom\(days)-\(width).lua")
    // Back out to six times the zoomed window (as the story's spring does): a window's ends
    // move linearly, so a zoom out by much more is very fast at its start (see the docs).
    let (c, w) = ((zoom.0 + zoom.1) / 2, zoom.1 - zoom.0)
    let out = (max(0, c - 3 * w), min(1, c + 3 * w))
    try """
    local cs = require("chartscene")
    local x, v = {}, {}
    for i = 0, \(days * 24) do x[#x+1] = 1554076800000 + i * 3600000; v[#v+1] = 100 + 50 * math.sin(i / 7) end
    local set = cs.data.series{ name = "Hourly", x = x, lines = { { id = "a", name = "A", color = "#3DC23F", values = v } } }
    return cs.scene{ width = \(width), height = 400, fps = 60, duration = 3.5,
      root = cs.chart{ id = "c", data = set, legend = false },
      timeline = {
        cs.call{ at = 0.5, fn = function() cs.animate({ duration = \(duration), curve = "linear" }, function() set:setRange(\(zoom.0), \(zoom.1)) end) end },
        cs.call{ at = 1.5, fn = function() cs.animate({ duration = 1.5, curve = "spring" }, function() set:setRange(\(out.0), \(out.1)) end) end },
      } }
    """.write(to: url, atomically: true, encoding: .utf8)
    return url.path
  }

  /// Where a tick at `time` is drawn at t (its centre).
  func xOf(_ session: Session, _ time: Double, at t: Double) -> (x: Double, plot: Rect) {
    let node = session.scene.node(id: "c")!, spec = node.chart!
    let w = session.scene.presentation.window(spec.data, at: t)
    let parts = ChartParts.make(spec: spec, card: false, frame: node.contentFrame, measurer: session.text, window: w)
    let lo = spec.data.time(atFraction: w.lo), hi = spec.data.time(atFraction: w.hi)
    return (parts.plot.x + (time - lo) / (hi - lo) * parts.plot.width, parts.plot)
  }

  /// The instant a label at x stands for at t.
  func timeOf(_ session: Session, _ x: Double, at t: Double) -> Double {
    let node = session.scene.node(id: "c")!, spec = node.chart!
    let w = session.scene.presentation.window(spec.data, at: t)
    let parts = ChartParts.make(spec: spec, card: false, frame: node.contentFrame, measurer: session.text, window: w)
    let lo = spec.data.time(atFraction: w.lo), hi = spec.data.time(atFraction: w.hi)
    return lo + (x - parts.plot.x) / parts.plot.width * (hi - lo)
  }


  func testFastZoomsFadeLabelsOverSeveralFrames() throws {
    var checked = 0
    // Ten to thirty times closer in a quarter of a second or less: two to five levels of
    // labels pass within 12 to 15 frames; then a spring back out, six times wider.
    for (days, zoom, duration, width) in [(30, (0.45, 0.48), 0.25, 720), (10, (0.3, 0.4), 0.2, 360), (365, (0.5, 0.53), 0.25, 1200), (60, (0.2, 0.3), 0.2, 320)] {
      let session = try Session(scriptPath: try script(days: days, zoom: zoom, duration: duration, width: width), quiet: true)
      checked += try checkFades(session, "\(days) days, \(width) px")
    }
    XCTAssertGreaterThan(checked, 1000)
  }

  /// A zoom out from a window at rest whose labels stand closer than a zoom out lets them
  /// (one a day, 60 px apart): they start fading as the zoom starts, over several frames
  /// (they used to drop to half at once), and are gone before the next level replaces them
  /// (which used to pop in at full opacity), at 60 and at 30 fps.
  func testAZoomOutFromRestFadesLabelsOverSeveralFrames() throws {
    var checked = 0
    for fps in [60, 30] {
      let url = tmp.appendingPathComponent("out\(fps).lua")
      try """
      local cs = require("chartscene")
      local x, v = {}, {}
      for i = 0, 729 do x[#x+1] = 1514764800000 + i * 86400000; v[#v+1] = 100 + 50 * math.sin(i / 7) end
      local set = cs.data.series{ name = "S", x = x, lines = { { id = "a", name = "A", color = "#3DC23F", values = v } } }
      set:setRange(0.3, 0.31)
      return cs.scene{ width = 480, height = 400, fps = \(fps), duration = 2.5,
        root = cs.chart{ id = "c", data = set, legend = false },
        timeline = { cs.call{ at = 0.5, fn = function() cs.animate({ duration = 1, curve = "easeInOut" }, function() set:setRange(0.1, 0.6) end) end } } }
      """.write(to: url, atomically: true, encoding: .utf8)
      checked += try checkFades(try Session(scriptPath: url.path, quiet: true), "\(fps) fps", limit: fps == 60 ? 0.35 : 0.7)
    }
    XCTAssertGreaterThan(checked, 300)
  }

  /// Steps through every frame of `session`: no label well inside the plot changes its
  /// opacity by more than `limit` from one frame to the next, visible labels never overlap,
  /// labels at rest are opaque, and some level fades. Returns how many steps it compared.
  func checkFades(_ session: Session, _ what: String, limit: Double = 0.35) throws -> Int {
    var checked = 0
    let clock = session.simulation.clock
    var previous: [String: (alpha: Double, time: Double)]? = nil
    var previousT = 0.0
    var sawFade = false
    for k in 0..<clock.frameCount {
      let t = clock.time(ofFrame: k)
      let (axes, plot, rest) = try session.chartAxes(at: t)
      var now: [String: (alpha: Double, time: Double)] = [:]
      for l in axes.xLabels { now[l.text] = (l.alpha, timeOf(session, l.frame.midX, at: t)) }
      if axes.xLabels.contains(where: { $0.alpha > 0.05 && $0.alpha < 0.95 }) { sawFade = true }
      if let previous {
        // Labels well inside the plot in both frames (at the edges they come and go with
        // the window, and are pushed in).
        for text in Set(now.keys).union(previous.keys) {
          let a = previous[text], b = now[text]
          let time = (b ?? a)!.time
          let x0 = xOf(session, time, at: previousT).x, x1 = xOf(session, time, at: t).x
          guard [x0, x1].allSatisfy({ $0 > plot.x + 40 && $0 < plot.maxX - 40 }) else { continue }
          let jump = abs((b?.alpha ?? 0) - (a?.alpha ?? 0))
          XCTAssertLessThanOrEqual(jump, limit, "\(what), t=\(t): '\(text)' jumps from \(a?.alpha ?? 0) to \(b?.alpha ?? 0)")
          checked += 1
        }
      }
      previous = now
      previousT = t
      // Visible labels never overlap.
      let vis = axes.xLabels.filter { $0.alpha > 0.1 }
      for i in 0..<vis.count { for j in (i + 1)..<max(i + 1, vis.count) { XCTAssertFalse(vis[i].frame.intersects(vis[j].frame), "\(what), t=\(t): '\(vis[i].text)' over '\(vis[j].text)'") } }
      // At rest (half a second after the window stops: the labels catch up with a zoom
      // across several levels), every label is fully opaque.
      if rest == 1 && !session.scene.presentation.isAnimating(at: t - 0.5) {
        XCTAssertTrue(axes.xLabels.allSatisfy { $0.alpha == 1 }, "\(what), t=\(t): faint label at rest: \(axes.xLabels.map { ($0.text, $0.alpha) })")
      }
    }
    XCTAssertTrue(sawFade, "\(what): the zoom never faded a level")
    return checked
  }

  func testAStillIsTheSameHoweverItIsReached() throws {
    let path = try script(days: 30, zoom: (0.45, 0.47), duration: 0.15, width: 720)
    for t in [0.55, 0.6, 1.2, 1.6, 2.9] {
      let a = try Session(scriptPath: path, quiet: true)
      let b = try Session(scriptPath: path, quiet: true)
      _ = try b.displayList(at: 0.3)
      let la = try a.chartAxes(at: t).axes.xLabels, lb = try b.chartAxes(at: t).axes.xLabels
      XCTAssertEqual(la, lb, "t=\(t)")
    }
  }
}
