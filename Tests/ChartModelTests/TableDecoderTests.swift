import XCTest

@testable import ChartModel

/// The CSV and JSON-records corpus in Tests/Fixtures/csv/: every shape `cs.data.csv` and
/// `cs.data.json` read, with the lines and values they give, and every refused shape with its
/// exact error line. Each CSV file is read five ways — from memory, from the file in the
/// normal blocks, in 7-byte blocks (rows and quoted cells cut across blocks), and in two
/// halves on two cores (whole blocks, and 5-byte blocks) — and all must agree.
final class TableDecoderTests: XCTestCase {
  static let root: String = {
    var parts = "\(#filePath)".split(separator: "/").map(String.init)
    parts.removeLast(2)
    return "/" + parts.joined(separator: "/") + "/Fixtures/csv"
  }()

  static let day = 86_400_000.0
  static let y2000 = 946_684_800_000.0  // 2000-01-01

  func decode(_ name: String, _ options: TableOptions = TableOptions(), file: StaticString = #filePath, line: UInt = #line) throws -> TableResult {
    let path = Self.root + "/" + name
    let bytes = try FileReader.read(path)
    if name.hasSuffix(".json") { return try RecordsDecoder.decodeTable(bytes, file: name, options: options) }
    let memory = try CSVDecoder.decodeTable(bytes, file: name, options: options)
    for (block, split) in [(CSVDecoder.blockSize, CSVDecoder.splitBytes), (7, CSVDecoder.splitBytes), (CSVDecoder.blockSize, 1), (5, 1)] {
      let streamed = try CSVDecoder.read(path: path, shown: name, options: options, blockSize: block, splitBytes: split)
      XCTAssertEqual(streamed.set.xs, memory.set.xs, "\(name), blocks of \(block)", file: file, line: line)
      XCTAssertEqual(streamed.set.lines.map(\.name), memory.set.lines.map(\.name), file: file, line: line)
      XCTAssertEqual(streamed.set.lines.map { $0.values.map { $0.isNaN ? -999 : $0 } }, memory.set.lines.map { $0.values.map { $0.isNaN ? -999 : $0 } }, file: file, line: line)
      XCTAssertEqual(streamed.notes, memory.notes, file: file, line: line)
    }
    return memory
  }

  /// Names, times and values (NaN as nil) of a set.
  func check(_ name: String, _ options: TableOptions = TableOptions(), xs: [Double], lines: [String: [Double?]], order: [String]? = nil,
             notes: [String] = [], file: StaticString = #filePath, line: UInt = #line) {
    do {
      let r = try decode(name, options, file: file, line: line)
      XCTAssertEqual(r.set.xs, xs, name, file: file, line: line)
      if let order { XCTAssertEqual(r.set.lines.map(\.name), order, name, file: file, line: line) }
      XCTAssertEqual(Set(r.set.lines.map(\.name)), Set(lines.keys), name, file: file, line: line)
      for l in r.set.lines {
        XCTAssertEqual(l.values.map { $0.isNaN ? nil : $0 }, lines[l.name] ?? [], "\(name): line \(l.name)", file: file, line: line)
      }
      XCTAssertEqual(r.set.lines.map(\.id), r.set.lines.indices.map { "y\($0)" }, file: file, line: line)
      XCTAssertEqual(r.notes, notes, name, file: file, line: line)
    } catch {
      XCTFail("\(name): \(error)", file: file, line: line)
    }
  }

  func refused(_ name: String, _ message: String, file: StaticString = #filePath, line: UInt = #line) {
    refused(name, TableOptions(), message, file: file, line: line)
  }

  func refused(_ name: String, _ options: TableOptions, _ message: String, file: StaticString = #filePath, line: UInt = #line) {
    XCTAssertThrowsError(try decode(name, options), name, file: file, line: line) { e in
      XCTAssertEqual(String(describing: e), message, file: file, line: line)
    }
  }

  func options(_ body: (inout TableOptions) -> Void) -> TableOptions {
    var o = TableOptions()
    body(&o)
    return o
  }

  // MARK: - Time formats

