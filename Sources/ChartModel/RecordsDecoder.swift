/// Reads JSON records — `[{"date": "2000-01-03", "open": 1.2}, ...]` — as a table: the keys
/// (in order of first appearance) are the columns, a key a record lacks or `null` is a gap.
/// The table then goes the way of a CSV file (`TableDecoder`).
public enum RecordsDecoder {
  public static func decodeTable(_ bytes: [UInt8], file: String? = nil, options: TableOptions = TableOptions()) throws(DataError) -> TableResult {
    var p = RecordsParser(b: bytes, file: file)
    try p.parse()
    guard !p.keys.isEmpty else { throw DataError(file: file, "the records have no keys") }
    let width = p.keys.count
    guard width <= TableDecoder.maxColumns else {
      throw DataError(file: file, "the records have \(width) keys (columns); at most \(TableDecoder.maxColumns) are read")
    }
    // The table is records × keys cells (a record lacking a key has an empty one): charged
    // before it is made.
    let tableBytes = p.records.count * width * MemoryLayout<CellSpan>.stride
    if let budget = options.memoryBudget, tableBytes > budget {
      func mib(_ b: Int) -> String { String(Double(b * 10 / (1 << 20)) / 10) }
      throw DataError(file: file, "the records need about \(mib(tableBytes)) MiB as a table of \(p.records.count) rows × \(width) keys, more than \(options.memoryBudgetName) leaves (\(mib(budget)) MiB)")
    }
    // One row of spans per record, indexing the parser's cell bytes.
    var rows: [[CellSpan]] = []
    rows.reserveCapacity(p.records.count)
    for rec in p.records {
      var row = [CellSpan](repeating: CellSpan(start: 0, end: 0, quoted: false), count: width)
      for c in rec.cells { row[c.column] = CellSpan(start: c.start, end: c.end, quoted: false) }
      rows.append(row)
    }
    let cells = p.cells
    var samples: [[[UInt8]]] = []
    for row in rows.prefix(max(16, min(CSVDecoder.sampleRows, 262_144 / width))) { samples.append(row.map { Array(cells[$0.start..<$0.end]) }) }
    let decoder = try TableDecoder(file: file, header: p.keys, samples: samples, options: options)
    let lines = p.records.map(\.line)
    let r: Result<TableDecoder.Columns, DataError> = cells.withUnsafeBufferPointer { b in
      var src = Rows(base: b.baseAddress ?? UnsafePointer(bitPattern: 1)!, rows: rows, lines: lines)
      do throws(DataError) { return .success(try decoder.read(&src, estimatedRows: rows.count)) } catch { return .failure(error) }
    }
    return TableResult(set: try decoder.build(try r.get()), notes: decoder.notes)
  }

  struct Rows: RowSource {
    let base: UnsafePointer<UInt8>
    let rows: [[CellSpan]]
    let lines: [Int]
    var next = 0
    mutating func nextRow(_ spans: inout SpanBuffer) throws(DataError) -> (UnsafePointer<UInt8>, Int)? {
      guard next < rows.count else { return nil }
      spans.set(rows[next])
      next += 1
      return (base, lines[next - 1])
    }
  }
}

/// A parser for an array of flat JSON objects whose values are numbers, strings or null.
struct RecordsParser {
  let b: [UInt8]
  let file: String?
  var i = 0
  var line = 1
  var keys: [String] = []
  var keyIndex: [String: Int] = [:]
  var cells: [UInt8] = []
  struct Cell { var column: Int; var start: Int; var end: Int }
  struct Record { var line: Int; var cells: [Cell] }
  var records: [Record] = []

  init(b: [UInt8], file: String?) { self.b = b; self.file = file }

  func fail(_ m: String) -> DataError { DataError(file: file, place: "line \(line)", m) }

  mutating func ws() {
    while i < b.count {
      let c = b[i]
      if c == 10 { line += 1 } else if c != 32 && c != 9 && c != 13 { return }
      i += 1
    }
  }

