import XCTest

@testable import ChartModel

/// Data shaped the way pandas writes it (statsmodels' sunspots and macrodata, a quarterly
/// `PeriodIndex`, daily data with a day missing): issue 21, items 1–4. The files are written
/// here by hand, as `DataFrame.to_csv` writes them.
final class PandasShapesTests: XCTestCase {
  static let day = 86_400_000.0

  func decode(_ csv: String, _ options: TableOptions = TableOptions(), file: String = "d.csv") throws -> TableResult {
    try CSVDecoder.decodeTable(Array(csv.utf8), file: file, options: options)
  }

  func ms(_ y: Int, _ m: Int = 1, _ d: Int = 1) -> Double { Double(ISODate.days(year: y, month: m, day: d)) * Self.day }

  // MARK: 1. Years written as floats

  /// statsmodels' sunspots: `YEAR,SUNACTIVITY` with `1700.0`.
  func testFloatYearsAreReadAsYearsWithOneWarning() throws {
    let csv = "YEAR,SUNACTIVITY\n1700.0,5.0\n1701.0,11.0\n1702.0,16.0\n1703.0,23.0\n"
    let r = try decode(csv, file: "sunspots.csv")
    XCTAssertEqual(r.set.xs, [ms(1700), ms(1701), ms(1702), ms(1703)])
    XCTAssertEqual(r.set.lines.map(\.name), ["SUNACTIVITY"])
    XCTAssertEqual(r.notes, ["sunspots.csv: read column 'YEAR' (numbers like 1700.0) as years, a guess; pass timeFormat = \"%Y\" to say so, or x = the time column"])
    // timeFormat = "%Y" says so: the same times, no warning.
    var o = TableOptions()
    o.timeFormat = TimePattern("%Y")
    let forced = try decode(csv, o, file: "sunspots.csv")
    XCTAssertEqual(forced.set.xs, r.set.xs)
    XCTAssertEqual(forced.notes, [])
    // Not whole years: not years (and a date column, when there is one, wins).
    XCTAssertNotEqual(try decode("YEAR,v\n1700.5,1\n1701.0,2\n1702.0,3\n").set.xs.first, ms(1700))
    XCTAssertEqual(try decode("v,date\n1700.0,2000-01-01\n1701.0,2000-01-02\n").set.xs, [ms(2000), ms(2000, 1, 2)])
    // Four-digit integers are years without a warning, as before.
    XCTAssertEqual(try decode("year,v\n1999,1\n2000,2\n").notes, [])
  }

  /// Issue 39, item 1: the float-year column named as the time (`x = "YEAR"`, as the warning
  /// above advises) is read as years, as the guess reads it — not as UNIX seconds (1970).
  func testANamedFloatYearColumnIsReadAsTheGuessReadsIt() throws {
    let csv = "YEAR,SUNACTIVITY\n1749.0,58.0\n1750.0,62.6\n1751.0,70.0\n1752.0,55.7\n"
    let guessed = try decode(csv, file: "sunspots.csv")
    var o = TableOptions()
    o.x = .name("YEAR")
    let named = try decode(csv, o, file: "sunspots.csv")
    XCTAssertEqual(named.set.xs, [ms(1749), ms(1750), ms(1751), ms(1752)])
    XCTAssertEqual(named.set.xs, guessed.set.xs)
    XCTAssertEqual(named.set.lines.map(\.name), ["SUNACTIVITY"])
    XCTAssertEqual(named.set.precision, guessed.set.precision)
    XCTAssertEqual(DateText.poster(named.set.xs[1], precision: named.set.precision), DateText.poster(guessed.set.xs[1], precision: guessed.set.precision))
    XCTAssertTrue(DateText.poster(named.set.xs[1], precision: named.set.precision).contains("1750"))
    // Still a guess of the format: said once, without advising the x it was given.
    XCTAssertEqual(named.notes, ["sunspots.csv: read column 'YEAR' (numbers like 1749.0) as years, a guess; pass timeFormat = \"%Y\" to say so"])
    // By its number too; and large numbers named as the time stay UNIX seconds, as before.
    o.x = .index(1)
    XCTAssertEqual(try decode(csv, o).set.xs, guessed.set.xs)
    XCTAssertEqual(try decode("t,v\n1500000000,1\n1500086400,2\n", o).set.xs, [1_500_000_000_000, 1_500_086_400_000])
  }

