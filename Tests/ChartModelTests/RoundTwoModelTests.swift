import ChartModel
import Foundation
import XCTest

/// The round-two charts' numbers on the contest's real files: styles from the data, stacked
/// sums, percentages and the axis range of each type, against values computed here.
final class RoundTwoModelTests: XCTestCase {
  func overview(_ n: Int) throws -> ChartSet { try Fixtures.sets("round2/\(n)/overview.json")[0] }

  /// Column k of the raw file, parsed here independently of the decoder.
  func rawColumns(_ n: Int) throws -> [String: [Double]] {
    let data = Data(try Fixtures.bytes("round2/\(n)/overview.json"))
    let obj = try XCTUnwrap(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    var out: [String: [Double]] = [:]
    for col in try XCTUnwrap(obj["columns"] as? [[Any]]) {
      out[col[0] as! String] = col.dropFirst().map { ($0 as! NSNumber).doubleValue }
    }
    return out
  }

  func testStylesComeFromTheData() throws {
    let styles = try (1...5).map { ChartStyle.resolve(try overview($0)) }
    XCTAssertEqual(styles[0], ChartStyle(type: .line))
    XCTAssertEqual(styles[1], ChartStyle(type: .line, yScaled: true))
    XCTAssertEqual(styles[2], ChartStyle(type: .bar, stacked: true))
    XCTAssertEqual(styles[3], ChartStyle(type: .bar))
    XCTAssertEqual(styles[4], ChartStyle(type: .area, stacked: true, percentage: true))
    XCTAssertTrue(styles[0].isPlainLines(try overview(1)))
    XCTAssertFalse(styles[3].isPlainLines(try overview(4)))
  }

  func testOverridesWin() throws {
    let s3 = try overview(3)
    XCTAssertEqual(ChartStyle.resolve(s3, .init(type: .area)), ChartStyle(type: .area, typeForced: true, stacked: true))
    XCTAssertEqual(ChartStyle.resolve(s3, .init(stacked: false)).stacked, false)
    // Percentage implies stacking; two axes need two lines and no stacking.
    XCTAssertTrue(ChartStyle.resolve(try overview(1), .init(percentage: true)).stacked)
    XCTAssertFalse(ChartStyle.resolve(try overview(4), .init(yScaled: true)).yScaled)
    XCTAssertFalse(ChartStyle.resolve(s3, .init(yScaled: true)).yScaled)
    XCTAssertEqual(ChartStyle.resolve(try overview(5), .init(stacked: false, percentage: false)).stacked, false)
  }

  func testStackedSumsMatchTheRawColumns() throws {
    let set = try overview(3)
    let raw = try rawColumns(3)
    let ids = set.lines.map(\.id)
    XCTAssertEqual(ids.count, 7)
    let ones = [Double](repeating: 1, count: 7)
    for i in [0, 100, 200, 364] {
      let tops = Stacking.tops(set.lines, weights: ones, at: i, percentage: false)
      var running = 0.0
      for (k, id) in ids.enumerated() {
        running += raw[id]![i]
        XCTAssertEqual(tops[k], running, "top of \(id) at \(i)")
      }
      XCTAssertEqual(Stacking.total(set.lines, weights: ones, at: i), running)
    }
    // A hidden line (weight 0) adds nothing; half faded adds half.
    var w = ones; w[0] = 0
    XCTAssertEqual(Stacking.total(set.lines, weights: w, at: 5), ids.dropFirst().map { raw[$0]![5] }.reduce(0, +))
    w[0] = 0.5
    XCTAssertEqual(Stacking.total(set.lines, weights: w, at: 5), ids.dropFirst().map { raw[$0]![5] }.reduce(0, +) + raw[ids[0]]![5] / 2, accuracy: 1e-9)
  }

  func testPercentagesMatchTheRawColumns() throws {
    let set = try overview(5)
    let raw = try rawColumns(5)
    let ids = set.lines.map(\.id)
    let ones = [Double](repeating: 1, count: ids.count)
    for i in [0, 180, 364] {
      let total = ids.map { raw[$0]![i] }.reduce(0, +)
      let shares = Stacking.shares(set.lines, weights: ones, at: i)
      for (k, id) in ids.enumerated() { XCTAssertEqual(shares[k], raw[id]![i] / total * 100, accuracy: 1e-9) }
      XCTAssertEqual(shares.reduce(0, +), 100, accuracy: 1e-9)
      let tops = Stacking.tops(set.lines, weights: ones, at: i, percentage: true)
      XCTAssertEqual(tops.last!, 100, accuracy: 1e-9)
      XCTAssertEqual(tops[1], (raw[ids[0]]![i] + raw[ids[1]]![i]) / total * 100, accuracy: 1e-9)
    }
    // Hiding a line shares 100 % among the others.
    var w = ones; w[0] = 0
    let rest = ids.dropFirst().map { raw[$0]![7] }.reduce(0, +)
    XCTAssertEqual(Stacking.shares(set.lines, weights: w, at: 7)[1], raw[ids[1]]![7] / rest * 100, accuracy: 1e-9)
    XCTAssertEqual(Stacking.shares(set.lines, weights: w, at: 7)[0], 0)
  }

  func testAxisRangesPerType() throws {
    let w = TimeWindow(0.5, 0.75)
    // Lines: what is drawn (not from zero).
    let s1 = try overview(1)
    XCTAssertEqual(s1.axisRange(ChartStyle.resolve(s1), in: w), s1.drawnRange(in: w))
    XCTAssertGreaterThan(s1.axisRange(ChartStyle.resolve(s1), in: w)!.min, 0)

    // Stacked bars: 0 to the largest sum over the columns in the window.
    let s3 = try overview(3)
    let raw3 = try rawColumns(3)
    let idx = s3.columnIndices(in: w)
    let sums = idx.map { i in s3.lines.map { raw3[$0.id]![i] }.reduce(0, +) }
    XCTAssertEqual(s3.axisRange(ChartStyle.resolve(s3), in: w), ValueRange(0, sums.max()!))
    // Hiding a line lowers the top to the others' sums.
    let hidden: Set<String> = [s3.lines[0].id]
    let sumsWithout = idx.map { i in s3.lines.dropFirst().map { raw3[$0.id]![i] }.reduce(0, +) }
    XCTAssertEqual(s3.axisRange(ChartStyle.resolve(s3), in: w, hidden: hidden), ValueRange(0, sumsWithout.max()!))
    XCTAssertNil(s3.axisRange(ChartStyle.resolve(s3), in: w, hidden: Set(s3.lines.map(\.id))))

    // One bar series: from 0 to its largest value in the window.
    let s4 = try overview(4)
    let raw4 = try rawColumns(4)
    let r4 = try XCTUnwrap(s4.axisRange(ChartStyle.resolve(s4), in: w))
    XCTAssertEqual(r4.min, 0)
    XCTAssertGreaterThanOrEqual(r4.max, s4.columnIndices(in: w).map { raw4["y0"]![$0] }.max()!)

    // Percentage: always 0–100.
    let s5 = try overview(5)
    XCTAssertEqual(s5.axisRange(ChartStyle.resolve(s5), in: w), ValueRange(0, 100))

    // Two axes: the left holds the first line only, the right the second.
    let s2 = try overview(2)
    let st2 = ChartStyle.resolve(s2)
    let left = try XCTUnwrap(s2.axisRange(st2, in: w))
    let right = try XCTUnwrap(s2.rightAxisRange(st2, in: w))
    let i2 = s2.indices(in: w)
    let raw2 = try rawColumns(2)
    XCTAssertLessThanOrEqual(left.min, i2.map { raw2["y0"]![$0] }.min()!)
    XCTAssertGreaterThanOrEqual(left.max, i2.map { raw2["y0"]![$0] }.max()!)
    XCTAssertEqual(right.max, max(i2.map { raw2["y1"]![$0] }.max()!, right.max))
    XCTAssertLessThan(right.max, left.min, "the two lines are orders of magnitude apart")
    // The left axis stays while its line is hidden (it fades); the right one is gone when its line is.
    XCTAssertEqual(s2.axisRange(st2, in: w, hidden: ["y0"]), left)
    XCTAssertNil(s2.rightAxisRange(st2, in: w, hidden: ["y1"]))
  }

  func testYScalesPerType() throws {
    let s3 = try overview(3)
    let scale = YScale.nice(for: s3.axisRange(ChartStyle.resolve(s3), in: .all)!)
    XCTAssertEqual(scale.lo, 0)
    let s5 = try overview(5)
    let p = YScale.nice(for: s5.axisRange(ChartStyle.resolve(s5))!)
    XCTAssertEqual([p.lo, p.hi], [0, 100])
  }
}