  func testISODatesAndGaps() {
    check("iso_dates.csv", xs: [1546300800000, 1546300800000 + Self.day, 1546300800000 + 2 * Self.day],
          lines: ["Views": [10, nil, 30], "Shares": [1, 2, 3]], order: ["Views", "Shares"])
  }

  func testISODateTimesWithFractionsAndOffsets() {
    let h = 3_600_000.0
    check("iso_offsets.csv", xs: [Self.y2000 + 8 * h + 250, Self.y2000 + 9 * h, Self.y2000 + 10.5 * h, Self.y2000 + 11 * h, Self.y2000 + 13.5 * h],
          lines: ["v": [1, 2, 3, 4, 5]])
  }

  func testSlashYMDYearMonthAndYears() {
    check("ymd_slash.csv", xs: [Self.y2000 + Self.day, Self.y2000 + 2 * Self.day + 37_800_000, Self.y2000 + 3 * Self.day + 29_730_000],
          lines: ["v": [1, 2, 3]])
    check("year_month.csv", xs: [Self.y2000, 949363200000, 951868800000], lines: ["sales": [10, 11, 12]])
    // Integers 1000-2999 are years, not UNIX seconds.
    check("years.csv", xs: [915148800000, Self.y2000, 978307200000], lines: ["coal": [50, 48, 45], "wind": [1, 2, 4]], order: ["coal", "wind"])
  }

  func testMonthNames() {
    let d = Self.day
    check("month_names.csv", xs: [Self.y2000 + d, Self.y2000 + 2 * d, Self.y2000 + 3 * d, Self.y2000 + 4 * d, Self.y2000 + 5 * d, 968284800000],
          lines: ["v": [1, 2, 3, 4, 5, 6]])
  }

  func testDotsSemicolonsAndDecimalCommas() {
    check("semicolon_dots.csv", xs: [Self.y2000 + Self.day, Self.y2000 + 2 * Self.day, Self.y2000 + 3 * Self.day + 43_200_000],
          lines: ["Wert": [1.5, 2.25, -3]])
  }

  func testSlashDatesDecidedByTheColumn() {
    let jan2 = Self.y2000 + Self.day, jan13 = Self.y2000 + 12 * Self.day, dec31 = 978220800000.0
    check("slash_mdy.csv", xs: [jan2, jan13, dec31], lines: ["price": [1, 2, 3]])
    check("slash_dmy.csv", xs: [jan2, jan13, dec31], lines: ["price": [2, 1, 3]])
    // Days equal to months read the same either way.
    check("slash_same.csv", xs: [Self.y2000, 949449600000], lines: ["price": [1, 2]])
    refused("bad_ambiguous.csv", "bad_ambiguous.csv: the dates in column 'date' read both as MM/DD/YYYY and DD/MM/YYYY (no day is above 12: is '1/2/2000' Jan 2 or Feb 1?); pass timeFormat = \"%m/%d/%Y\" or \"%d/%m/%Y\"")
    refused("bad_mixed_slash.csv", "bad_mixed_slash.csv: column 'date' mixes MM/DD/YYYY and DD/MM/YYYY dates; pass timeFormat = \"%m/%d/%Y\" or \"%d/%m/%Y\"")
  }

  /// The deciding date comes after the rows sampled to plan the columns.
  func testSlashOrderDecidedPastTheSample() throws {
    var csv = "date,v\n"
    for k in 0..<2500 { csv += "\(k % 12 + 1)/\(k % 12 + 1)/\(2000 + k / 12),\(k)\n" }
    let same = try CSVDecoder.decode(Array(csv.utf8), file: "s.csv")
    XCTAssertEqual(same.count, 2500)
    let dmy = try CSVDecoder.decode(Array((csv + "25/12/2300,1\n").utf8), file: "s.csv")
    XCTAssertEqual(DateText.iso(dmy.lastMs), "2300-12-25")
    let mdy = try CSVDecoder.decode(Array((csv + "12/25/2300,1\n02/03/2301,2\n").utf8), file: "s.csv")
    XCTAssertEqual(DateText.iso(mdy.lastMs), "2301-02-03")
    XCTAssertThrowsError(try CSVDecoder.decode(Array((csv + "1/2/2400,1\n").utf8), file: "s.csv")) {
      XCTAssertEqual(String(describing: $0), "s.csv: the dates in column 'date' read both as MM/DD/YYYY and DD/MM/YYYY (no day is above 12: is '1/2/2400' Jan 2 or Feb 1?); pass timeFormat = \"%m/%d/%Y\" or \"%d/%m/%Y\"")
    }
    XCTAssertThrowsError(try CSVDecoder.decode(Array((csv + "25/12/2300,1\n12/25/2301,1\n").utf8), file: "s.csv")) {
      XCTAssertEqual(String(describing: $0), "s.csv: column 'date' mixes MM/DD/YYYY (line 2503) and DD/MM/YYYY (line 2502) dates; pass timeFormat = \"%m/%d/%Y\" or \"%d/%m/%Y\"")
    }
  }