  /// statsmodels' macrodata as `to_csv` writes it: an unnamed index, `year` and `quarter` as
  /// floats. The quarter is part of the time, not a line.
  func testYearAndQuarterColumnsAreOneTime() throws {
    let csv = ",year,quarter,realgdp,infl\n0,1959.0,1.0,2710.349,0.0\n1,1959.0,2.0,2778.801,2.34\n2,1959.0,3.0,2775.488,2.74\n3,1959.0,4.0,2785.204,0.27\n4,1960.0,1.0,2847.699,2.31\n"
    let r = try decode(csv, file: "macrodata.csv")
    XCTAssertEqual(r.set.xs, [ms(1959, 1), ms(1959, 4), ms(1959, 7), ms(1959, 10), ms(1960, 1)])
    XCTAssertEqual(r.set.lines.map(\.name), ["realgdp", "infl"])
    XCTAssertEqual(r.notes, [
      "macrodata.csv: read column 'year' and column 'quarter' together as quarters (1959.0 and 1.0 → Q1 1959), a guess; column 'quarter' is not drawn as a line (name it in columns to draw it)",
      "macrodata.csv: skipped the unnamed first column: it numbers the rows (an index, as pandas writes it); pass columns to draw it",
    ])
    XCTAssertEqual(r.set.precision, .quarter)
    XCTAssertEqual(DateText.poster(r.set.xs[2], precision: r.set.precision), "Q3 1959")
    // Integer years with months.
    let m = try decode("year,month,v\n2000,11,1\n2000,12,2\n2001,1,3\n")
    XCTAssertEqual(m.set.xs, [ms(2000, 11), ms(2000, 12), ms(2001, 1)])
    XCTAssertEqual(m.set.precision, .month)
  }

  // MARK: 2. Quarters

  func testQuarterTexts() throws {
    let want = [ms(1959, 1), ms(1959, 4), ms(1959, 7), ms(1959, 10)]
    for cells in [["1959Q1", "1959Q2", "1959Q3", "1959Q4"], ["1959-Q1", "1959-Q2", "1959-Q3", "1959-Q4"],
                  ["Q1 1959", "Q2 1959", "Q3 1959", "Q4 1959"], ["1959q1", "1959q2", "1959q3", "1959q4"]] {
      let csv = "quarter,realgdp\n" + cells.enumerated().map { "\($1),\(2700 + $0)" }.joined(separator: "\n") + "\n"
      let r = try decode(csv)
      XCTAssertEqual(r.set.xs, want, "\(cells)")
      XCTAssertEqual(r.notes, [])
    }
    XCTAssertThrowsError(try decode("quarter,v\n1959Q1,1\n1959Q5,2\n1959Q2,3\n", file: "q.csv")) {
      XCTAssertEqual(String(describing: $0), "q.csv: line 3: '1959Q5' in column 'quarter' is not a time like the rows before (quarters (1959Q1)); pass timeFormat, or fix the cell")
    }
    // %q in timeFormat.
    var o = TableOptions()
    o.timeFormat = TimePattern("%Y/q%q")
    XCTAssertEqual(try decode("period,v\n1959/q1,1\n1959/q3,2\n", o).set.xs, [ms(1959, 1), ms(1959, 7)])
    XCTAssertNil(TimePattern("%q")?.parse("5", 1))
  }

  // MARK: 3. Missing rows are gaps

