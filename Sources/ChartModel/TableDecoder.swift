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

  // MARK: - The plan

  func fail(_ message: String) -> DataError { DataError(file: file, message) }

  func quoted(_ s: String) -> String { "'\(s)'" }

  /// `'date' (times like '2000-01-01'), 'open' (numbers like 1.5), 'symbol' (text like 'AAPL')`
  var columnList: String {
    info.enumerated().map { c, i in
      let n = quoted(i.name.isEmpty ? "column \(c + 1)" : i.name)
      switch i.kind {
      case .empty: return n + " (empty)"
      case .number: return n + " (numbers like \(i.example))"
      case .text: return n + " (text like '\(i.example)')"
      }
    }.joined(separator: ", ")
  }

  func label(_ c: Int) -> String { header[c].isEmpty ? "column \(c + 1)" : "column '\(header[c])'" }

  func resolve(_ ref: ColumnRef, option: String) throws(DataError) -> Int {
    switch ref {
    case .index(let i):
      guard i >= 1 && i <= header.count else {
        throw fail("\(option) = \(i): the file has \(header.count) columns: \(columnList)")
      }
      return i - 1
    case .name(let s):
      if let i = header.firstIndex(of: s) { return i }
      if let i = header.firstIndex(where: { $0.lowercased() == s.lowercased() }) { return i }
      throw fail("\(option) = '\(s)': no such column; the columns are \(columnList)")
    }
  }

  mutating func plan() throws(DataError) {
    guard header.count >= 2 else {
      throw DataError(file: file, place: "line 1", "expected a header with a time column and at least one value column (found one column '\(header.first ?? "")'; if the cells are separated by something else, pass delimiter)")
    }
    // The time column and its format.
    if let x = options.x {
      timeCell = try resolve(x, option: "x")
      timeFormat = try format(of: timeCell, explicit: true)
    } else if let pattern = options.timeFormat {
      guard let c = info.indices.first(where: { c in
        !info[c].samples.isEmpty && info[c].samples.allSatisfy { v in v.withUnsafeBufferPointer { pattern.parse($0.baseAddress!, $0.count) != nil } }
      }) else {
        throw fail("no column reads as timeFormat '\(pattern.text)'; the columns are \(columnList); pass x = the time column")
      }
      timeCell = c
      timeFormat = .pattern(pattern)
    } else {
      var found: (Int, TimeFormat)? = nil
      for c in info.indices where info[c].kind != .empty {
        if let f = TimeParsing.detect(info[c].samples, numbersAreTimes: false) { found = (c, f); break }
      }
      // Years written as floats (`1700.0`, as pandas writes them) only when no column reads
      // as times otherwise: a guess, said on standard error.
      if found == nil {
        for c in info.indices where info[c].kind == .number {
          if let f = TimeParsing.detect(info[c].samples, numbersAreTimes: false, floatYears: true) { found = (c, f); break }
        }
      }
      if found == nil, info[0].kind == .number, let f = TimeParsing.detect(info[0].samples, numbersAreTimes: true) { found = (0, f) }
      guard let found else {
        if let c = info.indices.first(where: { info[$0].kind == .text }) {
          _ = try format(of: c, explicit: false)  // throws what is wrong with it
          throw notATime(c, info[c].example)
        }
        throw fail("no column holds times; the columns are \(columnList); pass x = the time column")
      }
      (timeCell, timeFormat) = found
    }
    var isYears = false
    switch timeFormat {
    case .year, .yearNumber: isYears = true
    case .pattern(let p): isYears = p.text == "%Y"
    default: break
    }
    // A column of quarters (1–4) or months (1–12) beside the years (statsmodels' macrodata:
    // `year,quarter` as `1959.0,1.0`) is part of the time, not a line.
    if isYears, let (c, months) = periodColumn() {
      // Unless `columns` names it as a line.
      var named = false
      for ref in options.columns ?? [] where (try? resolve(ref, option: "columns")) == c { named = true }
      if !named {
        periodCell = c
        periodMonths = months
      }
    }
    let prefix = file.map { $0 + ": " } ?? ""
    let guessedYears: Bool
    if case .yearNumber = timeFormat { guessedYears = options.timeFormat == nil } else { guessedYears = false }
    // Nothing to say when the script said it all: the time format and the lines.
    if let pc = periodCell, guessedYears || options.columns == nil {
      let what = periodMonths == 3 ? "quarters" : "months"
      notes.append("\(prefix)read \(label(timeCell)) and \(label(pc)) together as \(what) (\(info[timeCell].example) and \(info[pc].example) → \(periodExample))"
        + (guessedYears ? ", a guess" : "") + "; \(label(pc)) is not drawn as a line (name it in columns to draw it)")
    } else if guessedYears {
      notes.append("\(prefix)read \(label(timeCell)) (numbers like \(info[timeCell].example)) as years, a guess; pass timeFormat = \"%Y\" to say so, or x = the time column")
    }
    // The values.
    if options.series != nil || options.value != nil {
      guard let s = options.series else { throw fail("value = \(options.value!) needs series = the column that names the lines") }
      guard let v = options.value else {
        throw fail("series = \(s) needs value = the column of numbers" + (firstNumberColumn.map { " (e.g. value = '\(header[$0])')" } ?? ""))
      }
      if options.columns != nil { throw fail("pass either columns, or series and value (long data), not both") }
      let sc = try resolve(s, option: "series"), vc = try resolve(v, option: "value")
      guard sc != timeCell, vc != timeCell, sc != vc else { throw fail("x, series and value must be three different columns") }
      guard info[vc].kind != .text else {
        throw fail("value = \(v): \(label(vc)) holds text (like '\(info[vc].example)'), not numbers; the columns are \(columnList)")
      }
      seriesCell = sc
      valueCells = [vc]
    } else if let cols = options.columns {
      guard !cols.isEmpty else { throw fail("columns is empty; name at least one column of numbers") }
      for ref in cols {
        let c = try resolve(ref, option: "columns")
        guard c != timeCell else { throw fail("columns: \(label(c)) is the time column (x)") }
        if info[c].kind == .text { throw textColumn(c) }
        valueCells.append(c)
      }
    } else {
      var rowIndex = false
      for c in info.indices where c != timeCell && c != periodCell {
        switch info[c].kind {
        case .number where c == 0 && isRowIndex(c): rowIndex = true
        case .number: valueCells.append(c)
        case .empty: if !header[c].isEmpty { valueCells.append(c) }
        case .text: textColumns.append(c)
        }
      }
      guard !valueCells.isEmpty else {
        if let t = textColumns.first { throw textColumn(t) }
        throw fail("no column holds numbers besides the time \(label(timeCell)); the columns are \(columnList)")
      }
      if rowIndex {
        notes.append("\(file.map { $0 + ": " } ?? "")skipped the unnamed first column: it numbers the rows (an index, as pandas writes it); pass columns to draw it")
      }
      for t in textColumns {
        notes.append("\(file.map { $0 + ": " } ?? "")skipped \(label(t)): it holds text (like '\(info[t].example)')" + longHint(t))
      }
    }
    // Refused before a row is read: every line costs each frame (ChartSet.maxLines).
    if valueCells.count > ChartSet.maxLines {
      let what = options.columns != nil ? "columns names \(valueCells.count) columns" : "the file has \(valueCells.count) columns of numbers"
      throw fail("\(what); a set holds at most \(ChartSet.maxLines) lines" + (options.columns != nil ? "" : "; pass columns = the ones to draw"))
    }
  }

  /// A column named like a quarter or a month whose values are whole numbers 1–4 or 1–12
  /// (`1.0` as pandas writes them), and the months one of its steps is.
  func periodColumn() -> (Int, Int)? {
    for c in info.indices where c != timeCell && info[c].kind == .number && !info[c].samples.isEmpty {
      let name = header[c].lowercased()
      let months: Int
      if ["quarter", "qtr", "q", "quarters"].contains(name) { months = 3 }
      else if ["month", "mon", "months", "mo"].contains(name) { months = 1 }
      else { continue }
      let top = months == 3 ? 4.0 : 12.0
      guard info[c].samples.allSatisfy({ v in parseNumber(v).map { $0 == $0.rounded() && $0 >= 1 && $0 <= top } ?? false }) else { continue }
      return (c, months)
    }
    return nil
  }

  var periodExample: String {
    guard let pc = periodCell, let y = info[timeCell].samples.first.flatMap(parseNumber), let q = info[pc].samples.first.flatMap(parseNumber) else { return "" }
    return periodMonths == 3 ? "Q\(Int(q)) \(Int(y))" : "\(DateText.months[Int(q) - 1]) \(Int(y))"
  }

  /// Whether column `c` is an unnamed row number (pandas' `to_csv` index: 0, 1, 2, … or 1, 2, 3, …
  /// in every sampled row).
  func isRowIndex(_ c: Int) -> Bool {
    guard header[c].isEmpty, info[c].samples.count >= 2, info[c].samples.count == sampledRows else { return false }
    var first = -1
    for (k, v) in info[c].samples.enumerated() {
      guard v.count <= 18, !v.isEmpty, v.allSatisfy({ $0 &- 48 < 10 }) else { return false }
      let n = v.reduce(0) { $0 * 10 + Int($1 - 48) }
      if k == 0 { guard n <= 1 else { return false }; first = n }
      guard n == first + k else { return false }
    }
    return true
  }

  var firstNumberColumn: Int? { info.indices.first { $0 != timeCell && info[$0].kind == .number } }

  func longHint(_ textCell: Int, always: Bool = false) -> String {
    // Long data repeats its series names.
    guard let v = firstNumberColumn, always || Set(info[textCell].samples).count < info[textCell].samples.count else { return "" }
    return "; for long data pass series = '\(header[textCell])', value = '\(header[v])'"
  }

  func textColumn(_ c: Int) -> DataError {
    let hint = longHint(c)
    return fail("\(label(c)) holds text (like '\(info[c].example)')"
      + (hint.isEmpty ? "; pass columns = the columns of numbers" : hint + ", or columns = the columns of numbers"))
  }

  func notATime(_ c: Int, _ example: String) -> DataError {
    let guess = TimeParsing.suggestPattern(example).map { "pass timeFormat = \"\($0)\"" } ?? "pass timeFormat (strftime-style, e.g. \"%d/%m/%Y %H:%M\")"
    return fail("'\(example)' in \(label(c)) is not a time I know; \(guess)" + (options.x == nil ? ", or x = the time column" : ""))
  }

  func format(of c: Int, explicit: Bool) throws(DataError) -> TimeFormat {
    if let p = options.timeFormat {
      if let bad = info[c].samples.first(where: { v in v.withUnsafeBufferPointer { p.parse($0.baseAddress!, $0.count) == nil } }) {
        throw fail("'\(String(decoding: bad, as: UTF8.self))' in \(label(c)) does not match timeFormat '\(p.text)'")
      }
      return .pattern(p)
    }
    guard !info[c].samples.isEmpty else { throw fail("the time \(label(c)) is empty") }
    if let f = TimeParsing.detect(info[c].samples, numbersAreTimes: explicit) { return f }
    // Name the first value that breaks the format the others have.
    let first = info[c].samples[0]
    if let f = TimeParsing.detect([first], numbersAreTimes: explicit), case .slash = f {
      var a = false, b = false
      for v in info[c].samples {
        if let r = v.withUnsafeBufferPointer({ TimeParsing.parse($0.baseAddress!, $0.count, .slash(monthFirst: nil)) }) {
          let (x, y) = TimeParsing.slashParts(r)
          if x > 12 { a = true }
          if y > 12 { b = true }
        }
      }
      if a && b { throw fail("\(label(c)) mixes MM/DD/YYYY and DD/MM/YYYY dates; pass timeFormat = \"%m/%d/%Y\" or \"%d/%m/%Y\"") }
    }
    if let f = TimeParsing.detect([first], numbersAreTimes: explicit),
      let bad = info[c].samples.first(where: { v in v.withUnsafeBufferPointer { TimeParsing.parse($0.baseAddress!, $0.count, f) == nil } }) {
      return try notLike(c, String(decoding: bad, as: UTF8.self), f)
    }
    throw notATime(c, info[c].example)
  }

  func notLike(_ c: Int, _ v: String, _ f: TimeFormat) throws(DataError) -> TimeFormat {
    throw fail("'\(v)' in \(label(c)) is not a time like the others (\(f.label)); pass timeFormat, or add '\(v)' to missing")
  }

  // MARK: - Reading

  struct Columns {
    var times: [Double] = []
    var values: [[Double]] = []
    var series: [Int32] = []
    var seriesNames: [String] = []
    var lines = LineMap()
    var slashFirstOver12 = -1, slashSecondOver12 = -1

    /// Appends the columns read from the rest of the file (its lines counted from 1).
    mutating func append(_ b: Columns, lineOffset: Int) {
      let rows = times.count
      times.append(contentsOf: b.times)
      for k in values.indices { values[k].append(contentsOf: b.values[k]) }
      for m in b.lines.marks { lines.marks.append((m.row + rows, m.line + lineOffset)) }
      lines.lastLine = b.lines.lastLine + lineOffset
    }
  }

  /// Reads every row of `source` into columns and checks them (for one reader).
  func read<S: RowSource>(_ source: inout S, estimatedRows: Int) throws(DataError) -> Columns {
    var out = Columns()
    try read(&source, into: &out, estimatedRows: estimatedRows)
    try finish(&out)
    return out
  }

  /// Wide data with a decided time format can be read in two halves at once.
  var canSplit: Bool {
    if seriesCell != nil { return false }
    if case .slash(nil) = timeFormat { return false }
    return true
  }

  /// Reads the rows of `source` onto `out`. `estimatedRows` sizes the columns up front.
  func read<S: RowSource>(_ source: inout S, into out: inout Columns, estimatedRows: Int, allowEmpty: Bool = false) throws(DataError) {
    let width = header.count
    let nValues = valueCells.count
    let bytesPerRow = 8 * (nValues + 1) + (seriesCell == nil ? 0 : 4)
    if let budget = options.memoryBudget, estimatedRows * bytesPerRow > budget {
      throw tooBig(estimatedRows * bytesPerRow, budget)
    }
    let reserve = estimatedRows + estimatedRows / 16 + 16
    if out.values.isEmpty {
      out.times.reserveCapacity(reserve)
      out.values = (0..<nValues).map { _ in var a = [Double](); a.reserveCapacity(reserve); return a }
      if seriesCell != nil { out.series.reserveCapacity(reserve) }
    }
    var spans = SpanBuffer(capacity: width + 4)
    defer { spans.release() }
    var scratch: [UInt8] = []
    var row = out.times.count
    let fmt = timeFormat
    let tc = timeCell
    var slashFirstOver12 = out.slashFirstOver12, slashSecondOver12 = out.slashSecondOver12  // the first such line
    var slashUndecided = false
    if case .slash(nil) = fmt { slashUndecided = true }
    var dayCache = TimeParsing.DayCache()
    var seriesKeys: [[UInt8]] = []
    var seriesIndex: [[UInt8]: Int32] = [:]
    var lastKey: Int32 = -1
    let valueCells = self.valueCells
    let seriesCell = self.seriesCell

    // Plain rows go through the bulk path, `chunk` at a time; the rest (and any row it
    // leaves) through the general path below.
    // Its buffers (a time and the values of `chunk` rows) take at most a sixteenth of what
    // the memory limit leaves, and 32 MiB.
    let bulkBytes = min(32 << 20, (options.memoryBudget ?? Int.max) / 16)
    let chunk = max(16, min(4096, bulkBytes / (8 * (nValues + 1))))
    var useBulk = seriesCell == nil && !numericMissing && !slashUndecided
    let timeKind: Int32
    switch fmt {
    case .iso: timeKind = Int32(CS_TIME_ISO)
    case .unixSeconds: timeKind = Int32(CS_TIME_UNIX_SECONDS)
    case .unixMillis: timeKind = Int32(CS_TIME_UNIX_MILLIS)
    default: timeKind = -1; useBulk = false
    }
    let cellRoles = UnsafeMutablePointer<Int32>.allocate(capacity: width)
    cellRoles.initialize(repeating: Int32(CS_BULK_SKIP), count: width)
    cellRoles[tc] = Int32(CS_BULK_TIME)
    for (k, c) in valueCells.enumerated() { cellRoles[c] = Int32(k) }
    let bulkTimes = UnsafeMutablePointer<Double>.allocate(capacity: useBulk ? chunk : 1)
    let bulkValues = UnsafeMutablePointer<Double>.allocate(capacity: useBulk ? chunk * nValues : 1)
    defer { bulkTimes.deallocate(); bulkValues.deallocate(); cellRoles.deallocate() }
    var misses = 0
    var plan = cs_csv_bulk()
    plan.width = Int32(width); plan.cells = UnsafePointer(cellRoles); plan.time_kind = timeKind
    plan.times = bulkTimes; plan.out = bulkValues; plan.cap = chunk
    plan.max_time = DataLimits.maxTimeMs; plan.max_value = DataLimits.maxValue
    plan.day_ms = .nan
    plan.day = { p in TimeParsing.iso(p!, 10) ?? .nan }
    while true {
      if useBulk {
        let (n, firstLine) = source.bulk(&plan)
        if n > 0 {
          out.times.append(contentsOf: UnsafeBufferPointer(start: bulkTimes, count: n))
          for k in 0..<nValues { out.values[k].append(contentsOf: UnsafeBufferPointer(start: bulkValues + k * chunk, count: n)) }
          out.lines.noteRun(row: row, line: firstLine, count: n)
          row += n
          if let budget = options.memoryBudget, row * bytesPerRow > budget { throw tooBig(row * bytesPerRow, budget) }
          misses = 0
          if n == chunk { continue }
        } else {
          // A file whose rows the bulk path never takes stops trying.
          misses += 1
          if misses > 64 { useBulk = false }
        }
      }
      guard let (base, line) = try source.nextRow(&spans) else { break }
      if spans.count != width {
        var extraEmpty = spans.count > width
        if extraEmpty { for k in width..<spans.count where spans[k].count > 0 { extraEmpty = false } }
        if !extraEmpty {
          if spans.allSatisfy({ $0.count == 0 }) { continue }  // ",,," rows
          throw DataError(file: file, place: "line \(line)", "expected \(width) cells, got \(spans.count)")
        }
      }
      // The time.
      let ts = spans[tc]
      var tp = base + ts.start, tn = ts.count
      if ts.quoted { (tp, tn) = unquote(base, ts, &scratch) }
      var t: Double
      if let v = TimeParsing.parse(tp, tn, fmt, cache: &dayCache) {
        t = v
      } else {
        if spans.allSatisfy({ $0.count == 0 }) { continue }
        let text = String(decoding: UnsafeBufferPointer(start: tp, count: tn), as: UTF8.self)
        if isMissing(tp, tn) {
          throw DataError(file: file, place: "line \(line)", "the time is missing in \(label(tc)); every row needs one")
        }
        throw DataError(file: file, place: "line \(line)", "'\(text)' in \(label(tc)) is not a time like the rows before (\(fmt.label)); pass timeFormat, or fix the cell")
      }
      if let pc = periodCell {
        let ps = spans[pc]
        var pp = base + ps.start, pn = ps.count
        if ps.quoted { (pp, pn) = unquote(base, ps, &scratch) }
        var q = 0.0
        let top = periodMonths == 3 ? 4.0 : 12.0
        guard cs_parse_double(pp, pn, &q) != 0, q == q.rounded(), q >= 1, q <= top else {
          let text = String(decoding: UnsafeBufferPointer(start: pp, count: min(pn, 60)), as: UTF8.self)
          throw DataError(file: file, place: "line \(line)", "'\(text)' in \(label(pc)) is not a \(periodMonths == 3 ? "quarter (1 to 4)" : "month (1 to 12)")")
        }
        let c = ISODate.civil(days: DateText.split(t).days)
        t = Double(ISODate.days(year: c.year, month: (Int(q) - 1) * periodMonths + 1, day: 1)) * 86_400_000
      }
      if slashUndecided {
        let (a, b) = TimeParsing.slashParts(t)
        if a > 12 && slashFirstOver12 < 0 { slashFirstOver12 = line }
        if b > 12 && slashSecondOver12 < 0 { slashSecondOver12 = line }
      } else if !DataLimits.isTime(t) {
        let text = String(decoding: UnsafeBufferPointer(start: tp, count: tn), as: UTF8.self)
        throw DataError(file: file, place: "line \(line)", "time '\(text)' is out of range (\(DataLimits.timeRange))")
      }
      out.times.append(t)
      // The values.
      for k in 0..<nValues {
        let s = spans[valueCells[k]]
        var v = Double.nan
        if s.end > s.start {
          var p = base + s.start, n = s.count
          if s.quoted { (p, n) = unquote(base, s, &scratch) }
          if numericMissing && isMissing(p, n) {
            v = .nan
          } else if cs_parse_double(p, n, &v) == 0 {
            v = try otherNumber(p, n, line: line, column: valueCells[k])
          } else if !DataLimits.isValue(v) {
            throw DataError(file: file, place: "line \(line), column \(valueCells[k] + 1)", "value '\(String(decoding: UnsafeBufferPointer(start: p, count: n), as: UTF8.self))' is out of range (\(DataLimits.valueRange))")
          }
        }
        out.values[k].append(v)
      }
      if let sc = seriesCell {
        let s = spans[sc]
        var p = base + s.start, n = s.count
        if s.quoted { (p, n) = unquote(base, s, &scratch) }
        var idx: Int32 = -1
        if lastKey >= 0, seriesKeys[Int(lastKey)].count == n,
          seriesKeys[Int(lastKey)].withUnsafeBufferPointer({ memcmp($0.baseAddress!, p, n) == 0 }) {
          idx = lastKey
        } else {
          let key = Array(UnsafeBufferPointer(start: p, count: n))
          if let found = seriesIndex[key] { idx = found } else {
            if isMissing(p, n) {
              throw DataError(file: file, place: "line \(line)", "the series name is missing in \(label(sc))")
            }
            idx = Int32(seriesKeys.count)
            seriesKeys.append(key)
            seriesIndex[key] = idx
            if seriesKeys.count > ChartSet.maxLines {
              throw DataError(file: file, place: "line \(line)", "\(label(sc)) names more than \(ChartSet.maxLines) series; is series = '\(header[sc])' the right column?")
            }
          }
        }
        lastKey = idx
        out.series.append(idx)
      }
      out.lines.note(row: row, line: line)
      row += 1
      if row & 0xFFFF == 0, let budget = options.memoryBudget, row * bytesPerRow > budget {
        throw tooBig(row * bytesPerRow, budget)
      }
    }
    out.slashFirstOver12 = slashFirstOver12
    out.slashSecondOver12 = slashSecondOver12
    out.seriesNames = seriesKeys.map { String(decoding: $0, as: UTF8.self) }
  }

  /// Checks what only the whole column tells: that there are rows, and the order of slash dates.
  func finish(_ out: inout Columns) throws(DataError) {
    let tc = timeCell
    let slashFirstOver12 = out.slashFirstOver12, slashSecondOver12 = out.slashSecondOver12
    guard !out.times.isEmpty else { throw fail("the file has a header but no rows") }
    if case .slash(nil) = timeFormat {
      if slashFirstOver12 > 0 && slashSecondOver12 > 0 {
        throw fail("\(label(tc)) mixes MM/DD/YYYY (line \(slashSecondOver12)) and DD/MM/YYYY (line \(slashFirstOver12)) dates; pass timeFormat = \"%m/%d/%Y\" or \"%d/%m/%Y\"")
      }
      var monthFirst: Bool
      if slashFirstOver12 > 0 { monthFirst = false } else if slashSecondOver12 > 0 { monthFirst = true } else {
        // Every date reads both ways: only a column of days equal to months may stay.
        guard out.times.allSatisfy({ let (a, b) = TimeParsing.slashParts($0); return a == b }) else {
          let example = out.times.first { let (a, b) = TimeParsing.slashParts($0); return a != b }!
          let (a, b) = TimeParsing.slashParts(example)
          let y = Int((example / TimeParsing.packUnit).rounded(.down)) / 1024
          throw fail("the dates in \(label(tc)) read both as MM/DD/YYYY and DD/MM/YYYY (no day is above 12: is '\(a)/\(b)/\(y)' \(DateText.months[a - 1]) \(b) or \(DateText.months[b - 1]) \(a)?); pass timeFormat = \"%m/%d/%Y\" or \"%d/%m/%Y\"")
        }
        monthFirst = true
      }
      for i in out.times.indices {
        guard let t = TimeParsing.unpackSlash(out.times[i], monthFirst: monthFirst), DataLimits.isTime(t) else {
          throw DataError(file: file, place: "line \(out.lines.line(ofRow: i))", "not a date as \(monthFirst ? "MM/DD/YYYY" : "DD/MM/YYYY")")
        }
        out.times[i] = t
      }
    }
  }

  func tooBig(_ need: Int, _ budget: Int, _ detail: String = "") -> DataError {
    func mib(_ b: Int) -> String { String(Double(b * 10 / (1 << 20)) / 10) }
    return fail("the data needs about \(mib(need)) MiB as columns of numbers\(detail), more than \(options.memoryBudgetName) leaves (\(mib(budget)) MiB)")
  }

  /// A quoted cell's text with `""` made `"` (in `scratch` when it had any).
  @inline(__always)
  func unquote(_ base: UnsafePointer<UInt8>, _ s: CellSpan, _ scratch: inout [UInt8]) -> (UnsafePointer<UInt8>, Int) {
    var hasQuote = false
    for k in s.start..<s.end where base[k] == 34 { hasQuote = true; break }
    var start = s.start, end = s.end
    if !hasQuote {
      while start < end && base[start] == 32 { start += 1 }
      while end > start && base[end - 1] == 32 { end -= 1 }
      return (base + start, end - start)
    }
    scratch.removeAll(keepingCapacity: true)
    var k = start
    while k < end { scratch.append(base[k]); k += base[k] == 34 ? 2 : 1 }
    // The scratch buffer lives until the next call; callers use the bytes at once.
    return scratch.withUnsafeBufferPointer { ($0.baseAddress ?? base, $0.count) }
  }

  func otherNumber(_ p: UnsafePointer<UInt8>, _ n: Int, line: Int, column: Int) throws(DataError) -> Double {
    if isMissing(p, n) { return .nan }
    if let v = slowNumber(p, n) {
      guard DataLimits.isValue(v) else {
        throw DataError(file: file, place: "line \(line), column \(column + 1)", "value '\(String(decoding: UnsafeBufferPointer(start: p, count: n), as: UTF8.self))' is out of range (\(DataLimits.valueRange))")
      }
      return v
    }
    let text = String(decoding: UnsafeBufferPointer(start: p, count: min(n, 60)), as: UTF8.self)
    throw DataError(file: file, place: "line \(line), column \(column + 1)",
      "expected a number, got '\(text)' in \(label(column)); add '\(text)' to missing, or leave the column out with columns")
  }

  // MARK: - The set

  func build(_ c: Columns) throws(DataError) -> ChartSet {
    let title = options.name ?? file.map(CSVDecoder.baseName) ?? "Data"
    if let _ = seriesCell { return try buildLong(c, title: title) }
    var times = c.times
    var values = c.values
    // Sort by time (stable) unless the rows already are.
    var sorted = true
    for i in 1..<max(1, times.count) where !(times[i] > times[i - 1]) { sorted = false; break }
    var order: [Int]? = nil
    if !sorted {
      var dup: (Int, Int)? = nil
      if options.sort {
        let perm = (0..<times.count).sorted { times[$0] < times[$1] || (times[$0] == times[$1] && $0 < $1) }
        for k in 1..<perm.count where times[perm[k]] == times[perm[k - 1]] { dup = (perm[k - 1], perm[k]); break }
        order = perm
      } else {
        for i in 1..<times.count where !(times[i] > times[i - 1]) {
          if times[i] == times[i - 1] { dup = (i - 1, i); break }
          throw DataError(file: file, place: "line \(c.lines.line(ofRow: i))", "times must increase ('\(timeText(times[i]))' is before the previous row's); pass sort = true to sort the rows")
        }
      }
      if let (a, b) = dup { throw repeated(c, a, b, times[a], series: nil) }
    }
    if let order {
      times = order.map { times[$0] }
      for k in values.indices { let v = values[k]; values[k] = order.map { v[$0] } }
    }
    if options.gaps { (times, values) = TimeGaps.fill(times, values) }
    var lines: [Line] = []
    for (k, col) in valueCells.enumerated() {
      let key = header[col]
      lines.append(makeLine(k, key: key.isEmpty ? "y\(k)" : key, values: values[k]))
    }
    return ChartSet(name: title, xs: times, lines: lines)
  }

  func makeLine(_ k: Int, key: String, values: [Double]) -> Line {
    let id = "y\(k)"
    let name = options.namesByKey[key] ?? options.namesByKey[id] ?? (k < options.names.count ? options.names[k] : key)
    let color = options.colorsByKey[key] ?? options.colorsByKey[id] ?? options.colorsByKey[name]
      ?? (k < options.colors.count ? options.colors[k] : Palette.color(k))
    return Line(id: id, name: name, color: color, values: values)
  }

  func timeText(_ t: Double) -> String {
    let (d, sod) = DateText.split(t)
    var s = DateText.iso(Double(d) * 86_400_000)
    if sod != 0 || t != t.rounded() {
      s += " " + DateText.twoDigits(sod / 3600) + ":" + DateText.twoDigits(sod / 60 % 60) + ":" + DateText.twoDigits(sod % 60)
    }
    return s
  }

  func repeated(_ c: Columns, _ a: Int, _ b: Int, _ t: Double, series: String?) -> DataError {
    let la = c.lines.line(ofRow: min(a, b)), lb = c.lines.line(ofRow: max(a, b))
    var m = "line \(lb) repeats the time \(timeText(t)) of line \(la)"
    if let series { m += " in series '\(series)'" }
    if series == nil, let t = textColumns.first, let hint = Optional(longHint(t, always: true)), !hint.isEmpty {
      m += "; \(label(t)) holds text" + hint
    } else {
      m += "; remove one of the rows"
    }
    return fail(m)
  }

  func buildLong(_ c: Columns, title: String) throws(DataError) -> ChartSet {
    let n = c.times.count
    // Rows in time order (stable), then the distinct times.
    let order = (0..<n).sorted { c.times[$0] < c.times[$1] || (c.times[$0] == c.times[$1] && $0 < $1) }
    var xs: [Double] = []
    var slot = [Int32](repeating: 0, count: n)
    for r in order {
      let t = c.times[r]
      if xs.last != t { xs.append(t) }
      slot[r] = Int32(xs.count - 1)
    }
    // Every line gets a value (or a gap) at every time: series × times numbers, charged
    // before they are made, besides the rows held now (time, value, series, order, slot).
    if let budget = options.memoryBudget {
      let need = c.seriesNames.count * xs.count * 8
      let left = max(0, budget - n * 32)
      if need > left { throw tooBig(need, left, " (\(c.seriesNames.count) series × \(xs.count) times)") }
    }
    if !options.sort {
      for i in 1..<max(1, n) where c.times[i] < c.times[i - 1] && c.series[i] == c.series[i - 1] {
        throw DataError(file: file, place: "line \(c.lines.line(ofRow: i))", "times must increase within series '\(c.seriesNames[Int(c.series[i])])'; pass sort = true to sort the rows")
      }
    }
    var columns = [[Double]](repeating: [Double](repeating: .nan, count: xs.count), count: c.seriesNames.count)
    // A repeated (series, time) is an error naming both rows.
    var seen = [Int: Int]()  // slot*series count + series -> row, only for repeats
    for r in order {
      let s = Int(c.series[r]), k = Int(slot[r])
      if !columns[s][k].isNaN || seen[k * c.seriesNames.count + s] != nil {
        let first = seen[k * c.seriesNames.count + s] ?? order.first { Int(c.series[$0]) == s && Int(slot[$0]) == k }!
        throw repeated(c, first, r, c.times[r], series: c.seriesNames[s])
      }
      columns[s][k] = c.values[0][r]
      if c.values[0][r].isNaN { seen[k * c.seriesNames.count + s] = r }
    }
    if options.gaps { (xs, columns) = TimeGaps.fill(xs, columns) }
    var lines: [Line] = []
    for (k, name) in c.seriesNames.enumerated() { lines.append(makeLine(k, key: name, values: columns[k])) }
    return ChartSet(name: title, xs: xs, lines: lines)
  }
}

import Glibc
