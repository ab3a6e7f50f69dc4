import ChartModel
import Drawing
import XCTest

final class TelegramDecoderTests: XCTestCase {
  func testRoundOneHasFiveSets() throws {
    let sets = try Fixtures.round1
    XCTAssertEqual(sets.count, 5)
    XCTAssertEqual(sets.map(\.count), [112, 112, 112, 112, 372])
    XCTAssertEqual(sets.map { $0.lines.count }, [2, 2, 2, 2, 4])
    XCTAssertEqual(sets[0].lines.map(\.id), ["y0", "y1"])
    XCTAssertEqual(sets[0].lines[0].name, "#0")
    XCTAssertEqual(sets[0].lines[0].color, Color(hex: "#3DC23F"))
    XCTAssertEqual(sets[0].lines[1].color, Color(hex: "#F34C44"))
    // 2018-11-17 .. 2019-03-08, daily, in UTC.
    XCTAssertEqual(DateText.iso(sets[0].firstMs), "2018-11-17")
    XCTAssertEqual(DateText.iso(sets[0].lastMs), "2019-03-08")
    XCTAssertEqual(sets[0].typicalStepMs, 86_400_000)
    XCTAssertEqual(DateText.iso(sets[4].firstMs), "2018-03-03")
    XCTAssertTrue(sets.allSatisfy { $0.lines.allSatisfy { $0.kind == .line } && $0.flags == SetFlags() })
  }

  func testRoundOneValueBounds() throws {
    // The README of the fixtures: values range from 10 to 4,505,200.
    let all = try Fixtures.round1.flatMap { $0.lines.flatMap(\.values) }
    XCTAssertEqual(all.min(), 10)
    XCTAssertEqual(all.max(), 4_505_200)
  }

  func testRoundTwoOverviewsAndFlags() throws {
    let kinds: [[SeriesKind]] = try (1...5).map { n in try Fixtures.sets("round2/\(n)/overview.json")[0].lines.map(\.kind) }
    XCTAssertEqual(kinds[0], [.line, .line])
    XCTAssertEqual(kinds[2], Array(repeating: .bar, count: 7))
    XCTAssertEqual(kinds[3], [.bar])
    XCTAssertEqual(kinds[4], Array(repeating: .area, count: 6))
    XCTAssertEqual(try Fixtures.sets("round2/2/overview.json")[0].flags, SetFlags(yScaled: true))
    XCTAssertEqual(try Fixtures.sets("round2/3/overview.json")[0].flags, SetFlags(stacked: true))
    XCTAssertEqual(try Fixtures.sets("round2/5/overview.json")[0].flags, SetFlags(stacked: true, percentage: true))
    for n in 1...5 { XCTAssertEqual(try Fixtures.sets("round2/\(n)/overview.json")[0].count, 365) }
    XCTAssertEqual(try Fixtures.sets("round2/2/overview.json")[0].lines.map(\.name), ["Views", "Shares"])
  }

  func testRoundTwoDayFiles() throws {
    let hourly = try Fixtures.sets("round2/1/days/2019-04-06.json")[0]
    XCTAssertEqual(hourly.count, 168)
    XCTAssertEqual(hourly.typicalStepMs, 3_600_000)
    XCTAssertEqual(DateText.iso(hourly.firstMs), "2019-03-31")
    let compare = try Fixtures.sets("round2/4/days/2018-10-06.json")[0]
    XCTAssertEqual(compare.count, 288)
    XCTAssertEqual(compare.lines.count, 3)
    XCTAssertEqual(compare.typicalStepMs, 300_000)
    XCTAssertTrue(compare.lines.allSatisfy { $0.kind == .line })
  }