  func testMissingDayIsAGap() throws {
    // Daily data with Jan 3 absent (no row at all).
    let csv = "date,visits\n2023-01-01,10\n2023-01-02,11\n2023-01-04,13\n2023-01-05,14\n2023-01-06,15\n"
    let r = try decode(csv)
    XCTAssertEqual(r.set.xs, [ms(2023, 1, 1), ms(2023, 1, 2), ms(2023, 1, 3), ms(2023, 1, 4), ms(2023, 1, 5), ms(2023, 1, 6)])
    XCTAssertEqual(r.set.lines[0].values.map { $0.isNaN ? nil : $0 }, [10, 11, nil, 13, 14, 15])
    // gaps = false: the line bridges it, as before.
    var o = TableOptions()
    o.gaps = false
    XCTAssertEqual(try decode(csv, o).set.xs, [ms(2023, 1, 1), ms(2023, 1, 2), ms(2023, 1, 4), ms(2023, 1, 5), ms(2023, 1, 6)])
    // Long data too: a day no series has.
    let long = try decode("date,symbol,v\n2023-01-01,A,1\n2023-01-01,B,2\n2023-01-02,A,3\n2023-01-02,B,4\n2023-01-04,A,5\n2023-01-04,B,6\n2023-01-05,A,7\n2023-01-05,B,8\n", {
      var o = TableOptions(); o.series = .name("symbol"); o.value = .name("v"); return o }())
    XCTAssertEqual(long.set.xs.count, 5)
    XCTAssertTrue(long.set.lines.allSatisfy { $0.values[2].isNaN })
  }

  func testMissingMonthAndQuarterAreGaps() throws {
    let months = try decode("month,sales\n2020-01,1\n2020-02,2\n2020-03,3\n2020-05,5\n2020-06,6\n2020-07,7\n")
    XCTAssertEqual(months.set.xs[3], ms(2020, 4))
    XCTAssertTrue(months.set.lines[0].values[3].isNaN)
    let quarters = try decode("q,v\n2000Q1,1\n2000Q2,2\n2000Q4,4\n2001Q1,5\n2001Q2,6\n")
    XCTAssertEqual(quarters.set.xs, [ms(2000, 1), ms(2000, 4), ms(2000, 7), ms(2000, 10), ms(2001, 1), ms(2001, 4)])
  }

  func testIrregularDataIsNotGapped() throws {
    // Weekdays only (a trading calendar): 2 of every 7 days are absent, not missing.
    var rows = ""
    var d = ms(2023, 1, 2)  // a Monday
    for k in 0..<20 {
      rows += "\(DateText.iso(d)),\(k)\n"
      d += Self.day * (k % 5 == 4 ? 3 : 1)
    }
    XCTAssertEqual(try decode("date,close\n" + rows).set.xs.count, 20)
    // Steps that are not multiples of the shortest.
    XCTAssertEqual(try decode("date,v\n2023-01-01,1\n2023-01-03,2\n2023-01-06,3\n2023-01-08,4\n").set.xs.count, 4)
    // Complete daily data is unchanged.
    XCTAssertEqual(TimeGaps.missing([0, Self.day, 2 * Self.day, 3 * Self.day]).count, 0)
  }

  // MARK: 4. The poster says what the data knows

  func testPrecisionAndPosterDates() {
    XCTAssertEqual(TimePrecision.of([ms(1853), ms(1854), ms(1855)]), .year)
    XCTAssertEqual(TimePrecision.of([ms(2004, 4), ms(2004, 7), ms(2004, 10)]), .quarter)
    XCTAssertEqual(TimePrecision.of([ms(2004, 8), ms(2004, 9), ms(2004, 10)]), .month)
    XCTAssertEqual(TimePrecision.of([ms(2019, 2, 21), ms(2019, 2, 28)]), .week)
    XCTAssertEqual(TimePrecision.of([ms(2019, 2, 27), ms(2019, 2, 28)]), .day)
    XCTAssertEqual(TimePrecision.of([ms(2019, 2, 28), ms(2019, 2, 28) + 3_600_000]), .time)
    XCTAssertEqual(TimePrecision.of([ms(2019, 1, 1)]), .day)  // one point says no more than its day
    XCTAssertEqual(DateText.poster(ms(1854), precision: .year), "1854")
    XCTAssertEqual(DateText.poster(ms(2004, 7), precision: .quarter), "Q3 2004")
    XCTAssertEqual(DateText.poster(ms(2004, 9), precision: .month), "Sep 2004")
    XCTAssertEqual(DateText.poster(ms(2019, 2, 28), precision: .week), "Feb 28 2019")
    XCTAssertEqual(DateText.poster(ms(2019, 2, 28), precision: .day), "Thu, Feb 28 2019")
    XCTAssertEqual(DateText.poster(ms(2019, 2, 28) + 14 * 3_600_000, precision: .time), "Thu, Feb 28 2019 14:00")
  }
}
