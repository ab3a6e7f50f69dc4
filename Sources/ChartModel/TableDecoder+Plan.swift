import CFastParse
import Drawing

/// The plan: which column is the time and in which format, which columns are lines (or
/// the series of long data), found from the header and the first rows.
extension TableDecoder {
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
      notes.append("\(prefix)read \(label(timeCell)) (numbers like \(info[timeCell].example)) as years, a guess; pass timeFormat = \"%Y\" to say so" + (options.x == nil ? ", or x = the time column" : ""))
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
    // A column named as the time reads whole numbers 1000–2999 written as floats (`1749.0`,
    // as pandas writes years) as years, as a guess does: naming it never reads it worse.
    if let f = TimeParsing.detect(info[c].samples, numbersAreTimes: explicit, floatYears: explicit) { return f }
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
}