  mutating func parse() throws(DataError) {
    if b.starts(with: [0xEF, 0xBB, 0xBF]) { i = 3 }
    ws()
    guard i < b.count else { throw DataError(file: file, "the file is empty") }
    guard b[i] == UInt8(ascii: "[") else {
      throw fail("expected an array of records ([{\"date\": \"2000-01-03\", \"value\": 1.5}, ...]), got \(what())")
    }
    i += 1
    ws()
    if i < b.count && b[i] == UInt8(ascii: "]") { throw DataError(file: file, "the file holds no records (an empty array)") }
    while true {
      ws()
      guard i < b.count, b[i] == UInt8(ascii: "{") else { throw fail("expected a record (an object) in the array, got \(what())") }
      try record()
      ws()
      guard i < b.count else { throw fail("the array is not closed (expected ']')") }
      if b[i] == UInt8(ascii: ",") { i += 1; continue }
      if b[i] == UInt8(ascii: "]") { i += 1; break }
      throw fail("expected ',' or ']' after a record, got \(what())")
    }
    ws()
    guard i == b.count else { throw fail("unexpected \(what()) after the array") }
  }

  func what() -> String {
    guard i < b.count else { return "the end of the file" }
    switch b[i] {
    case UInt8(ascii: "{"): return "an object"
    case UInt8(ascii: "["): return "an array"
    case UInt8(ascii: "\""): return "a string"
    case UInt8(ascii: "t"), UInt8(ascii: "f"): return "a boolean"
    case UInt8(ascii: "n"): return "null"
    case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return "a number"
    case let c where c >= 32 && c < 127: return "'\(Character(Unicode.Scalar(c)))'"
    case let c: return "byte \(c)"
    }
  }

  mutating func record() throws(DataError) {
    let start = line
    i += 1
    var rec = Record(line: start, cells: [])
    ws()
    if i < b.count && b[i] == UInt8(ascii: "}") { i += 1; records.append(rec); return }
    while true {
      ws()
      guard i < b.count, b[i] == UInt8(ascii: "\"") else { throw fail("expected a key (a string), got \(what())") }
      let keyStart = cells.count
      try string()
      let key = String(decoding: cells[keyStart...], as: UTF8.self)
      cells.removeSubrange(keyStart...)
      ws()
      guard i < b.count, b[i] == UInt8(ascii: ":") else { throw fail("expected ':' after the key '\(key)', got \(what())") }
      i += 1
      ws()
      let col: Int
      if let c = keyIndex[key] { col = c } else {
        col = keys.count
        keys.append(key)
        keyIndex[key] = col
        if keys.count > 10_000 { throw fail("the records have more than 10000 keys") }
      }
      guard i < b.count else { throw fail("expected a value for '\(key)', got the end of the file") }
      let s = cells.count
      switch b[i] {
      case UInt8(ascii: "\""): try string()
      case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
        while i < b.count, b[i] == 45 || b[i] == 43 || b[i] == 46 || b[i] == 69 || b[i] == 101 || (b[i] >= 48 && b[i] <= 57) {
          cells.append(b[i]); i += 1
        }
      case UInt8(ascii: "n"):
        guard b[i...].starts(with: Array("null".utf8)) else { throw fail("unexpected \(what())") }
        i += 4
      default:
        throw fail("'\(key)' holds \(what()); a record's values must be numbers, strings or null")
      }
      if rec.cells.contains(where: { $0.column == col }) { throw fail("the key '\(key)' appears twice in one record") }
      rec.cells.append(Cell(column: col, start: s, end: cells.count))
      ws()
      guard i < b.count else { throw fail("the record is not closed (expected '}')") }
      if b[i] == UInt8(ascii: ",") { i += 1; continue }
      if b[i] == UInt8(ascii: "}") { i += 1; break }
      throw fail("expected ',' or '}' in a record, got \(what())")
    }
    records.append(rec)
  }

  /// A JSON string, unescaped into `cells`.
  mutating func string() throws(DataError) {
    i += 1
    do throws(JSONString.Problem) { try JSONString.read(b, &i, into: &cells) } catch {
      switch error {
      case .unterminated: throw fail("unterminated string")
      case .control(10): throw fail("a line break inside a string")
      case .control: throw fail("a control character inside a string")
      case .badEscape: throw fail("a bad escape in a string")
      case .badUnicode: throw fail("a bad \\u escape")
      }
    }
  }
}
