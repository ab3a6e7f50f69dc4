import CFastParse
import Dispatch
import Drawing
import Glibc

/// Runs two closures at once, on two threads.
final class SplitBox: @unchecked Sendable {
  func run(_ a: () -> Void, _ b: () -> Void) {
    withoutActuallyEscaping(a) { a in
      withoutActuallyEscaping(b) { b in
        let jobs = UnsafeSendable(value: [a, b])
        DispatchQueue.concurrentPerform(iterations: 2) { k in jobs.value[k]() }
      }
    }
  }
}

struct UnsafeSendable<T>: @unchecked Sendable { let value: T }

/// Reads a CSV table: a header row, then one row per point. The time column, its format, the
/// value columns (or the series of long data), the delimiter are found from the file unless
/// `TableOptions` names them (docs/lua-api.md, `cs.data.csv`). Files are read in blocks, so
/// memory holds the columns of numbers and one block, not the file.
public enum CSVDecoder {
  public typealias Options = TableOptions

  /// Rows read to find the columns' kinds and the time format.
  static let sampleRows = 2000
  /// The block size for files.
  public static let blockSize = 256 << 10
  /// The longest row of a file: the block grows (doubling) to hold one row, up to this.
  public static let maxRowBytes = 16 << 20

  public static func decode(_ bytes: [UInt8], file: String? = nil, options: Options = Options()) throws(DataError) -> ChartSet {
    try decodeTable(bytes, file: file, options: options).set
  }

  public static func decodeTable(_ bytes: [UInt8], file: String? = nil, options: Options = Options()) throws(DataError) -> TableResult {
    if bytes.isEmpty { throw DataError(file: file, "the file is empty") }
    let r: Result<TableResult, DataError> = bytes.withUnsafeBufferPointer { b in
      var rows = CSVRows(memory: b.baseAddress!, count: b.count, file: file)
      do throws(DataError) { return .success(try decodeRows(&rows, totalBytes: b.count, file: file, options: options)) } catch { return .failure(error) }
    }
    return try r.get()
  }

  /// Reads the CSV file `path` (`shown` names it in errors) in blocks.
  /// `blockSize` and `splitBytes` are for tests (blocks of a few bytes; two halves of any file).
  public static func read(path: String, shown: String, options: Options = Options(), blockSize: Int = CSVDecoder.blockSize,
                          splitBytes: Int = CSVDecoder.splitBytes) throws -> TableResult {
    let (fd, size) = try FileReader.openRegular(path)
    defer { close(fd) }
    if size == 0 { throw DataError(file: shown, "the file is empty") }
    var rows = CSVRows(fd: fd, capacity: min(blockSize, size + 1), file: shown)
    defer { rows.release() }
    return try decodeRows(&rows, totalBytes: size, file: shown, options: options, splitBytes: splitBytes)
  }

  static func decodeRows(_ rows: inout CSVRows, totalBytes: Int, file: String?, options: Options, splitBytes: Int = CSVDecoder.splitBytes) throws(DataError) -> TableResult {
    var options = options
    try rows.start()
    if options.delimiter == nil { options.delimiter = rows.sniffDelimiter() }
    rows.delimiter = options.delimiter!
    var spans = SpanBuffer()
    defer { spans.release() }
    var scratch: [UInt8] = []
    guard let (hbase, _) = try rows.nextRow(&spans) else { throw DataError(file: file, "the file is empty") }
    let header = spans.map { s in String(decoding: cellBytes(hbase, s, &scratch), as: UTF8.self) }
    let afterHeader = rows.mark()
    // A sample of rows for the plan: at most about 256 K cells (each is held as an array
    // until the plan is made), at least 16 rows.
    let sampleLimit = max(16, min(sampleRows, 262_144 / max(1, header.count)))
    var samples: [[[UInt8]]] = []
    var sampleBytes = 0
    let sampleStart = rows.absolute
    while samples.count < sampleLimit, let (base, _) = try rows.nextRow(&spans) {
      samples.append(spans.map { cellBytes(base, $0, &scratch) })
      sampleBytes = rows.absolute - sampleStart
    }
    if samples.isEmpty {
      if header.count < 2 {
        throw DataError(file: file, place: "line 1", "expected a header with a time column and at least one value column")
      }
      throw DataError(file: file, "the file has a header but no rows")
    }
    let decoder = try TableDecoder(file: file, header: header, samples: samples, options: options)
    let estimated = samples.count < sampleLimit ? samples.count
      : Int(Double(totalBytes) / Double(max(1, sampleBytes)) * Double(samples.count))
    try rows.rewind(to: afterHeader)
    var columns = TableDecoder.Columns()
    if rows.fd >= 0, totalBytes - afterHeader.offset >= splitBytes, decoder.canSplit,
      let half = secondHalf(rows, from: afterHeader.offset, totalBytes: totalBytes) {
      // Two cores: this reader stops where the second half starts; the second half is read
      // at the same time by another. If the second half may have started inside a quoted
      // cell (it meets a quote), or fails, this reader reads on to the end instead.
      rows.stopAt = half.bufStart
      var second: Result<TableDecoder.Columns, DataError>? = nil
      var firstError: DataError? = nil
      let estimatedHalf = Int(Double(estimated) * Double(totalBytes - half.bufStart) / Double(max(1, totalBytes - afterHeader.offset))) + 16
      let box = SplitBox()
      box.run(
        { [decoder] in
          var b = half
          defer { b.release() }
          var out = TableDecoder.Columns()
          do throws(DataError) {
            try decoder.read(&b, into: &out, estimatedRows: estimatedHalf)
            second = .success(out)
          } catch { second = .failure(error) }
        },
        {
          do throws(DataError) { try decoder.read(&rows, into: &columns, estimatedRows: estimated) } catch { firstError = error }
        })
      if let firstError { throw firstError }
      if !rows.overran, case .success(let b)? = second {
        columns.append(b, lineOffset: rows.line - 1)
      } else {
        rows.stopAt = Int.max
        if !rows.overran { try decoder.read(&rows, into: &columns, estimatedRows: estimated) }
      }
      try decoder.finish(&columns)
    } else {
      try decoder.read(&rows, into: &columns, estimatedRows: estimated)
      try decoder.finish(&columns)
    }
    return TableResult(set: try decoder.build(columns), notes: decoder.notes)
  }