  func testUnixSecondsAndMilliseconds() {
    check("unix_seconds.csv", xs: [Self.y2000, Self.y2000 + Self.day], lines: ["a": [1, 2]])
    check("unix_ms.csv", xs: [Self.y2000, Self.y2000 + 500], lines: ["a": [1, 2]])
    // No column reads as times: a first column of numbers is UNIX seconds (as before).
    check("first_column_numbers.csv", xs: [1000], lines: ["b": [2]])
  }

  func testTimeFormatPatterns() throws {
    check("custom_format.csv", options { $0.timeFormat = TimePattern("%d-%m-%Y %Hh%M") },
          xs: [Self.y2000 + Self.day + 37_800_000, Self.y2000 + 2 * Self.day + 42_300_000], lines: ["v": [1, 2]])
    func ms(_ pattern: String, _ text: String) -> Double? {
      let p = TimePattern(pattern)!
      return Array(text.utf8).withUnsafeBufferPointer { p.parse($0.baseAddress!, $0.count) }
    }
    XCTAssertEqual(ms("%b %e %Y", "Jan  2 2000"), Self.y2000 + Self.day)
    XCTAssertEqual(ms("%B %d, %Y", "February 29, 2000"), 951782400000)
    XCTAssertNil(ms("%B %d, %Y", "February 30, 2000"))
    XCTAssertEqual(ms("%d/%m/%y", "02/01/00"), Self.y2000 + Self.day)
    XCTAssertEqual(ms("%d/%m/%y", "02/01/99"), 915235200000)
    XCTAssertEqual(ms("%Y-%m-%dT%H:%M:%S.%f%z", "2000-01-01T10:00:00.5+0200"), Self.y2000 + 8 * 3_600_000 + 500)
    XCTAssertEqual(ms("%I:%M %p %m/%d/%Y", "12:30 AM 01/01/2000"), Self.y2000 + 30 * 60_000)
    XCTAssertEqual(ms("%I:%M %p %m/%d/%Y", "12:30 pm 01/01/2000"), Self.y2000 + 12.5 * 3_600_000)
    XCTAssertEqual(ms("%Y %j", "2000 032"), 949363200000)
    XCTAssertEqual(ms("%s", "946684800"), Self.y2000)
    XCTAssertEqual(ms("%F %T", "2000-01-01 00:00:01"), Self.y2000 + 1000)
    XCTAssertEqual(ms("%a %d %b %Y", "Sat 01 Jan 2000"), Self.y2000)
    XCTAssertEqual(ms("%%%Y", "%2000"), Self.y2000)
    XCTAssertNil(ms("%Y-%m-%d", "2000-01-01 extra"))
    XCTAssertNil(TimePattern("no fields"))
    XCTAssertNil(TimePattern("%Q"))
    XCTAssertNil(TimePattern("%"))
  }

  func testSuggestedPatterns() {
    XCTAssertEqual(TimeParsing.suggestPattern("Jan 1 2000"), "%b %e %Y")
    XCTAssertEqual(TimeParsing.suggestPattern("31-12-2000 10:30"), "%d-%m-%Y %H:%M")
    XCTAssertEqual(TimeParsing.suggestPattern("20000101"), "%Y%m%d")
    XCTAssertNil(TimeParsing.suggestPattern("soon"))
  }

  // MARK: - Shapes

