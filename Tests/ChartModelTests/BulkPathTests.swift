import Foundation
import XCTest

@testable import ChartModel

/// The bulk path of the CSV reader (`cs_csv_bulk_rows`: plain rows straight into columns)
/// and the general path (cells split, then read one by one) must agree on every file: the
/// same times and values bit for bit, the same notes, or the same error line. A quote in the
/// header sends a whole in-memory file down the general path, so each random file is read
/// with its header plain and quoted, and from disk in tiny blocks and two halves.
final class BulkPathTests: XCTestCase {
  struct Rng {
    var state: UInt64
    mutating func next() -> UInt64 {
      state &+= 0x9E37_79B9_7F4A_7C15
      var z = state
      z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
      z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
      return z ^ (z >> 31)
    }
    mutating func int(_ n: Int) -> Int { Int(next() % UInt64(n)) }
    mutating func chance(_ p: Double) -> Bool { Double(next() % 1_000_000) / 1_000_000 < p }
  }

  /// `isoZ`: with offsets (`Z`, `±hh:mm`, and ones only the general path reads).
  enum TimeKind: CaseIterable { case isoDay, isoT, isoSpace, isoZ, unixSeconds }

  /// A file of `rows` rows: a time column, two value columns and sometimes a text column,
  /// with the cells people write (and, rarely, ones that are refused).
  static func file(_ rng: inout Rng, rows: Int, bad: Bool) -> (text: String, options: TableOptions) {
    let kind = TimeKind.allCases[rng.int(TimeKind.allCases.count)]
    let text = rng.chance(0.3)
    let delimiter = [",", ";", "\t", "|"][rng.int(4)]
    let crlf = rng.chance(0.3)
    var options = TableOptions()
    options.delimiter = UInt8(ascii: delimiter.unicodeScalars.first!)
    if rng.chance(0.2) { options.missing = ["", "NA", "-999"] }
    var lines = [(["time", "a", "b"] + (text ? ["note"] : [])).joined(separator: delimiter)]
    var t = 1_577_836_800 + rng.int(1_000_000)  // 2020 on, in seconds
    let step = [1, 60, 3600, 86400][rng.int(4)]
    for r in 0..<rows {
      t += rng.chance(0.02) ? -step * 3 : step  // now and then out of order (sorted later)
      if rng.chance(0.01) { t += step * 7 }
      let time: String
      let day = ISODate.civil(days: t / 86400)
      let s = t % 86400
      let date = String(format: "%04d-%02d-%02d", day.year, day.month, day.day)
      let clock = String(format: "%02d:%02d:%02d", s / 3600, s / 60 % 60, s % 60)
      switch kind {
      case .isoDay: time = date; t += 86400 - step
      case .isoT: time = date + "T" + clock
      case .isoSpace: time = date + " " + clock
      case .isoZ: time = date + ["T", " "][rng.int(2)] + clock + (rng.chance(0.002) ? "+19:00" : ["", "Z", "z", "+02:00", "-05:30", "+00:00", "+0100", " UTC"][rng.int(8)])
      case .unixSeconds: time = String(t)
      }
      func value() -> String {
        switch rng.int(20) {
        case 0: return ""
        case 1: return "NA"
        case 2: return String(rng.int(100_000))
        case 3: return "-" + String(rng.int(1000)) + "." + String(rng.int(1000))
        case 4: return "+" + String(rng.int(50))
        case 5: return String(rng.int(9)) + "." + String(rng.int(999)) + "e" + String(rng.int(30) - 15)
        case 6: return String(rng.next()) + String(rng.next())  // 30-40 digits
        case 7: return "0.000" + String(rng.int(1_000_000))
        case 8: return " " + String(rng.int(100)) + ".5 "
        case 9: return "-999"
        case 10: return "." + String(rng.int(100))
        case 11: return String(rng.int(100)) + "."
        case 12: return "0012.50"
        case 13: return "12345678901234567.25"
        default: return String(Double(rng.int(2_000_000)) / 1000 - 1000)
        }
      }
      var cells = [time, value(), value()]
      if text { cells.append(["x", "abc", "", "a b"][rng.int(4)]) }
      if bad && r == rows / 2 { cells[1 + rng.int(2)] = ["oops", "1e999", "1.5.5", "--3"][rng.int(4)] }
      if rng.chance(0.01) { cells.append("") }  // a trailing empty cell
      lines.append(cells.joined(separator: delimiter))
      if rng.chance(0.01) { lines.append("") }  // a blank line
    }
    var body = lines.joined(separator: crlf ? "\r\n" : "\n")
    if rng.chance(0.7) { body += crlf ? "\r\n" : "\n" }
    return (body, options)
  }

  typealias Outcome = Result<[[UInt64]], DataError>