  /// Files from this size on are read on two cores.
  public static let splitBytes = 8 << 20

  /// A reader of the rows after the first line break past the middle of the file.
  static func secondHalf(_ rows: CSVRows, from start: Int, totalBytes: Int) -> CSVRows? {
    let mid = start + (totalBytes - start) / 2
    var probe = [UInt8](repeating: 0, count: 1 << 16)
    let n = probe.withUnsafeMutableBytes { pread(rows.fd, $0.baseAddress!, $0.count, off_t(mid - 1)) }
    guard n > 1, let nl = probe[0..<n].firstIndex(of: 10) else { return nil }
    let begin = mid - 1 + nl + 1
    guard begin < totalBytes else { return nil }
    var half = CSVRows(fd: rows.fd, capacity: rows.capacity, file: rows.file, from: begin)
    half.delimiter = rows.delimiter
    half.refuseQuotes = true
    return half
  }

  static func cellBytes(_ base: UnsafePointer<UInt8>, _ s: CellSpan, _ scratch: inout [UInt8]) -> [UInt8] {
    var out: [UInt8] = []
    var k = s.start
    if s.quoted {
      while k < s.end { out.append(base[k]); k += base[k] == 34 ? 2 : 1 }
      while out.last == 32 { out.removeLast() }
      while out.first == 32 { out.removeFirst() }
    } else {
      out.append(contentsOf: UnsafeBufferPointer(start: base + s.start, count: s.count))
    }
    return out
  }

  public static func baseName(_ path: String) -> String {
    var name = path.split(separator: "/").last.map(String.init) ?? path
    if let dot = name.lastIndex(of: "."), dot != name.startIndex { name = String(name[..<dot]) }
    return name
  }
}

/// CSV rows out of memory or out of a file read in blocks (RFC 4180: quoted cells may hold
/// the delimiter, line breaks and `""`; CRLF, CR or LF line ends; a UTF-8 BOM).
struct CSVRows: RowSource {
  var buf: UnsafeMutablePointer<UInt8>
  var capacity: Int
  var pos = 0
  var end = 0
  var eof: Bool
  let fd: Int32
  let owned: Bool
  let file: String?
  var line = 1
  /// The file offset of buf[0].
  var bufStart = 0
  var delimiter: UInt8 = 44
  /// Rows starting at or after this offset are left to another reader (the second half of
  /// a file read on two cores). `overran`: a row crossed it (a quoted line break).
  var stopAt = Int.max
  var overran = false
  /// The second half refuses quotes: it may have started inside a quoted cell.
  var refuseQuotes = false
  /// Whether the bytes in the buffer hold a quote or a CR (rows without them are split with
  /// memchr, 32 bytes at a time).
  var hasQuotes = true
  var hasCR = true

  init(memory: UnsafePointer<UInt8>, count: Int, file: String?) {
    buf = UnsafeMutablePointer(mutating: memory)
    capacity = count; end = count; eof = true; fd = -1; owned = false; self.file = file
    noteContents()
  }

