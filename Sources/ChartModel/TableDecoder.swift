import CFastParse
import Drawing
import Glibc

/// Turns a table — a header and rows of text cells — into a chart set: finds the time
/// column and its format, the value columns (or the series of long data), reads every row
/// into columns of numbers, sorts by time and checks for repeated times.
struct TableDecoder {
  enum Kind: Equatable { case empty, number, text }
  struct ColumnInfo {
    var name: String
    var kind: Kind
    var example: String
    var samples: [[UInt8]]
  }

  let file: String?
  let options: TableOptions
  let header: [String]
  var info: [ColumnInfo] = []
  let missing: [[UInt8]]
  /// Whether a missing marker reads as a number (`missing = { "-999" }`): cells are then
  /// checked against the markers before they are read as numbers.
  let numericMissing: Bool
  let decimalComma: Bool

  // The plan.
  var timeCell = 0
  var timeFormat: TimeFormat = .iso
  var valueCells: [Int] = []
  var seriesCell: Int? = nil
  /// A column of quarters or months read with the years of the time column, and how many
  /// months its step is (3 or 1).
  var periodCell: Int? = nil
  var periodMonths = 3
  var notes: [String] = []
  /// How many rows the plan was made from.
  let sampledRows: Int
  /// Text columns left out, for the hint of a repeated time.
  var textColumns: [Int] = []
  /// The most columns a file (a CSV header, the keys of JSON records) may have: a
  /// spreadsheet's. Wider rows are refused as they are split, before their cells are kept.
  static let maxColumns = 16_384

  init(file: String?, header: [String], samples: [[[UInt8]]], options: TableOptions) throws(DataError) {
    self.file = file
    self.options = options
    self.header = header
    self.missing = options.missing.map { Array($0.utf8) }
    self.decimalComma = options.delimiter != nil && options.delimiter != UInt8(ascii: ",")
    self.sampledRows = samples.count
    self.numericMissing = missing.contains { m in var v = 0.0; return m.withUnsafeBufferPointer { cs_parse_double($0.baseAddress, $0.count, &v) } != 0 }
    for c in header.indices {
      var kind = Kind.empty
      var example = ""
      var values: [[UInt8]] = []
      var numbers = 0
      for row in samples where c < row.count {
        let v = row[c]
        if isMissing(v) { continue }
        values.append(v)
        if example.isEmpty { example = String(decoding: v.prefix(40), as: UTF8.self) }
        if parseNumber(v) != nil { numbers += 1 }
      }
      // A column is numbers when its first value or half of them are: a stray word in it is
      // an error at its cell (read below), not a reason to skip the column.
      if !values.isEmpty {
        kind = parseNumber(values[0]) != nil || numbers * 2 >= values.count ? .number : .text
      }
      info.append(ColumnInfo(name: header[c], kind: kind, example: example, samples: values))
    }
    try plan()
  }

  func isMissing(_ v: [UInt8]) -> Bool { v.withUnsafeBufferPointer { isMissing($0.baseAddress, $0.count) } }
  func isMissing(_ p: UnsafePointer<UInt8>?, _ n: Int) -> Bool {
    if n == 0 { return true }
    guard let p else { return true }
    for m in missing where m.count == n {
      if m.withUnsafeBufferPointer({ memcmp($0.baseAddress!, p, n) == 0 }) { return true }
    }
    return false
  }

  func parseNumber(_ v: [UInt8]) -> Double? {
    v.withUnsafeBufferPointer { b -> Double? in
      guard let p = b.baseAddress else { return nil }
      var d = 0.0
      if cs_parse_double(p, b.count, &d) != 0 { return d }
      return slowNumber(p, b.count)
    }
  }

  /// Numbers with a decimal comma (`1,5` when cells are not separated by commas) or
  /// thousands separators (`"1,234.5"`).
  func slowNumber(_ p: UnsafePointer<UInt8>, _ n: Int) -> Double? {
    var commas = 0, dots = 0
    for k in 0..<n { if p[k] == 44 { commas += 1 } else if p[k] == 46 { dots += 1 } }
    guard commas > 0, n < 64 else { return nil }
    var b = [UInt8]()
    b.reserveCapacity(n)
    if decimalComma && commas == 1 && dots == 0 {
      for k in 0..<n { b.append(p[k] == 44 ? 46 : p[k]) }
    } else if dots <= 1 {
      // 1,234,567.89: groups of three digits after each comma.
      var k = 0, digitsSinceComma = -1
      var start = 0
      if n > 0 && (p[0] == 45 || p[0] == 43) { b.append(p[0]); k = 1; start = 1 }
      var leading = 0
      while k < n && p[k] != 46 {
        let c = p[k]
        if c == 44 {
          guard (digitsSinceComma == -1 && leading >= 1 && leading <= 3) || digitsSinceComma == 3 else { return nil }
          digitsSinceComma = 0
        } else if c &- 48 < 10 {
          if digitsSinceComma >= 0 { digitsSinceComma += 1 } else { leading += 1 }
          b.append(c)
        } else { return nil }
        k += 1
      }
      guard digitsSinceComma == 3, k > start else { return nil }
      while k < n { b.append(p[k]); k += 1 }
    } else { return nil }
    var d = 0.0
    return b.withUnsafeBufferPointer { cs_parse_double($0.baseAddress!, $0.count, &d) } != 0 ? d : nil
  }
}
