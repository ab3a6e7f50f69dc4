import CFastParse
import Drawing

/// One cell of a row: bytes `start..<end` of the row's buffer. `quoted` cells may hold `""`.
struct CellSpan {
  var start: Int
  var end: Int
  var quoted: Bool
  var count: Int { end - start }
}

/// The cells of one row: a growable buffer without the checks of an array (one per reader,
/// released by its owner).
struct SpanBuffer {
  var base: UnsafeMutablePointer<CellSpan>
  var count = 0
  var capacity: Int
  init(capacity: Int = 16) {
    self.capacity = max(1, capacity)
    base = .allocate(capacity: self.capacity)
  }
  func release() { base.deallocate() }
  @inline(__always) mutating func append(_ s: CellSpan) {
    if count == capacity { grow() }
    base[count] = s
    count += 1
  }
  mutating func grow() {
    let bigger = UnsafeMutablePointer<CellSpan>.allocate(capacity: capacity * 2)
    bigger.moveInitialize(from: base, count: count)
    base.deallocate()
    base = bigger
    capacity *= 2
  }
  @inline(__always) mutating func removeAll() { count = 0 }
  @inline(__always) subscript(i: Int) -> CellSpan { base[i] }
  func map<T>(_ f: (CellSpan) throws -> T) rethrows -> [T] { try (0..<count).map { try f(base[$0]) } }
  func allSatisfy(_ f: (CellSpan) -> Bool) -> Bool { (0..<count).allSatisfy { f(base[$0]) } }
  mutating func set(_ spans: [CellSpan]) {
    removeAll()
    for sp in spans { append(sp) }
  }
}

/// Rows of cells, one at a time (a CSV file read in blocks, or JSON records).
protocol RowSource {
  /// Fills `spans` with the next non-blank row; returns the buffer the spans index and the
  /// row's line, or nil at the end.
  mutating func nextRow(_ spans: inout SpanBuffer) throws(DataError) -> (UnsafePointer<UInt8>, Int)?
  /// Reads plain rows straight into columns (`cs_csv_bulk_rows`) from where `nextRow` would
  /// go on; returns how many and the line of the first. Sources without a bulk path take none.
  mutating func bulk(_ plan: inout cs_csv_bulk) -> (rows: Int, line: Int)
}

extension RowSource {
  mutating func bulk(_ plan: inout cs_csv_bulk) -> (rows: Int, line: Int) { (0, 0) }
}

/// The row → line table of a file: rows follow each other one line apart except where a
/// blank line or a quoted line break sits between them.
struct LineMap {
  var marks: [(row: Int, line: Int)] = []
  var lastLine = -1
  mutating func note(row: Int, line: Int) {
    if line != lastLine + 1 { marks.append((row, line)) }
    lastLine = line
  }
  /// `count` rows from `row` on, one line apart from `line` on.
  mutating func noteRun(row: Int, line: Int, count: Int) {
    guard count > 0 else { return }
    note(row: row, line: line)
    lastLine = line + count - 1
  }
  func line(ofRow r: Int) -> Int {
    var lo = 0, hi = marks.count
    while lo < hi { let m = (lo + hi) / 2; if marks[m].row <= r { lo = m + 1 } else { hi = m } }
    guard lo > 0 else { return r }
    let m = marks[lo - 1]
    return m.line + (r - m.row)
  }
}
