import ChartModel
import Drawing
import Render
import SceneGraph
import XCTest

final class CompositionTests: XCTestCase {
  let measurer = FixedWidthTextMeasurer()

  func cards(_ n: Int, card: Bool = true) -> [Node] {
    (0..<n).map { Node(id: "c\($0)", kind: card ? .card(ChartSpec(data: sampleSet())) : .chart(ChartSpec(data: sampleSet()))) }
  }

  func laidOut(_ root: Node, _ w: Double = 600, _ h: Double = 800) throws -> Scene {
    let scene = Scene(width: w, height: h, theme: .day, root: root)
    try scene.assignIDs()
    Layout(measurer: measurer).layout(scene)
    return scene
  }

  func inspect(_ scene: Scene) -> String { Inspector(measurer: measurer).inspect(scene, time: 0).render() }

  func testListStacksRowsScrollsAndClamps() throws {
    var spec = ListSpec()
    spec.rowHeight = 300
    spec.spacing = 10
    spec.scroll = 250
    let list = Node(id: "l", kind: .list(spec), children: cards(4, card: false))
    let scene = try laidOut(list)
    XCTAssertEqual(list.children.map(\.frame.y), [-250, 60, 370, 680])
    XCTAssertEqual(list.children.map(\.placement.visible), [true, true, true, true])
    XCTAssertTrue(inspect(scene).contains("\"scroll\": 250.0"))
    // Content is 4 * 300 + 30 = 1230 high: the scroll stops at 1230 - 800.
    spec.scroll = 5000
    list.kind = .list(spec)
    Layout(measurer: measurer).layout(scene)
    XCTAssertTrue(inspect(scene).contains("\"scroll\": 430.0"))
    XCTAssertFalse(list.children[0].placement.visible)
    spec.scroll = -20
    list.kind = .list(spec)
    Layout(measurer: measurer).layout(scene)
    XCTAssertEqual(list.children[0].frame.y, 0)
  }

  func testCarouselTurnsFadesAndShrinksByDistance() throws {
    var spec = CarouselSpec()
    spec.itemWidth = 300
    spec.spacing = 20
    spec.angle = 30
    spec.scroll = 320  // the second item in the centre
    let c = Node(id: "k", kind: .carousel(spec), children: cards(4))
    let scene = try laidOut(c, 1000, 500)
    let p = c.children.map(\.placement)
    XCTAssertEqual(c.children[1].frame.midX, 500)
    XCTAssertEqual(p[1].turn, 0)
    XCTAssertEqual(p[0].turn, 30, accuracy: 1e-9)
    XCTAssertEqual(p[2].turn, -30, accuracy: 1e-9)
    XCTAssertEqual(p[3].turn, -60, accuracy: 1e-9)
    XCTAssertGreaterThan(p[1].opacity, p[2].opacity)
    XCTAssertGreaterThan(p[2].scale, p[3].scale)
    let json = inspect(scene)
    XCTAssertTrue(json.contains("\"rotation3d\": -30.0"), json)
    XCTAssertTrue(json.contains("\"scroll\": 320.0"))
    // The turned items become 3D layers in the display list; the centre one does not.
    let list = try DisplayListBuilder(measurer: measurer).build(scene, time: 0)
    let layers = list.items.compactMap { if case .layer(let l) = $0 { return l.angle }; return nil }
    XCTAssertEqual(Set(layers), [30, -30, -60])
  }

  func testCardsOrderPlacementAndModal() throws {
    var spec = CardsSpec()
    spec.order = ["c2", "c0"]
    spec.modal = "c1"
    let deck = Node(id: "deck", kind: .cards(spec), children: cards(6))
    let scene = try laidOut(deck)
    XCTAssertEqual(Layout.cardsOrder(deck, spec).map(\.id), ["c2", "c0", "c1", "c3", "c4", "c5"])
    let front = deck.children[2], second = deck.children[0]
    XCTAssertEqual(front.placement.scale, 1)
    XCTAssertEqual(second.placement.scale, 1 - spec.scaleStep, accuracy: 1e-9)
    XCTAssertLessThan(second.placement.offset.y, 0)  // shifted up: it peeks out above
    XCTAssertEqual(front.frame, second.frame)
    XCTAssertFalse(deck.children[5].placement.visible)  // deeper than four: not drawn
    let json = inspect(scene)
    XCTAssertTrue(json.contains("\"order\": [\"c2\", \"c0\", \"c1\", \"c3\", \"c4\", \"c5\"]"), json)
    XCTAssertTrue(json.contains("\"modal\": \"c1\""))
    // The modal sheet is drawn last, over a dim of the whole scene, as a full chart.
    let list = try DisplayListBuilder(measurer: measurer).build(scene, time: 0)
    let dimIndex = try XCTUnwrap(list.items.lastIndex(of: .path(.rect(Rect(0, 0, 600, 800)), .fill(Theme.day.modalDim))))
    let afterDim = list.items[dimIndex...]
    XCTAssertTrue(afterDim.contains { if case .text(let r) = $0 { return r.text == "y0" || r.text == "Line 0" }; return false }, "no check marks in the modal")
  }

  func testTabsShowOnlyTheSelectedView() throws {
    var spec = TabsSpec(titles: ["A", "B"], icons: [.list, nil])
    spec.selected = 1
    let tabs = Node(id: "t", kind: .tabs(spec), children: cards(2, card: false))
    let scene = try laidOut(tabs)
    XCTAssertEqual(tabs.children.map(\.placement.visible), [false, true])
    XCTAssertEqual(tabs.children[1].frame.height, 800 - CompositionMetrics.tabBarHeight)
    XCTAssertTrue(inspect(scene).contains("\"selected\": 2"))
    let texts = try DisplayListBuilder(measurer: measurer).build(scene, time: 0).items.compactMap { item -> String? in
      if case .text(let r) = item { return r.text }
      return nil
    }
    XCTAssertTrue(texts.contains("A") && texts.contains("B"))
  }
}