  func assertError(_ json: String, contains parts: [String], file: StaticString = #filePath, line: UInt = #line) {
    do {
      _ = try TelegramDecoder.decode(Array(json), file: "bad.json")
      XCTFail("decoded without error: \(json)", file: file, line: line)
    } catch {
      for p in parts { XCTAssertTrue(error.description.contains(p), "'\(error.description)' lacks '\(p)'", file: file, line: line) }
      XCTAssertTrue(error.description.hasPrefix("bad.json: "), error.description, file: file, line: line)
    }
  }

  func testMalformedFiles() throws {
    // Truncated real data: the error gives the byte offset.
    let whole = try Fixtures.bytes("round1/chart_data.json")
    do {
      _ = try TelegramDecoder.decode(Array(whole.prefix(1000)), file: "cut.json")
      XCTFail("a truncated file decoded")
    } catch {
      XCTAssertTrue(error.description.contains("invalid JSON at byte 1000"), error.description)
    }
    assertError("", contains: ["invalid JSON at byte 0", "unexpected end of file"])
    assertError("[]", contains: ["no charts"])
    assertError("{\"columns\": 5}", contains: [".columns", "expected an array, got number"])
    assertError("{\"columns\": [[\"y0\", 1, 2]]}", contains: ["missing the x column"])
    assertError("{\"columns\": [[\"x\", 1, 2], [\"y0\", 1]]}", contains: ["columns[1]", "has 1 values, but earlier columns have 2"])
    assertError("{\"columns\": [[\"x\", 1, 2], [\"y0\", 1, \"a\"]]}", contains: ["columns[1][2]", "expected a number, got string"])
    assertError("{\"columns\": [[\"x\", 2, 1], [\"y0\", 1, 2]]}", contains: ["x values must increase"])
    assertError("{\"columns\": [[\"x\", 1, 1], [\"y0\", 1, 2]]}", contains: ["x values must increase"])
    assertError("{\"columns\": [[\"x\", 1, 2], [\"y0\", 1, 2]], \"types\": {\"y0\": \"pie\"}}", contains: ["types.y0", "unknown type 'pie'"])
    assertError("{\"columns\": [[\"x\", 1, 2], [\"y0\", 1, 2]], \"colors\": {\"y0\": \"red\"}}", contains: ["colors.y0", "bad colour 'red'"])
    assertError("{\"columns\": [[\"x\", 1, 2], [\"y0\", 1, 2]], \"stacked\": 1}", contains: ["stacked", "expected true or false"])
    assertError("{\"columns\": [[\"x\", 1, 2]]}", contains: ["no y columns"])
    assertError("{\"columns\": [[\"x\"], [\"y0\"]]}", contains: ["no points"])
    assertError("[1e999]", contains: ["number out of range"])
    assertError("{\"a\": NaN}", contains: ["unexpected 'N'"])
    assertError("\"x\"", contains: ["expected a chart object"])
    assertError(String(repeating: "[", count: 600), contains: ["nesting deeper"])
  }

  func testNullValuesAreGaps() throws {
    let set = try TelegramDecoder.decode(Array("{\"columns\": [[\"x\", 1, 2, 3], [\"y0\", 5, null, 7]]}"))[0]
    XCTAssertTrue(set.lines[0].values[1].isNaN)
    XCTAssertEqual(set.dataRange(), ValueRange(5, 7))
    XCTAssertEqual(set.lines[0].color, Palette.color(0))
  }
}

final class JSONParserTests: XCTestCase {
  func testValues() throws {
    XCTAssertEqual(try JSONParser.parse(Array(" {\"a\": [1, -2.5e1, true, false, null, \"x\\u00e9\\n\"]} ")),
                   .object(["a": .array([.number(1), .number(-25), .bool(true), .bool(false), .null, .string("xé\n")])]))
    XCTAssertEqual(try JSONParser.parse(Array("\"\\ud83d\\ude00\"")), .string("😀"))
    XCTAssertEqual(try JSONParser.parse(Array("1551916800000")), .number(1551916800000))
  }

