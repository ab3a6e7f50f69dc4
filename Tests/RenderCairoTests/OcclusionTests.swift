import ChartSceneHost
import Drawing
import Foundation
import RenderCairo
import XCTest

/// A raster leaves out what opaque rectangles drawn later cover (`Occlusion`): the cards
/// behind the top one, the parts of shadows and fills under a card. The pixels are the same
/// bytes as with every item drawn, in every example at several times, sizes and scales.
final class OcclusionTests: XCTestCase {
  static let repo = URL(fileURLWithPath: "\(#filePath)").deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

  func testLeavingOutCoveredItemsChangesNoPixel() throws {
    let examples = try FileManager.default.contentsOfDirectory(atPath: Self.repo.appendingPathComponent("examples").path)
      .filter { $0.hasSuffix(".lua") }.sorted()
    XCTAssertGreaterThan(examples.count, 20)
    var culled = 0, compared = 0
    for name in examples {
      let path = Self.repo.appendingPathComponent("examples/" + name).path
      for (size, scale) in [(nil, 1.0), ("320x240", 1.5)] as [(String?, Double)] {
        var overrides = Session.Overrides()
        if size != nil { (overrides.width, overrides.height) = (320, 240) }
        let session = try Session(scriptPath: path, overrides: overrides, quiet: true)
        let duration = session.scene.duration
        for t in Array(Set([0, duration * 0.3, duration * 0.55, duration * 0.8])).sorted() {
          let list = try session.displayList(at: t)
          if Occlusion.visibility(list.items, scale: scale) != nil { culled += 1 }
          let painter = CairoPainter(text: session.text)
          let fast = try painter.raster(list, scale: scale)
          painter.occludes = false
          let full = try painter.raster(list, scale: scale)
          XCTAssertTrue(fast.pixels == full.pixels, "\(name) \(size ?? "own size") ×\(scale) at \(t) s: the pixels differ")
          compared += 1
        }
      }
    }
    // The card stacks (cards, tabs, five...) have covered items in most frames.
    XCTAssertGreaterThan(culled, 10, "of \(compared) frames")
  }

  /// A cover under a turn, inside a group with opacity, or inside a clip that is not a
  /// rectangle hides nothing; a rectangle fill under a later opaque card gets a hole.
  func testWhatCountsAsACover() {
    let card = Path.rect(Rect(10, 10, 200, 200), radius: 12)
    let line = DisplayItem.path(.line(Point(40, 100), Point(180, 120)), .stroke(Color(r: 1, g: 0, b: 0, a: 1), width: 2))
    let opaque = DisplayItem.path(card, .fill(Color(r: 1, g: 1, b: 1, a: 1)))
    let behind = DisplayItem.path(.rect(Rect(0, 0, 220, 240), radius: 8), .fill(Color(r: 0, g: 0, b: 1, a: 0.5)))
    XCTAssertEqual(Occlusion.visibility([behind, line, opaque], scale: 1)?[1], .hidden)
    guard case .outside(let hole) = Occlusion.visibility([behind, line, opaque], scale: 2)?[0] else { return XCTFail("no hole") }
    XCTAssertTrue(Rect(10, 10, 200, 200).contains(hole) && hole.width > 190, "\(hole)")
    XCTAssertNil(Occlusion.visibility([line, .pushGroup(opacity: 0.5), opaque, .popGroup], scale: 1))
    XCTAssertNil(Occlusion.visibility([line, .pushTransform(Affine(a: 0.9, b: 0.1, c: -0.1, d: 0.9, tx: 0, ty: 0)), opaque, .popTransform], scale: 1))
    XCTAssertNil(Occlusion.visibility([line, .pushClip(.circle(Point(100, 100), 90)), opaque, .popClip], scale: 1))
    XCTAssertNil(Occlusion.visibility([line, .path(card, .fill(Color(r: 1, g: 1, b: 1, a: 0.99)))], scale: 1))
    // Partly outside: drawn.
    let long = DisplayItem.path(.line(Point(40, 100), Point(300, 120)), .stroke(Color(r: 1, g: 0, b: 0, a: 1), width: 2))
    XCTAssertNil(Occlusion.visibility([long, opaque, line], scale: 1))
  }
}