  func testLongData() {
    let o = options { $0.series = .name("symbol"); $0.value = .name("price") }
    // MSFT has no row on 2000-01-04: a gap.
    check("long.csv", o, xs: [Self.y2000 + 2 * Self.day, Self.y2000 + 3 * Self.day, Self.y2000 + 4 * Self.day],
          lines: ["AAPL": [1.5, 1.6, 1.7], "MSFT": [30, nil, 31]], order: ["AAPL", "MSFT"])
    let byIndex = options { $0.series = .index(2); $0.value = .index(3) }
    check("long.csv", byIndex, xs: [Self.y2000 + 2 * Self.day, Self.y2000 + 3 * Self.day, Self.y2000 + 4 * Self.day],
          lines: ["AAPL": [1.5, 1.6, 1.7], "MSFT": [30, nil, 31]])
    refused("bad_duplicate_long.csv", o, "bad_duplicate_long.csv: line 4 repeats the time 2000-01-03 of line 2 in series 'AAPL'; remove one of the rows")
    refused("bad_long_no_series.csv", "bad_long_no_series.csv: line 3 repeats the time 2000-01-03 of line 2; column 'symbol' holds text; for long data pass series = 'symbol', value = 'price'")
    refused("long.csv", options { $0.series = .name("symbol") }, "long.csv: series = 'symbol' needs value = the column of numbers (e.g. value = 'price')")
  }

  func testTextColumnsAreSkippedAndNamed() {
    check("text_column.csv", xs: [Self.y2000 + 2 * Self.day, Self.y2000 + 3 * Self.day], lines: ["open": [1.5, 1.6], "close": [1.6, 1.7]],
          notes: ["text_column.csv: skipped column 'symbol': it holds text (like 'AAPL'); for long data pass series = 'symbol', value = 'open'"])
    refused("text_column.csv", options { $0.columns = [.name("symbol")] },
            "text_column.csv: column 'symbol' holds text (like 'AAPL'); for long data pass series = 'symbol', value = 'open', or columns = the columns of numbers")
    check("text_column.csv", options { $0.columns = [.name("close")] }, xs: [Self.y2000 + 2 * Self.day, Self.y2000 + 3 * Self.day], lines: ["close": [1.6, 1.7]])
    refused("bad_text_only.csv", "bad_text_only.csv: column 'name' holds text (like 'Alice'); pass columns = the columns of numbers")
  }

  func testAPandasIndexIsSkipped() {
    let xs = [Self.y2000, Self.y2000 + Self.day, Self.y2000 + 2 * Self.day]
    check("pandas_index.csv", xs: xs, lines: ["price": [1.5, 1.75, 2]],
          notes: ["pandas_index.csv: skipped the unnamed first column: it numbers the rows (an index, as pandas writes it); pass columns to draw it"])
    check("pandas_index.csv", options { $0.columns = [.index(1), .name("price")] }, xs: xs, lines: ["y0": [0, 1, 2], "price": [1.5, 1.75, 2]])
    // Unnamed numbers that are not 0, 1, 2, … are a line like any other.
    check("unnamed_numbers.csv", xs: xs, lines: ["y0": [0, 2, 3], "price": [1.5, 1.75, 2]])
  }

  func testQuotesBOMCRLFAndDelimiters() {
    check("quotes.csv", xs: [Self.y2000, Self.y2000 + Self.day, Self.y2000 + 2 * Self.day], lines: ["Sales, EUR": [1, 2, 3]],
          notes: ["quotes.csv: skipped column 'Note': it holds text (like 'said \"hi\"')"])
    check("bom_crlf.csv", xs: [Self.y2000, Self.y2000 + Self.day], lines: ["v": [1, 2]])
    check("cr_only.csv", xs: [Self.y2000, Self.y2000 + Self.day], lines: ["v": [1, 2]])
    check("tab.tsv", xs: [Self.y2000, Self.y2000 + Self.day], lines: ["v": [1, 2]])
    check("pipe.csv", xs: [Self.y2000, Self.y2000 + Self.day], lines: ["v": [1, 2]])
    check("thousands.csv", xs: [Self.y2000, Self.y2000 + Self.day], lines: ["revenue": [1234.5, -12345678]])
    check("pipe.csv", options { $0.delimiter = UInt8(ascii: "|") }, xs: [Self.y2000, Self.y2000 + Self.day], lines: ["v": [1, 2]])
  }

