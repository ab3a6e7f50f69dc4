import ChartModel
import Drawing
import Render
import SceneGraph
import XCTest

func sampleSet(points: Int = 100, lines: Int = 2) -> ChartSet {
  let xs = (0..<points).map { 1_546_300_800_000 + Double($0) * 86_400_000 }
  let ls = (0..<lines).map { l in
    Line(id: "y\(l)", name: "Line \(l)", color: Palette.color(l), values: (0..<points).map { Double(($0 * (l + 3)) % 17 + l * 5) })
  }
  return ChartSet(name: "Sample", xs: xs, lines: ls)
}

final class LayoutTests: XCTestCase {
  let measurer = FixedWidthTextMeasurer()

  func layout(_ root: Node, _ w: Double = 400, _ h: Double = 300) -> Scene {
    let scene = Scene(width: w, height: h, theme: .day, root: root)
    try? scene.assignIDs()
    try! Layout(measurer: measurer).layout(scene)
    return scene
  }

  func chart() -> Node { Node(id: nil, kind: .chart(ChartSpec(data: sampleSet()))) }
  func text(_ s: String) -> Node { Node(id: nil, kind: .text(TextSpec(text: s))) }

  func testVStackSharesHeightBetweenFlexibleChildren() {
    let root = Node(id: nil, kind: .stack(.vertical, spacing: 10, align: .center), children: [chart(), text("Hi"), chart()])
    _ = layout(root)
    let f = root.children.map(\.frame)
    let textHeight = measurer.measure("Hi", font: Font(size: 15)).height
    XCTAssertEqual(f[1].height, textHeight)
    XCTAssertEqual(f[0].height, f[2].height)
    XCTAssertEqual(f[0].height + f[1].height + f[2].height + 20, 300, accuracy: 1e-9)
    XCTAssertEqual(f[0].width, 400)
    XCTAssertEqual(f[1].width, measurer.measure("Hi", font: Font(size: 15)).width)
    XCTAssertEqual(f[1].midX, 200, accuracy: 1e-9)  // centred by default
    XCTAssertEqual(f[2].maxY, 300, accuracy: 1e-9)
  }

  func testHStackAlignmentPaddingAndFixedFrames() {
    var fixed = Style()
    fixed.width = 100
    let a = Node(id: "a", kind: .chart(ChartSpec(data: sampleSet())), style: fixed)
    var padded = Style()
    padded.padding = Insets(all: 20)
    let root = Node(id: nil, kind: .stack(.horizontal, spacing: 0, align: .top), style: padded, children: [a, chart(), text("x")])
    _ = layout(root)
    XCTAssertEqual(a.frame, Rect(20, 20, 100, 260))
    XCTAssertEqual(root.children[1].frame.x, 120)
    let tw = measurer.measure("x", font: Font(size: 15)).width
    XCTAssertEqual(root.children[1].frame.width, 360 - 100 - tw, accuracy: 1e-9)
    XCTAssertEqual(root.children[2].frame.y, 20)  // top-aligned
  }

  func testZStackAndSpacer() {
    let t = text("corner")
    let z = Node(id: nil, kind: .stack(.depth, spacing: 0, align: .trailing), children: [chart(), t])
    _ = layout(z)
    XCTAssertEqual(z.children[0].frame, Rect(0, 0, 400, 300))
    XCTAssertEqual(t.frame.maxX, 400, accuracy: 1e-9)
    let v = Node(id: nil, kind: .stack(.vertical, spacing: 0, align: .leading), children: [text("top"), Node(id: nil, kind: .spacer(minLength: 0)), text("bottom")])
    _ = layout(v)
    XCTAssertEqual(v.children[0].frame.y, 0)
    XCTAssertEqual(v.children[2].frame.maxY, 300, accuracy: 1e-9)
    XCTAssertEqual(v.children[2].frame.x, 0)
  }