  /// Looks for quotes and CRs in the buffer.
  mutating func noteContents() {
    hasQuotes = end > 0 && memchr(buf, 34, end) != nil
    hasCR = end > 0 && memchr(buf, 13, end) != nil
  }

  init(fd: Int32, capacity: Int, file: String?, from offset: Int = 0) {
    self.fd = fd
    bufStart = offset
    self.capacity = max(capacity, 1)
    buf = .allocate(capacity: self.capacity)
    eof = false; owned = true; self.file = file
  }

  func release() { if owned { buf.deallocate() } }

  var absolute: Int { bufStart + pos }

  /// Fills the first block and skips a BOM.
  mutating func start() throws(DataError) {
    if !eof { _ = try refill() }
    // The whole header line, for the delimiter.
    while !eof && memchr(buf + pos, 10, end - pos) == nil { _ = try refill() }
    if end - pos >= 3, buf[pos] == 0xEF, buf[pos + 1] == 0xBB, buf[pos + 2] == 0xBF { pos += 3 }
  }

  /// The separator of the header line: the most frequent of `,` `;` tab `|` outside quotes.
  func sniffDelimiter() -> UInt8 {
    var counts = [0, 0, 0, 0]
    let cands: [UInt8] = [44, 59, 9, 124]
    var inQuotes = false
    var k = pos
    while k < end {
      let c = buf[k]
      if c == 34 { inQuotes.toggle() } else if !inQuotes {
        if c == 10 || c == 13 { break }
        if let i = cands.firstIndex(of: c) { counts[i] += 1 }
      }
      k += 1
    }
    let best = counts.indices.max { counts[$0] < counts[$1] || (counts[$0] == counts[$1] && $0 > $1) }!
    return counts[best] > 0 ? cands[best] : 44
  }

  struct Mark { var offset: Int; var line: Int }
  func mark() -> Mark { Mark(offset: absolute, line: line) }

  mutating func rewind(to m: Mark) throws(DataError) {
    line = m.line
    if m.offset >= bufStart && m.offset <= bufStart + end { pos = m.offset - bufStart; return }
    guard fd >= 0 else { throw DataError(file: file, "cannot read the file again") }
    bufStart = m.offset; pos = 0; end = 0; eof = false
  }