  static func outcome(_ r: () throws -> TableResult) -> (Outcome, [String]) {
    do {
      let t = try r()
      let bits = [t.set.xs.map { $0.bitPattern }] + t.set.lines.map { $0.values.map { $0.bitPattern } }
      return (.success(bits), t.notes)
    } catch let e as DataError { return (.failure(e), []) } catch { return (.failure(DataError("\(error)")), []) }
  }

  func testBulkAndGeneralPathsAgreeOnRandomFiles() throws {
    var rng = Rng(state: 20_261_123)
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("chartscene-bulk-" + UUID().uuidString)
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: dir) }
    var successes = 0, failures = 0
    for n in 0..<150 {
      let rows = [1, 2, 5, 40, 300, 3000][rng.int(6)]
      let (text, options) = Self.file(&rng, rows: rows, bad: rng.chance(0.15))
      let plain = Array(text.utf8)
      // The header's first name quoted: the same table, read by the general path only.
      let quoted = Array(("\"time\"" + text.dropFirst(4)).utf8)
      let (a, notesA) = Self.outcome { try CSVDecoder.decodeTable(plain, file: "f.csv", options: options) }
      let (b, notesB) = Self.outcome { try CSVDecoder.decodeTable(quoted, file: "f.csv", options: options) }
      XCTAssertEqual(a, b, "file \(n):\n\(text.prefix(400))")
      XCTAssertEqual(notesA, notesB, "file \(n)")
      let path = dir.appendingPathComponent("f\(n).csv").path
      try text.write(toFile: path, atomically: false, encoding: .utf8)
      for (block, split) in [(CSVDecoder.blockSize, CSVDecoder.splitBytes), (13, CSVDecoder.splitBytes), (64, 1), (CSVDecoder.blockSize, 1)] {
        let (c, _) = Self.outcome { try CSVDecoder.read(path: path, shown: "f.csv", options: options, blockSize: block, splitBytes: split) }
        XCTAssertEqual(a, c, "file \(n), blocks of \(block), split at \(split)")
      }
      if case .success = a { successes += 1 } else { failures += 1 }
    }
    // Both kinds of outcome were exercised.
    XCTAssertGreaterThan(successes, 50)
    XCTAssertGreaterThan(failures, 5)
  }

  func testMissingMarkersThatReadAsNumbers() throws {
    var options = TableOptions()
    options.missing = ["", "-999"]
    let csv = "date,v\n2020-01-01,1.5\n2020-01-02,-999\n2020-01-03,-999.5\n"
    let set = try CSVDecoder.decode(Array(csv.utf8), file: "m.csv", options: options)
    let v = set.lines[0].values
    XCTAssertEqual(v[0], 1.5)
    XCTAssertTrue(v[1].isNaN, "-999 is a missing marker")
    XCTAssertEqual(v[2], -999.5)
  }
}

/// Both JSON readers (whole documents and `cs.data.json` records) read strings with one
/// reader, `JSONString`: the same text, the same refusals.
final class JSONStringTests: XCTestCase {
  func read(_ s: String) -> Result<String, JSONString.Problem> {
    let b = Array(s.utf8)
    var i = 1, out: [UInt8] = []
    do throws(JSONString.Problem) {
      try JSONString.read(b, &i, into: &out)
      XCTAssertEqual(i, b.count, s)
      return .success(String(decoding: out, as: UTF8.self))
    } catch { return .failure(error) }
  }

  func testEscapesSurrogatesAndRefusals() {
    XCTAssertEqual(try read(#""a\"b\\c\/d\n\t\u00e9\uD83D\uDE00""#).get(), "a\"b\\c/d\n\té😀")
    XCTAssertEqual(try read(#""\uD83Dx""#).get(), "\u{FFFD}x")
    XCTAssertEqual(try read(#""\uD83D\u0041""#).get(), "\u{FFFD}A")
    for (text, ok) in [("\"abc", false), ("\"a\tb\"", false), ("\"a\\qb\"", false), ("\"\\u12G4\"", false), ("\"\\u12", false), ("\"\"", true)] {
      if case .success = read(text) { XCTAssertTrue(ok, text) } else { XCTAssertFalse(ok, text) }
    }
  }

  func testRecordsAndDocumentsRefuseTheSameStrings() throws {
    for bad in ["a\tb", "a\\qb", "\\u12G4"] {
      let doc = Array("[{\"date\": \"2020-01-01\", \"v\": 1, \"n\": \"\(bad)\"}]".utf8)
      XCTAssertThrowsError(try JSONParser.parse(doc), bad)
      XCTAssertThrowsError(try RecordsDecoder.decodeTable(doc, file: "r.json"), bad)
    }
  }
}
