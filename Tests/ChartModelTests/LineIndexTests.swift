import ChartModel
import Drawing
import Foundation
import XCTest

/// Attack round, item 6: a set's lines were found by id with a linear search, once per line
/// per frame (`pyramid(for:)` in `valueRange`): 20,000 lines cost 4e8 string comparisons a
/// frame. The set keeps an index by id and by name.
final class LineIndexTests: XCTestCase {
  func testLinesAreFoundByIdInConstantTime() {
    let n = 20_000
    let xs = (0..<8).map { Double($0) * 1000 }
    let lines = (0..<n).map { k in Line(id: "y\(k)", name: "line \(k)", color: Palette.color(k), values: xs.map { $0 / 1000 + Double(k) }) }
    let set = ChartSet(name: "wide", xs: xs, lines: lines)
    let start = Date()
    // What a frame asks: the range of every line, and each line by id and by name.
    XCTAssertEqual(set.valueRange(of: set.lines, in: 0..<8), ValueRange(0, Double(n - 1) + 7))
    for k in stride(from: 0, to: n, by: 1) {
      XCTAssertEqual(set.index(ofLine: "y\(k)"), k)
    }
    XCTAssertEqual(set.line(id: "y19999")?.name, "line 19999")
    XCTAssertEqual(set.lineID(for: "line 42"), "y42")
    XCTAssertEqual(set.lineID(for: "y7"), "y7")
    XCTAssertNil(set.line(id: "nope"))
    XCTAssertNil(set.lineID(for: "nope"))
    XCTAssertLessThan(Date().timeIntervalSince(start), 5)
  }

  /// The first of two lines with one id (or name) is the one found, as before.
  func testTheFirstOfRepeatedIdsIsFound() {
    let a = Line(id: "a", name: "n", color: Palette.color(0), values: [1, 2])
    let b = Line(id: "a", name: "m", color: Palette.color(1), values: [3, 4])
    let c = Line(id: "c", name: "n", color: Palette.color(2), values: [5, 6])
    let set = ChartSet(name: "s", xs: [0, 1], lines: [a, b, c])
    XCTAssertEqual(set.line(id: "a")?.values, [1, 2])
    XCTAssertEqual(set.lineID(for: "n"), "a")
    XCTAssertEqual(set.lineID(for: "m"), "a")
  }
}