  func testMarkersSortingAndTheTimeColumn() {
    check("markers.csv", xs: [Self.y2000, Self.y2000 + Self.day, Self.y2000 + 2 * Self.day],
          lines: ["a": [nil, nil, 1], "b": [nil, nil, 2], "c": [nil, nil, 3], "d": [nil, nil, 4]])
    // Markers are options: "-" is a number error once it is not one.
    refused("markers.csv", options { $0.missing = ["", "NA", "N/A", "NaN", "nan", "null", "NULL"] },
            "markers.csv: line 2, column 4: expected a number, got '-' in column 'c'; add '-' to missing, or leave the column out with columns")
    check("unsorted.csv", xs: [Self.y2000, Self.y2000 + Self.day, Self.y2000 + 2 * Self.day], lines: ["v": [1, 2, 3]])
    refused("bad_unsorted_nosort.csv", options { $0.sort = false },
            "bad_unsorted_nosort.csv: line 3: times must increase ('2000-01-01' is before the previous row's); pass sort = true to sort the rows")
    refused("bad_duplicate.csv", "bad_duplicate.csv: line 4 repeats the time 2000-01-02 of line 3; remove one of the rows")
    // The first column that reads as times, wherever it is; or the one named.
    check("time_second.csv", xs: [Self.y2000, Self.y2000 + Self.day], lines: ["id": [1, 2], "v": [5, 6]])
    check("time_second.csv", options { $0.x = .name("date"); $0.columns = [.index(3)] }, xs: [Self.y2000, Self.y2000 + Self.day], lines: ["v": [5, 6]])
    refused("iso_dates.csv", options { $0.x = .name("nope") },
            "iso_dates.csv: x = 'nope': no such column; the columns are 'date' (text like '2019-01-01'), 'Views' (numbers like 10), 'Shares' (numbers like 1)")
    refused("iso_dates.csv", options { $0.x = .index(9) },
            "iso_dates.csv: x = 9: the file has 3 columns: 'date' (text like '2019-01-01'), 'Views' (numbers like 10), 'Shares' (numbers like 1)")
  }

  func testNamesAndColors() throws {
    var o = TableOptions()
    o.names = ["V"]
    o.colorsByKey = ["Shares": Color(hex: "#112233")!]
    let r = try decode("iso_dates.csv", o)
    XCTAssertEqual(r.set.lines.map(\.name), ["V", "Shares"])
    XCTAssertEqual(r.set.lines[1].color, Color(hex: "#112233"))
    XCTAssertEqual(r.set.lines[0].color, Palette.color(0))
    XCTAssertEqual(r.set.lineID(for: "Shares"), "y1")
    XCTAssertEqual(r.set.lineID(for: "y0"), "y0")
    XCTAssertNil(r.set.lineID(for: "Views"))
  }

  // MARK: - Refused shapes

  func testRefusedShapes() {
    refused("bad_unknown_time.csv", "bad_unknown_time.csv: '2000-W01' in column 'week' is not a time I know; pass timeFormat (strftime-style, e.g. \"%d/%m/%Y %H:%M\"), or x = the time column")
    refused("bad_unknown_time2.csv", "bad_unknown_time2.csv: 'Jan 1 2000 noon' in column 'when' is not a time I know; pass timeFormat (strftime-style, e.g. \"%d/%m/%Y %H:%M\"), or x = the time column")
    refused("bad_number.csv", "bad_number.csv: line 3, column 2: expected a number, got 'x' in column 'v'; add 'x' to missing, or leave the column out with columns")
    refused("bad_cells.csv", "bad_cells.csv: line 2: expected 2 cells, got 3")
    refused("bad_unterminated.csv", "bad_unterminated.csv: line 2: unterminated quoted cell (a '\"' opens a cell that no '\"' closes)")
    refused("bad_time_later.csv", "bad_time_later.csv: line 3: 'soon' in column 'date' is not a time like the rows before (ISO 8601 (YYYY-MM-DD)); pass timeFormat, or fix the cell")
    refused("bad_records_object.json", "bad_records_object.json: line 1: expected an array of records ([{\"date\": \"2000-01-03\", \"value\": 1.5}, ...]), got an object")
    refused("bad_records_nested.json", "bad_records_nested.json: line 1: 'v' holds an object; a record's values must be numbers, strings or null")
    refused("bad_records_bool.json", "bad_records_bool.json: line 1: 'v' holds a boolean; a record's values must be numbers, strings or null")
  }

