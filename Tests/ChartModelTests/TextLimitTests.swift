import ChartModel
import Drawing
import XCTest

final class TextLimitTests: XCTestCase {
  func testClippedCutsAtACharacterBoundary() {
    XCTAssertEqual(TextLimits.clipped("short"), "short")
    let long = String(repeating: "é", count: TextLimits.maxBytes)  // 2 bytes each
    let c = TextLimits.clipped(long)
    XCTAssertEqual(c.utf8.count, TextLimits.maxBytes)
    XCTAssertEqual(c, String(repeating: "é", count: TextLimits.maxBytes / 2))
    let odd = "a" + long
    XCTAssertEqual(TextLimits.clipped(odd).utf8.count, TextLimits.maxBytes - 1)
  }

  func testASetIsChargedWhatItHoldsAndLongNamesAreRefused() throws {
    let xs = (0..<1000).map { Double($0) * 1000 }
    let lines = (0..<3).map { Line(id: "y\($0)", name: "Line \($0)", color: Color(hex: "#3366cc")!, values: xs) }
    let set = ChartSet(name: "s", xs: xs, lines: lines)
    XCTAssertGreaterThanOrEqual(set.footprint, 4 * 1000 * 8)
    // The pyramids: about a byte a value.
    XCTAssertGreaterThanOrEqual(set.footprint, 4 * 1000 * 8 + 3 * 900)
    XCTAssertLessThan(set.footprint, 4 * 1000 * 8 + 3 * 1200 + 4096)
    XCTAssertNoThrow(try set.checkTextLengths(file: "f.json"))
    let long = ChartSet(name: "s", xs: xs, lines: [Line(id: "y0", name: String(repeating: "n", count: 10_001), color: .black, values: xs)])
    XCTAssertThrowsError(try long.checkTextLengths(file: "f.json")) { e in
      XCTAssertEqual("\(e)", "f.json: the name of line 'y0' is 10001 bytes long (at most 10000)")
    }
  }
}
