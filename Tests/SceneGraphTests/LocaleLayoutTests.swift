import ChartModel
import Drawing
import SceneGraph
import XCTest

/// A scene's format (locale and time zone) reaches every chart and their posters and labels.
final class LocaleLayoutTests: XCTestCase {
  static let locales: String = {
    var parts = "\(#filePath)".split(separator: "/").map(String.init)
    parts.removeLast(3)
    return "/" + parts.joined(separator: "/") + "/assets/locales"
  }()

  func testPosterAndLabelsInTheScenesLocale() throws {
    let set = sampleSet()
    set.setRange(0.5, 1)
    var spec = ChartSpec(data: set)
    spec.indicatorAt = 0.5
    let root = Node(id: "c", kind: .chart(spec))
    let scene = Scene(width: 400, height: 500, theme: .day, root: root)
    try scene.assignIDs()
    scene.format = try DisplayFormat.resolve(locale: "ru", timezone: nil, localesDirectory: Self.locales)
    guard case .chart(let s) = root.kind else { return XCTFail() }
    XCTAssertEqual(s.format.locale.id, "ru")
    let i = set.nearestIndex(toTime: set.time(atFraction: 0.75))
    guard let p = ChartPoster.make(spec: s, style: s.style, index: i, x: 200, linesRect: Rect(0, 0, 400, 400), plot: Rect(0, 0, 400, 400), alpha: [:],
                                   yOf: { $0 }, measurer: FixedWidthTextMeasurer()) else { return XCTFail("no poster") }
    XCTAssertEqual(p.date, s.format.poster(set.xs[i], precision: .day))
    XCTAssertTrue(p.date.hasSuffix("2019\u{202f}г."), p.date)
    try Layout(measurer: FixedWidthTextMeasurer()).layout(scene)
    let json = Inspector(measurer: FixedWidthTextMeasurer()).inspect(scene, time: 0).render()
    XCTAssertTrue(json.contains("\"locale\": \"ru\""), json)
    XCTAssertTrue(json.contains("февр.") || json.contains("март") || json.contains("мар."), json)
    // English and UTC: the document has no locale fields (as before).
    scene.format = .standard
    XCTAssertFalse(Inspector(measurer: FixedWidthTextMeasurer()).inspect(scene, time: 0).render().contains("\"locale\""))
  }
}