  func testGeneratedAndDuplicateIDs() throws {
    let root = Node(id: nil, kind: .stack(.vertical, spacing: 0, align: .center), children: [chart(), Node(id: "x", kind: .spacer(minLength: 0))])
    let scene = Scene(width: 10, height: 10, theme: .day, root: root)
    try scene.assignIDs()
    XCTAssertEqual(root.id, "vstack@root")
    XCTAssertEqual(root.children[0].id, "chart@0")
    XCTAssertEqual(root.children[1].id, "x")
    let dup = Scene(width: 10, height: 10, theme: .day, root: Node(id: "a", kind: .stack(.vertical, spacing: 0, align: .center), children: [Node(id: "a", kind: .spacer(minLength: 0))]))
    XCTAssertThrowsError(try dup.assignIDs()) { XCTAssertTrue("\($0)".contains("duplicate id 'a'")) }
  }
}

final class ChartPartsTests: XCTestCase {
  let measurer = FixedWidthTextMeasurer()

  func testPartsStayInsideTheFrameAndDoNotOverlap() {
    for lines in [1, 2, 5, 20, 50] {
      var spec = ChartSpec(data: sampleSet(lines: lines))
      spec.title = "Title"
      for frame in [Rect(0, 0, 720, 640), Rect(10, 20, 300, 900), Rect(0, 0, 1080, 640)] {
        let p = ChartParts.make(spec: spec, card: false, frame: frame, measurer: measurer)
        for (name, r) in p.named { XCTAssertTrue(frame.contains(r), "\(name) \(r) outside \(frame) with \(lines) lines") }
        XCTAssertGreaterThanOrEqual(p.plot.height, ChartMetrics.minimumPlotHeight)
        if let mm = p.minimap { XCTAssertGreaterThanOrEqual(mm.minY, p.plot.maxY) }
        for (a, b) in zip(p.legend, p.legend.dropFirst()) { XCTAssertFalse(a.frame.intersects(b.frame)) }
        if let mm = p.minimap, let chip = p.legend.first { XCTAssertGreaterThan(chip.frame.minY, mm.maxY) }
      }
    }
  }

  func testSmallFramesDropLegendThenMinimapThenTitle() {
    var spec = ChartSpec(data: sampleSet())
    spec.title = "T"
    let big = ChartParts.make(spec: spec, card: false, frame: Rect(0, 0, 400, 400), measurer: measurer)
    XCTAssertNotNil(big.title); XCTAssertNotNil(big.minimap); XCTAssertFalse(big.legend.isEmpty)
    // The plot keeps a third of the inner height: at 230 px the chips give way, not the mini-map.
    let mid = ChartParts.make(spec: spec, card: false, frame: Rect(0, 0, 400, 230), measurer: measurer)
    XCTAssertTrue(mid.legend.isEmpty)
    XCTAssertNotNil(mid.minimap)
    let small = ChartParts.make(spec: spec, card: false, frame: Rect(0, 0, 400, 100), measurer: measurer)
    XCTAssertNil(small.minimap)
    XCTAssertTrue(small.legend.isEmpty)
  }

  func testMinimapWindowFollowsTheRange() {
    let set = sampleSet()
    set.setRange(0.25, 0.75)
    let p = ChartParts.make(spec: ChartSpec(data: set), card: false, frame: Rect(0, 0, 432, 400), measurer: measurer)
    let mm = try! XCTUnwrap(p.minimap), w = try! XCTUnwrap(p.minimapWindow)
    XCTAssertEqual(w.minX, mm.minX + 0.25 * mm.width, accuracy: 1e-9)
    XCTAssertEqual(w.maxX, mm.minX + 0.75 * mm.width, accuracy: 1e-9)
    XCTAssertEqual(p.minimapLeft?.minX, w.minX)
    XCTAssertEqual(p.minimapRight?.maxX, w.maxX)
    let card = ChartParts.make(spec: ChartSpec(data: set), card: true, frame: Rect(0, 0, 432, 400), measurer: measurer)
    XCTAssertNil(card.minimap)
    XCTAssertTrue(card.legend.isEmpty)
  }
}