  func testErrorsNameLineAndColumn() {
    do {
      _ = try JSONParser.parse(Array("{\n  \"a\": [1, 2,]\n}"))
      XCTFail("parsed")
    } catch {
      XCTAssertEqual(error.line, 2)
      XCTAssertEqual(error.column, 14)
      XCTAssertEqual(error.offset, 15)
    }
  }
}

final class CSVDecoderTests: XCTestCase {
  func testISODatesAndGaps() throws {
    let csv = "date,Views,Shares\n2019-01-01,10,1\n2019-01-02,,2\n2019-01-03,30,3\n"
    let set = try CSVDecoder.decode(Array(csv), file: "data/views.csv")
    XCTAssertEqual(set.name, "views")
    XCTAssertEqual(set.count, 3)
    XCTAssertEqual(set.lines.map(\.name), ["Views", "Shares"])
    XCTAssertEqual(set.lines.map(\.id), ["y0", "y1"])
    XCTAssertTrue(set.lines[0].values[1].isNaN)
    XCTAssertEqual(DateText.iso(set.xs[2]), "2019-01-03")
  }

  func testUnixSecondsMillisecondsAndTimes() throws {
    let s = try CSVDecoder.decode(Array("t,a\n1546300800,1\n1546387200,2\n"))
    XCTAssertEqual(s.xs, [1546300800000, 1546387200000])
    let ms = try CSVDecoder.decode(Array("t,a\n1546300800000,1\n1546387200000,2\n"))
    XCTAssertEqual(ms.xs, [1546300800000, 1546387200000])
    let t = try CSVDecoder.decode(Array("t;a\r\n2019-01-01T10:30:00Z;1\r\n2019-01-01 11:00;2\r\n"), options: .init(delimiter: UInt8(ascii: ";")))
    XCTAssertEqual(t.xs[1] - t.xs[0], 30 * 60_000)
    let quoted = try CSVDecoder.decode(Array("t,\"a, b\"\n2019-01-01,\"1\"\n"))
    XCTAssertEqual(quoted.lines[0].name, "a, b")
  }

  func testBadCSV() {
    func fails(_ csv: String, _ part: String, line: UInt = #line) {
      XCTAssertThrowsError(try CSVDecoder.decode(Array(csv), file: "x.csv"), line: line) {
        XCTAssertTrue(String(describing: $0).contains(part), "\($0)", line: line)
      }
    }
    fails("", "empty")
    fails("t,a\n", "no rows")
    fails("t\n2019-01-01\n", "header")
    fails("t,a\n2019-01-01,1,2\n", "line 2: expected 2 cells, got 3")
    fails("t,a\n2019-01-01,1\n2019-01-02,x\n", "line 3, column 2: expected a number, got 'x'")
    fails("t,a\n2019-01-01,x\n", "column 'a' holds text (like 'x')")
    fails("t,a\nyesterday,1\n", "'yesterday' in column 't' is not a time I know")
    fails("t,a\n2019-01-01,1\n2019-01-01,2\n", "line 3 repeats the time 2019-01-01 of line 2")
    fails("t,a\n2019-01-01,\"1\n", "unterminated")
  }

  func testInlineSeries() throws {
    let set = try InlineSeries.make(name: "s", xs: [1, 2, 3], lines: [.init(id: "a", values: [1, 2, 3]), .init(values: [3, 2, 1])])
    XCTAssertEqual(set.lines.map(\.id), ["a", "y1"])
    XCTAssertThrowsError(try InlineSeries.make(name: "s", xs: [1, 2], lines: [.init(values: [1])]))
    XCTAssertThrowsError(try InlineSeries.make(name: "s", xs: [2, 1], lines: [.init(values: [1, 2])]))
    XCTAssertThrowsError(try InlineSeries.make(name: "s", xs: [], lines: []))
    XCTAssertThrowsError(try InlineSeries.make(name: "s", xs: [1], lines: [.init(id: "a", values: [1]), .init(id: "a", values: [1])]))
  }
}
