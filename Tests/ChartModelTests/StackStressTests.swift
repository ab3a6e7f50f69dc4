import ChartModel
import XCTest

/// Stacks on data that is not the contest's (issue 21, items 7 and 8): negative values stack
/// below 0 (diverging), gaps break areas and percentages and leave a bar's segment out.
final class StackStressTests: XCTestCase {
  func line(_ id: String, _ values: [Double]) -> Line { Line(id: id, name: id.uppercased(), color: .black, kind: .bar, values: values) }

  /// Four lines at three times: a sign change in b and a gap in c at the last time.
  var set: ChartSet {
    ChartSet(name: "s", xs: [0, 86_400_000, 172_800_000],
             lines: [line("a", [5, 5, 5]), line("b", [-3, 2, -3]), line("c", [2, 2, .nan]), line("d", [-1, -1, -1])],
             flags: SetFlags(stacked: true))
  }
  let ones = [1.0, 1, 1, 1]

  func testNegativesStackDownFromZero() {
    let b = Stacking.bounds(set.lines, weights: ones, at: 0, percentage: false, breakOnGap: true)
    XCTAssertEqual(b.map(\.lo), [0, -3, 5, -4])
    XCTAssertEqual(b.map(\.hi), [5, 0, 7, -3])
    // The axis holds both sides: the lowest negative sum and the highest positive one.
    let r = set.axisRange(ChartStyle.resolve(set), in: TimeWindow(0, 1))
    XCTAssertEqual(r?.min, -4)
    XCTAssertEqual(r?.max, 9)
    // A hidden line adds nothing on either side.
    let half = Stacking.bounds(set.lines, weights: [1, 0.5, 1, 1], at: 0, percentage: false, breakOnGap: true)
    XCTAssertEqual(half[1].lo, -1.5)
    XCTAssertEqual(half[3].lo, -2.5)
  }

  func testAGapBreaksAreasAndLeavesABarSegmentOut() {
    let area = Stacking.bounds(set.lines, weights: ones, at: 2, percentage: false, breakOnGap: true)
    XCTAssertTrue(area.allSatisfy { $0.lo.isNaN && $0.hi.isNaN }, "an area is not drawn across a gap")
    let bar = Stacking.bounds(set.lines, weights: ones, at: 2, percentage: false, breakOnGap: false)
    XCTAssertTrue(bar[2].lo.isNaN && bar[2].hi.isNaN, "the missing segment is left out")
    XCTAssertEqual(bar[0].hi, 5)
    XCTAssertEqual(bar[1].lo, -3)
    XCTAssertEqual(bar[3].lo, -4)
    // A hidden line's gap breaks nothing.
    let hidden = Stacking.bounds(set.lines, weights: [1, 1, 0, 1], at: 2, percentage: false, breakOnGap: true)
    XCTAssertEqual(hidden[0].hi, 5)
  }

  func testPercentagesMakeNoShareOfAPartialTotal() {
    let s = ChartSet(name: "p", xs: [0, 1000, 2000], lines: [line("a", [1, 3, 1]), line("b", [1, .nan, 3])],
                     flags: SetFlags(stacked: true, percentage: true))
    XCTAssertNil(Stacking.sharesOrNil(s.lines, weights: [1, 1], at: 1))
    XCTAssertEqual(Stacking.sharesOrNil(s.lines, weights: [1, 1], at: 2), [25, 75])
    XCTAssertEqual(Stacking.sharesOrNil(s.lines, weights: [1, 0], at: 1), [100, 0], "a hidden line's gap is no gap")
    let pct = Stacking.bounds(s.lines, weights: [1, 1], at: 1, percentage: true, breakOnGap: false)
    XCTAssertTrue(pct.allSatisfy { $0.hi.isNaN }, "not a jump to 100 %")
    // The share range skips the gap: 50 % and 25–75 %, never 100 %.
    let r = s.shareRange(in: TimeWindow(0, 1))
    XCTAssertEqual(r?.min, 25)
    XCTAssertEqual(r?.max, 75)
  }

  func testFirstNegativeNamesLineAndPoint() {
    let n = Stacking.firstNegative(set.lines)
    XCTAssertEqual(n?.line.id, "b")
    XCTAssertEqual(n?.index, 0)
    XCTAssertNil(Stacking.firstNegative([line("a", [1, .nan, 0])]))
  }
}
