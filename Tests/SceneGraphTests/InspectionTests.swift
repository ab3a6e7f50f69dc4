import ChartModel
import Drawing
import Render
import SceneGraph
import XCTest

final class InspectionTests: XCTestCase {
  func testChartNodeReportsContractFields() throws {
    let set = sampleSet()
    set.setRange(0.5, 1)
    set.setHidden("y1", true)
    var spec = ChartSpec(data: set)
    spec.indicatorAt = 0.8
    let root = Node(id: "c", kind: .chart(spec))
    let scene = Scene(width: 400, height: 500, theme: .night, root: root)
    try scene.assignIDs()
    try Layout(measurer: FixedWidthTextMeasurer()).layout(scene)
    let json = Inspector(measurer: FixedWidthTextMeasurer()).inspect(scene, time: 0).render()
    XCTAssertTrue(json.contains("\"time\": 0.0"))
    XCTAssertTrue(json.contains("\"size\": [400, 500]"))
    XCTAssertTrue(json.contains("\"id\": \"c\""))
    XCTAssertTrue(json.contains("\"kind\": \"chart\""))
    XCTAssertTrue(json.contains("\"frame\": [0, 0, 400, 500]"))
    XCTAssertTrue(json.contains("\"range\": [0.5, 1.0]"))
    XCTAssertTrue(json.contains("\"hidden\": [\"y1\"]"))
    let dr = try XCTUnwrap(set.dataRange())
    XCTAssertTrue(json.contains("\"dataRange\": [\(dr.min), \(dr.max)]"), json)
    let i = set.nearestIndex(toTime: set.time(atFraction: 0.8))
    XCTAssertTrue(json.contains("\"index\": \(i)"))
    for part in ["\"plot\"", "\"minimap\"", "\"minimap.window\"", "\"minimap.left\"", "\"minimap.right\"", "\"legend.y0\"", "\"legend.y1\""] {
      XCTAssertTrue(json.contains(part), "missing \(part)")
    }
    XCTAssertTrue(json.contains("\"children\": []"))
    // The y-range drawn contains the data range.
    let scale = YScale.nice(for: dr)
    XCTAssertTrue(json.contains("\"yRange\": [\(scale.lo), \(scale.hi)]"), json)
  }

  func testIndicatorOutsideWindowIsNull() throws {
    let set = sampleSet()
    set.setRange(0, 0.5)
    var spec = ChartSpec(data: set)
    spec.indicatorAt = 0.9
    let scene = Scene(width: 300, height: 300, theme: .day, root: Node(id: "c", kind: .chart(spec)))
    try Layout(measurer: FixedWidthTextMeasurer()).layout(scene)
    XCTAssertTrue(Inspector(measurer: FixedWidthTextMeasurer()).inspect(scene, time: 0).render().contains("\"indicator\": null"))
  }

  func testJSONEscaping() {
    let j = OrderedJSON.object([("s", .string("a\"b\\c\n\u{1}")), ("n", .number(.nan)), ("p", .pixels(12.345))]).render(pretty: false)
    XCTAssertEqual(j, "{\"s\":\"a\\\"b\\\\c\\n\\u0001\",\"n\":null,\"p\":12.35}")
  }
}

final class DisplayListTests: XCTestCase {
  func build(_ spec: ChartSpec, _ theme: Theme = .day, card: Bool = false) throws -> DisplayList {
    let scene = Scene(width: 500, height: 400, theme: theme, root: Node(id: "c", kind: card ? .card(spec) : .chart(spec)))
    try Layout(measurer: FixedWidthTextMeasurer()).layout(scene)
    return try DisplayListBuilder(measurer: FixedWidthTextMeasurer()).build(scene, time: 0)
  }

  func texts(_ l: DisplayList) -> [String] { l.items.compactMap { if case .text(let r) = $0 { return r.text }; return nil } }

