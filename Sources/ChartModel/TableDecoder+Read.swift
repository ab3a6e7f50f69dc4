import CFastParse
import Drawing
import Glibc

/// Reading every row into columns of numbers (the bulk C path for plain rows, the general
/// reader for the rest).
extension TableDecoder {
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
  func read<S: RowSource>(_ source: inout S, into out: inout Columns, estimatedRows: Int) throws(DataError) {
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
    var dayCache = TimeParsing.dayCache()
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
    plan.iso = TimeParsing.dayCache()
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
            throw valueOutOfRange(p, n, line: line, column: valueCells[k])
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
        throw valueOutOfRange(p, n, line: line, column: column)
      }
      return v
    }
    let text = String(decoding: UnsafeBufferPointer(start: p, count: min(n, 60)), as: UTF8.self)
    throw DataError(file: file, place: "line \(line), column \(column + 1)",
      "expected a number, got '\(text)' in \(label(column)); add '\(text)' to missing, or leave the column out with columns")
  }

  /// The one error of a value cell outside the limits.
  func valueOutOfRange(_ p: UnsafePointer<UInt8>, _ n: Int, line: Int, column: Int) -> DataError {
    DataError(file: file, place: "line \(line), column \(column + 1)",
              "value '\(String(decoding: UnsafeBufferPointer(start: p, count: n), as: UTF8.self))' is out of range (\(DataLimits.valueRange))")
  }
}
