import ChartSceneHost
import Drawing
import Foundation
import SceneGraph
import XCTest

/// Every frame of examples/story.lua (a zoom in, lines hidden, a spring zoom out):
/// the chart's lines stay clipped to the plot, Y labels that cross-fade never overlap as
/// text, X labels fade only while the window moves and are all opaque at rest.
final class AxisMotionTests: XCTestCase {
  static let repo = URL(fileURLWithPath: "\(#filePath)").deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

  func testStoryFrameByFrame() throws {
    let path = AxisMotionTests.repo.appendingPathComponent("examples/story.lua").path
    // At 60 fps, as the brief for the X labels' fades asks (XLabelFadeTests).
    var overrides = Session.Overrides()
    overrides.fps = 60
    let session = try Session(scriptPath: path, overrides: overrides, quiet: true)
    let clock = session.simulation.clock
    var sawFadingX = false, sawCrossFadingY = false
    var previous: [DrawnLabel]? = nil
    var prevRest = 1.0
    for k in 0..<clock.frameCount {
      let t = clock.time(ofFrame: k)
      let list = try session.displayList(at: t)
      guard let node = session.scene.node(id: "messages"), let spec = node.chart else { return XCTFail("no chart") }
      let p = session.scene.presentation
      let parts = ChartParts.make(spec: spec, card: false, frame: node.contentFrame, measurer: session.text, window: p.window(spec.data, at: t))
      let snap = ChartSnapshot(spec: spec, plot: parts.plot, presentation: p, key: ChartKey(node.identity), t: t)
      let rest = ChartAxes.rest(spec: spec, presentation: p, t: t)
      let axes = ChartAxes(spec: spec, parts: parts, snap: snap, measurer: session.text, presentation: p, key: ChartKey(node.identity), t: t)

      // Lines: every stroke of a line colour is drawn inside a clip equal to the plot.
      var clips: [Rect?] = []
      var lineStrokes = 0
      for item in list.items {
        switch item {
        case .pushClip(let path):
          if case .rect(let r, _) = path.elements.first { clips.append(r) } else { clips.append(nil) }
        case .popClip: clips.removeLast()
        case .path(let path, .stroke(let color, let width, _, _, _)) where width == spec.lineWidth && path.elements.count > 3:
          if spec.data.lines.contains(where: { $0.color.r == color.r && $0.color.g == color.g && $0.color.b == color.b }) {
            lineStrokes += 1
            XCTAssertEqual(clips.last ?? nil, parts.plot, "t=\(t): a line not clipped to the plot")
          }
        default: break
        }
      }
      XCTAssertGreaterThan(lineStrokes, 0, "t=\(t): no lines found")

      // Y labels: visible ones never overlap and never read the same.
      let ys = axes.yLabels.filter { $0.alpha > 0.1 }
      for i in 0..<ys.count {
        for j in (i + 1)..<max(i + 1, ys.count) {
          XCTAssertFalse(ys[i].frame.inset(by: 0.5).intersects(ys[j].frame.inset(by: 0.5)), "t=\(t): '\(ys[i].text)' over '\(ys[j].text)'")
          XCTAssertNotEqual(ys[i].text, ys[j].text, "t=\(t)")
        }
      }
      if axes.yLabels.contains(where: { $0.alpha > 0.05 && $0.alpha < 0.95 }) { sawCrossFadingY = true }
      // X labels: faint only while the window moves.
      if axes.xLabels.contains(where: { $0.alpha < 0.999 }) {
        // (From the frame a zoom starts: a zoom out fades its labels from its first frame.)
        XCTAssertTrue(rest < 1 || p.isAnimating(at: t), "t=\(t): a faint X label at rest")
        sawFadingX = true
      }
      if rest == 1 && !p.isAnimating(at: t) { XCTAssertTrue(axes.xLabels.allSatisfy { $0.alpha == 1 }) }
      // No label pops: one drawn in two consecutive frames (at 60 fps) changes its opacity
      // by at most a third (the level of labels moves at a limited speed, XLabelLevel.swift).
      if let prev = previous, rest < 1 || prevRest < 1 {
        for l in axes.xLabels {
          if let q = prev.first(where: { $0.text == l.text }) {
            XCTAssertLessThanOrEqual(abs(q.alpha - l.alpha), 0.35, "t=\(t): '\(l.text)' jumps from \(q.alpha) to \(l.alpha)")
          }
        }
      }
      previous = axes.xLabels
      prevRest = rest
      let xs = axes.xLabels.filter { $0.alpha > 0.1 }
      for i in 0..<xs.count {
        for j in (i + 1)..<max(i + 1, xs.count) {
          XCTAssertFalse(xs[i].frame.intersects(xs[j].frame), "t=\(t): '\(xs[i].text)' over '\(xs[j].text)'")
        }
      }
    }
    XCTAssertTrue(sawCrossFadingY, "the story never rescales its Y axis")
    XCTAssertTrue(sawFadingX, "the story's zoom never fades a level of X labels")
  }
}