  func testChartDrawsEveryPart() throws {
    let set = sampleSet()
    set.setRange(0.5, 1)
    var spec = ChartSpec(data: set)
    spec.title = "My chart"
    spec.indicatorAt = 0.75
    let list = try build(spec)
    let t = texts(list)
    XCTAssertEqual(t.first, "My chart")
    XCTAssertTrue(t.contains("Line 0") && t.contains("Line 1"))  // chips and poster names
    XCTAssertTrue(t.contains(DateText.poster(set.xs[set.nearestIndex(toTime: set.time(atFraction: 0.75))])))
    let scale = YScale.nice(for: try XCTUnwrap(set.dataRange()))
    for v in scale.ticks { XCTAssertTrue(t.contains(CompactNumber.format(v, step: scale.step)), "no label for \(v)") }
    // Pushes and pops balance.
    var depth = 0
    for item in list.items {
      switch item {
      case .pushClip, .pushTransform, .pushGroup: depth += 1
      case .popClip, .popTransform, .popGroup: depth -= 1; XCTAssertGreaterThanOrEqual(depth, 0, RecordingPainter().dump(list))
      default: break
      }
    }
    XCTAssertEqual(depth, 0)
  }

  func testHiddenLinesAreNotDrawnAndDegenerateDataIsSafe() throws {
    let set = sampleSet()
    set.setHidden("y0", true)
    let list = try build(ChartSpec(data: set))
    let colors = list.items.compactMap { item -> Color? in
      if case .path(_, .stroke(let c, let w, _, _, _)) = item, w == 2 { return c }
      return nil
    }
    XCTAssertFalse(colors.contains(Palette.color(0)))
    XCTAssertTrue(colors.contains(Palette.color(1)))
    // One point, all-equal, negative and gap values all build without trouble.
    let flat = ChartSet(name: "flat", xs: [0], lines: [Line(id: "a", name: "a", color: .black, values: [5])])
    _ = try build(ChartSpec(data: flat))
    let neg = ChartSet(name: "neg", xs: [0, 1, 2, 3], lines: [Line(id: "a", name: "a", color: .black, values: [-5, .nan, -7, 3])])
    _ = try build(ChartSpec(data: neg))
    let allHidden = sampleSet()
    allHidden.setHidden("y0", true); allHidden.setHidden("y1", true)
    _ = try build(ChartSpec(data: allHidden), .night)
    _ = try build(ChartSpec(data: sampleSet()), card: true)
  }

  func testRecordingPainterIsStable() throws {
    let set = sampleSet(points: 10, lines: 1)
    let dump = RecordingPainter().dump(try build(ChartSpec(data: set)))
    XCTAssertTrue(dump.hasPrefix("size 500x400 background #FFFFFF\n"))
    XCTAssertEqual(dump, RecordingPainter().dump(try build(ChartSpec(data: set))))
  }
}

extension DisplayListTests {
  /// Issue 21, item 4: the drawn poster of yearly data says the year, of quarterly data the
  /// quarter; daily data keeps its weekday.
  func testPosterDateHasTheDataPrecision() throws {
    func poster(_ xs: [Double]) throws -> [String] {
      let set = ChartSet(name: "s", xs: xs, lines: [Line(id: "y0", name: "v", color: Color(r: 0, g: 0, b: 0), values: xs.indices.map(Double.init))])
      var spec = ChartSpec(data: set)
      spec.indicatorAt = 0.5
      return self.texts(try self.build(spec))
    }
    func ms(_ y: Int, _ m: Int = 1, _ d: Int = 1) -> Double { Double(ISODate.days(year: y, month: m, day: d)) * 86_400_000 }
    XCTAssertTrue(try poster((1850...1858).map { ms($0) }).contains("1854"))
    XCTAssertTrue(try poster((0..<9).map { ms(2002 + $0 / 4, $0 % 4 * 3 + 1) }).contains("Q1 2003"))
    XCTAssertTrue(try poster((1...9).map { ms(2004, $0) }).contains("May 2004"))
    XCTAssertTrue(try poster((1...9).map { ms(2019, 2, $0) }).contains("Tue, Feb 5 2019"))
  }
}
