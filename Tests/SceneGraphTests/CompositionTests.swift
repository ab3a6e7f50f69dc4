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
    try Layout(measurer: measurer).layout(scene)
    return scene
  }

  func inspect(_ scene: Scene) -> String { Inspector(measurer: measurer).inspect(scene, time: 0).render() }

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

}