  /// Keeps the unread bytes, reads more after them. False at the end of the file.
  mutating func refill() throws(DataError) -> Bool {
    guard !eof else { return false }
    if pos > 0 {
      if end > pos { memmove(buf, buf + pos, end - pos) }
      bufStart += pos; end -= pos; pos = 0
    }
    if end == capacity {
      // One row fills the block: it may grow to `maxRowBytes`, no further.
      if capacity >= CSVDecoder.maxRowBytes {
        throw DataError(file: file, "line \(line) is longer than \(CSVDecoder.maxRowBytes >> 20) MiB (the longest row a CSV file may have)")
      }
      let bigger = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity * 2)
      bigger.update(from: buf, count: end)
      buf.deallocate()
      buf = bigger
      capacity *= 2
    }
    while true {
      let n = pread(fd, buf + end, capacity - end, off_t(bufStart + end))
      if n < 0 {
        if errno == EINTR { continue }
        throw DataError(file: file, "cannot read the file: \(String(cString: strerror(errno)))")
      }
      if n == 0 { eof = true; return false }
      if refuseQuotes, memchr(buf + end, 34, n) != nil { throw CSVRows.quoteInSecondHalf }
      end += n
      noteContents()
      return true
    }
  }

  static let quoteInSecondHalf = DataError("a quote in the second half")

  enum Scan { case row(next: Int, newlines: Int), needMore, tooWide }

  /// The most cells a row may have (`TableDecoder.maxColumns`): more is refused before the
  /// cells are kept.
  var maxCells = TableDecoder.maxColumns

  /// Splits the row at `pos` into cells.
  @inline(__always)
  func scan(_ spans: inout SpanBuffer) throws(DataError) -> Scan {
    let p = UnsafePointer(buf), end = self.end, d = delimiter
    let trimTab = d != 9
    var i = pos
    var newlines = 0
    spans.removeAll()
    if !hasQuotes, let fast = scanPlain(&spans, p, end, d, trimTab) { return fast }
    while true {
      var s = i
      while s < end && (p[s] == 32 || (trimTab && p[s] == 9)) { s += 1 }
      if s < end && p[s] == 34 {
        var j = s + 1
        while true {
          if j >= end {
            if eof { throw DataError(file: file, place: "line \(line)", "unterminated quoted cell (a '\"' opens a cell that no '\"' closes)") }
            return .needMore
          }
          let c = p[j]
          if c == 34 {
            if j + 1 < end { if p[j + 1] == 34 { j += 2; continue } } else if !eof { return .needMore }
            break
          }
          if c == 10 { newlines += 1 }
          j += 1
        }
        spans.append(CellSpan(start: s + 1, end: j, quoted: true))
        if spans.count > maxCells { return .tooWide }
        i = j + 1
        while i < end && p[i] != d && p[i] != 10 && p[i] != 13 { i += 1 }
      } else {
        var j = s
        while j < end {
          let c = p[j]
          // Most bytes are above 13 (tab, LF, CR and other controls are not).
          if c == d || (c <= 13 && (c == 10 || c == 13)) { break }
          j += 1
        }
        var e = j
        while e > s && (p[e - 1] == 32 || (trimTab && p[e - 1] == 9)) { e -= 1 }
        spans.append(CellSpan(start: s, end: e, quoted: false))
        if spans.count > maxCells { return .tooWide }
        i = j
      }
      if i >= end { return eof ? .row(next: end, newlines: newlines) : .needMore }
      let c = p[i]
      if c == d { i += 1; continue }
      if c == 13 {
        if i + 1 < end { return .row(next: p[i + 1] == 10 ? i + 2 : i + 1, newlines: newlines) }
        return eof ? .row(next: i + 1, newlines: newlines) : .needMore
      }
      return .row(next: i + 1, newlines: newlines)
    }
  }

  /// A row without quotes: the line end and the delimiters found with memchr. Nil when the
  /// row holds a CR that does not end it (the byte loop handles those).
  @inline(__always)
  func scanPlain(_ spans: inout SpanBuffer, _ p: UnsafePointer<UInt8>, _ end: Int, _ d: UInt8, _ trimTab: Bool) -> Scan? {
    let raw = UnsafeRawPointer(p)
    var rowEnd: Int
    if let nl = memchr(raw + pos, 10, end - pos) {
      rowEnd = UnsafeRawPointer(nl) - raw
    } else {
      guard eof else { return .needMore }
      rowEnd = end
    }
    let next = rowEnd + 1
    if hasCR {
      if rowEnd > pos && p[rowEnd - 1] == 13 { rowEnd -= 1 }
      if rowEnd > pos, memchr(raw + pos, 13, rowEnd - pos) != nil { spans.removeAll(); return nil }
    }
    var s = pos
    while true {
      var ce = rowEnd
      if let q = memchr(raw + s, Int32(d), rowEnd - s) { ce = UnsafeRawPointer(q) - raw }
      var a = s, b = ce
      while a < b && (p[a] == 32 || (trimTab && p[a] == 9)) { a += 1 }
      while b > a && (p[b - 1] == 32 || (trimTab && p[b - 1] == 9)) { b -= 1 }
      spans.append(CellSpan(start: a, end: b, quoted: false))
      if spans.count > maxCells { return .tooWide }
      if ce >= rowEnd { break }
      s = ce + 1
    }
    return .row(next: min(next, end), newlines: 0)
  }

  mutating func bulk(_ plan: inout cs_csv_bulk) -> (rows: Int, line: Int) {
    // Quoted cells are for the general path; so is a row at or past where this reader stops.
    guard !hasQuotes, pos < end, bufStart + pos < stopAt else { return (0, 0) }
    var limit = end, open = eof
    if stopAt - bufStart < end { limit = stopAt - bufStart; open = false }
    plan.p = UnsafePointer(buf)
    plan.pos = pos
    plan.limit = limit
    plan.last_line_open = open ? 1 : 0
    plan.delim = delimiter
    let n = cs_csv_bulk_rows(&plan)
    let first = line
    pos = plan.pos
    line += n
    return (n, first)
  }

  mutating func nextRow(_ spans: inout SpanBuffer) throws(DataError) -> (UnsafePointer<UInt8>, Int)? {
    while true {
      if bufStart + pos >= stopAt {
        if bufStart + pos == stopAt { return nil }
        overran = true
        stopAt = Int.max
      }
      if pos >= end {
        if !(try refill()) { return nil }
        continue
      }
      switch try scan(&spans) {
      case .needMore:
        _ = try refill()
      case .tooWide:
        throw DataError(file: file, place: "line \(line)", "more than \(maxCells) cells (a file may have at most \(maxCells) columns)")
      case .row(let next, let newlines):
        let rowLine = line
        line += 1 + newlines
        pos = next
        if spans.count == 1 && spans[0].count == 0 && !spans[0].quoted { continue }
        return (UnsafePointer(buf), rowLine)
      }
    }
  }
}
