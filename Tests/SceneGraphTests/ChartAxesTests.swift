import ChartModel
import Drawing
import Motion
@testable import SceneGraph
import XCTest

final class ChartAxesTests: XCTestCase {
  let measurer = FixedWidthTextMeasurer()

  func visibleOverlaps(_ labels: [DrawnLabel]) -> [(String, String)] {
    let v = labels.filter { $0.alpha > 0.1 }
    var out: [(String, String)] = []
    for i in 0..<v.count { for j in (i + 1)..<max(i + 1, v.count) where v[i].frame.inset(by: 0.5).intersects(v[j].frame.inset(by: 0.5)) { out.append((v[i].text, v[j].text)) } }
    return out
  }

  /// While the Y axis moves from one scale to another, old and new labels never show
  /// overlapping text, and a value both scales label is drawn once.
  func testYCrossFadeNeverOverlaps() {
    let set = sampleSet(points: 200)
    let spec = ChartSpec(data: set)
    let frame = Rect(0, 0, 400, 500)
    let parts = ChartParts.make(spec: spec, card: false, frame: frame, measurer: measurer)
    let pairs: [(YScale, YScale)] = [
      (YScale(lo: 0, hi: 8000, step: 2000), YScale(lo: 0, hi: 7500, step: 2500)),
      (YScale(lo: 6000, hi: 7000, step: 250), YScale(lo: 6000, hi: 6800, step: 200)),
      (YScale(lo: 0, hi: 100, step: 20), YScale(lo: 0, hi: 1000, step: 200)),
    ]
    for (a, b) in pairs {
      let p = Presentation()
      p.animates = true
      let key = ChartKey(NodeIdentity.next())
      p.updateAxis(AxisKey(key), target: a, at: 0)
      p.updateAxis(AxisKey(key), target: b, at: 1)
      for k in 0...30 {
        let t = 1 + Double(k) * 0.01
        let snap = ChartSnapshot(spec: spec, plot: parts.plot, presentation: p, key: key, t: t)
        let axes = ChartAxes(spec: spec, parts: parts, snap: snap, measurer: measurer, rest: 1)
        XCTAssertTrue(visibleOverlaps(axes.yLabels).isEmpty, "t=\(t): \(visibleOverlaps(axes.yLabels))")
        let texts = axes.yLabels.filter { $0.alpha > 0.1 }.map(\.text)
        XCTAssertEqual(Set(texts).count, texts.count, "t=\(t): equal labels \(texts)")
        // Labels leaving the plot fade out within a third of their height.
        for l in axes.yLabels where l.alpha > 0.1 {
          XCTAssertTrue(l.frame.minY >= parts.plot.minY - l.frame.height / 3 && l.frame.maxY <= parts.plot.maxY + l.frame.height / 3, "\(l.text) leaves the plot")
        }
      }
    }
  }

  /// At rest every X label is fully opaque, inside the plot's width and apart from the others.
  func testXLabelsAtRest() {
    let set = sampleSet(points: 400)
    for w in [200.0, 320, 360, 720, 1600, 4000] {
      for (lo, hi) in [(0.0, 1.0), (0.75, 1), (0.9, 0.95), (0.5, 0.502), (0.1, 0.6)] {
        set.setRange(lo, hi)
        let spec = ChartSpec(data: set)
        let parts = ChartParts.make(spec: spec, card: false, frame: Rect(0, 0, w, 500), measurer: measurer)
        let snap = ChartSnapshot(spec: spec, plot: parts.plot)
        let axes = ChartAxes(spec: spec, parts: parts, snap: snap, measurer: measurer, rest: 1)
        XCTAssertFalse(axes.xLabels.isEmpty)
        XCTAssertTrue(axes.xLabels.allSatisfy { $0.alpha == 1 }, "faint labels at rest")
        XCTAssertTrue(visibleOverlaps(axes.xLabels).isEmpty, "\(w) px \(lo)-\(hi): \(visibleOverlaps(axes.xLabels))")
        for l in axes.xLabels { XCTAssertTrue(l.frame.minX >= parts.plot.minX - 0.01 && l.frame.maxX <= parts.plot.maxX + 0.01) }
      }
    }
  }

  func testZeroLineIsStrongWhenZeroIsInRange() {
    let xs = (0..<10).map { 1_546_300_800_000 + Double($0) * 86_400_000 }
    let set = ChartSet(name: "S", xs: xs, lines: [Line(id: "a", name: "A", color: Palette.color(0), values: (0..<10).map { Double($0) * 10 - 40 })])
    let spec = ChartSpec(data: set)
    let parts = ChartParts.make(spec: spec, card: false, frame: Rect(0, 0, 400, 500), measurer: measurer)
    let snap = ChartSnapshot(spec: spec, plot: parts.plot)
    let axes = ChartAxes(spec: spec, parts: parts, snap: snap, measurer: measurer, rest: 1)
    let strong = axes.grid.filter(\.strong)
    XCTAssertEqual(strong.count, 1)
    let zeroLabel = try? XCTUnwrap(axes.yLabels.first { $0.text == "0" })
    XCTAssertNotNil(zeroLabel)
    XCTAssertEqual(strong.first!.y, (zeroLabel!.frame.maxY + 2).rounded() + 0.5, accuracy: 1.5)
    XCTAssertTrue(axes.yLabels.contains { $0.text.hasPrefix("\u{2212}") })
  }

  func testPosterStaysInsideThePlot() {
    let long = "A remarkably long line name that goes on and on"
    let xs = (0..<50).map { 1_546_300_800_000 + Double($0) * 86_400_000 }
    let set = ChartSet(name: "S", xs: xs, lines: (0..<3).map { l in Line(id: "y\(l)", name: long, color: Palette.color(l), values: (0..<50).map { Double(($0 * 7 + l * 13) % 23) * 1e6 }) })
    for size in [Size(320, 240), Size(360, 640), Size(200, 150), Size(720, 640)] {
      for f in stride(from: 0.0, through: 1.0, by: 0.05) {
        var spec = ChartSpec(data: set)
        spec.indicatorAt = f
        let parts = ChartParts.make(spec: spec, card: false, frame: Rect(0, 0, size.width, size.height), measurer: measurer)
        let snap = ChartSnapshot(spec: spec, plot: parts.plot)
        guard let box = ChartPoster.make(spec: spec, parts: parts, snap: snap, measurer: measurer)?.box else { continue }
        XCTAssertTrue(box.minX >= parts.plot.minX && box.maxX <= parts.plot.maxX && box.minY >= parts.plot.minY && box.maxY <= parts.plot.maxY,
                      "\(size) at \(f): \(box) outside \(parts.plot)")
      }
    }
  }

  func testTextFit() {
    let font = Font(size: 10)  // 6 px a character
    XCTAssertEqual(TextFit.fit("short", width: 100, font: font, measurer: measurer), "short")
    let cut = TextFit.fit("A very long title that will not fit", width: 100, font: font, measurer: measurer)
    XCTAssertTrue(cut.hasSuffix("…"))
    XCTAssertLessThanOrEqual(measurer.measure(cut, font: font).width, 100)
    XCTAssertFalse(cut.dropLast().hasSuffix(" "))
    XCTAssertEqual(TextFit.fit("abc", width: 0, font: font, measurer: measurer), "")
  }

}