  func testLinesAfterQuotedLineBreaksAndBlankLines() {
    let csv = "t,v,note\n2000-01-01,1,\"two\nlines\"\n\n2000-01-02,2,x\n2000-01-03,oops,y\n"
    XCTAssertThrowsError(try CSVDecoder.decode(Array(csv.utf8), file: "q.csv")) {
      XCTAssertEqual(String(describing: $0), "q.csv: line 6, column 2: expected a number, got 'oops' in column 'v'; add 'oops' to missing, or leave the column out with columns")
    }
    let dup = "t,v,n\n2000-01-01,1,\"a\nb\"\n\n2000-01-01,2,c\n"
    XCTAssertThrowsError(try CSVDecoder.decode(Array(dup.utf8), file: "d.csv")) {
      XCTAssertEqual(String(describing: $0), "d.csv: line 5 repeats the time 2000-01-01 of line 2; column 'n' holds text; for long data pass series = 'n', value = 'v'")
    }
  }

  func testMemoryBudget() {
    var o = TableOptions()
    o.memoryBudget = 1000
    o.memoryBudgetName = "--max-memory"
    var csv = "t,v\n"
    for k in 0..<200 { csv += "\(946684800 + k * 60),\(k)\n" }
    XCTAssertThrowsError(try CSVDecoder.decode(Array(csv.utf8), file: "m.csv", options: o)) {
      XCTAssertEqual(String(describing: $0), "m.csv: the data needs about 0.0 MiB as columns of numbers, more than --max-memory leaves (0.0 MiB)")
    }
  }

  // MARK: - JSON records

  func testRecords() {
    check("records.json", xs: [Self.y2000 + 2 * Self.day, Self.y2000 + 3 * Self.day, Self.y2000 + 4 * Self.day],
          lines: ["open": [1.2, nil, nil], "close": [1.3, 1.4, 1.5], "volume": [nil, nil, 7]], order: ["open", "close", "volume"])
    check("records_long.json", options { $0.series = .name("s"); $0.value = .name("v") },
          xs: [Self.y2000 + 2 * Self.day, Self.y2000 + 3 * Self.day], lines: ["A": [1, nil], "B": [2, 3]])
  }

  // MARK: - Numbers

  func testNumberParserIsExact() {
    func parse(_ s: String) -> Double? {
      var d = 0.0
      let ok = Array(s.utf8).withUnsafeBufferPointer { cs_parseDouble($0.baseAddress!, $0.count, &d) }
      return ok ? d : nil
    }
    let texts = ["0", "-0", "1", "-1.5", "3.14159", "1e10", "1E-5", "123456789012345678901234567890", "0.1", "0.2", "0.3",
                 "9007199254740993", "2.2250738585072014e-308", "1.7976931348623157e308", "4.9e-324", ".5", "5.", "+7",
                 "1234.5678", "0.000001", "1e22", "1e23", "17.1234567890123456"]
    for t in texts { XCTAssertEqual(parse(t), Double(t.hasPrefix(".") ? "0" + t : t), t) }
    for t in ["", "-", ".", "e5", "1e", "1e+", "1.2.3", "1,5", " 1", "inf", "nan", "0x10", "1_000"] { XCTAssertNil(parse(t), t) }
    // Random decimals round-trip.
    var g = SystemRandomNumberGenerator()
    for _ in 0..<20_000 {
      let v = Double(bitPattern: g.next() & 0x7FEF_FFFF_FFFF_FFFF)
      for text in [String(v), String(format6: v)] { XCTAssertEqual(parse(text), Double(text), text) }
    }
  }
}

extension String {
  /// Four decimals, as data files hold them.
  init(format6 v: Double) {
    let x = (v.isFinite && abs(v) < 1e15) ? v : 1.5
    let r = (x * 10000).rounded() / 10000
    self = String(r)
  }
}

import Drawing
