import Drawing

/// Reads a CSV table: a header row, then one row per point. The first column is the time
/// (ISO-8601 date or date-time, or UNIX seconds or milliseconds); every other column is a
/// line. Empty cells are gaps.
public enum CSVDecoder {
  public struct Options: Sendable {
    public var name: String?
    public var delimiter: UInt8 = UInt8(ascii: ",")
    public var colors: [Color] = []
    public init(name: String? = nil, delimiter: UInt8 = UInt8(ascii: ","), colors: [Color] = []) {
      self.name = name; self.delimiter = delimiter; self.colors = colors
    }
  }

  public static func decode(_ bytes: [UInt8], file: String? = nil, options: Options = Options()) throws(DataError) -> ChartSet {
    let rows = try parseRows(bytes, delimiter: options.delimiter, file: file)
    guard let header = rows.first else { throw DataError(file: file, "the file is empty") }
    guard header.cells.count >= 2 else {
      throw DataError(file: file, place: "line \(header.line)", "expected a header with a time column and at least one value column")
    }
    let body = rows.dropFirst()
    guard !body.isEmpty else { throw DataError(file: file, "the file has a header but no rows") }
    var times: [Double] = []
    var columns = [[Double]](repeating: [], count: header.cells.count - 1)
    // All-numeric time columns are UNIX seconds, or milliseconds when large.
    let numericTimes = body.allSatisfy { Double($0.cells[0].trimmed) != nil }
    let inMs = numericTimes && body.contains { (Double($0.cells[0].trimmed) ?? 0) > 1e11 }
    for row in body {
      guard row.cells.count == header.cells.count else {
        throw DataError(file: file, place: "line \(row.line)", "expected \(header.cells.count) cells, got \(row.cells.count)")
      }
      let cell = row.cells[0].trimmed
      let t: Double
      if numericTimes {
        guard let d = Double(cell), d.isFinite else { throw DataError(file: file, place: "line \(row.line)", "bad time '\(cell)'") }
        t = inMs ? d : d * 1000
      } else {
        guard let ms = ISODate.parseMs(cell) else {
          throw DataError(file: file, place: "line \(row.line)", "bad time '\(cell)' (expected YYYY-MM-DD, YYYY-MM-DDTHH:MM[:SS][Z] or UNIX seconds)")
        }
        t = ms
      }
      guard DataLimits.isTime(t) else {
        throw DataError(file: file, place: "line \(row.line)", "time '\(cell)' is out of range (\(DataLimits.timeRange))")
      }
      if let last = times.last, !(t > last) {
        throw DataError(file: file, place: "line \(row.line)", "times must increase ('\(cell)' is not after the previous row)")
      }
      times.append(t)
      for c in 1..<row.cells.count {
        let s = row.cells[c].trimmed
        if s.isEmpty { columns[c - 1].append(.nan); continue }
        guard let v = Double(s), v.isFinite else {
          throw DataError(file: file, place: "line \(row.line), column \(c + 1)", "expected a number, got '\(s)'")
        }
        guard DataLimits.isValue(v) else {
          throw DataError(file: file, place: "line \(row.line), column \(c + 1)", "value '\(s)' is out of range (\(DataLimits.valueRange))")
        }
        columns[c - 1].append(v)
      }
    }
    var lines: [Line] = []
    for (k, values) in columns.enumerated() {
      let name = header.cells[k + 1].trimmed
      let color = k < options.colors.count ? options.colors[k] : Palette.color(k)
      lines.append(Line(id: "y\(k)", name: name.isEmpty ? "y\(k)" : name, color: color, values: values))
    }
    let title = options.name ?? file.map(baseName) ?? "Data"
    return ChartSet(name: title, xs: times, lines: lines)
  }

  struct Row { var cells: [String]; var line: Int }

  static func parseRows(_ bytes: [UInt8], delimiter: UInt8, file: String?) throws(DataError) -> [Row] {
    var rows: [Row] = []
    var cells: [String] = []
    var cell: [UInt8] = []
    var i = 0, line = 1, rowLine = 1
    var inQuotes = false
    func endCell() { cells.append(String(decoding: cell, as: UTF8.self)); cell.removeAll(keepingCapacity: true) }
    func endRow() {
      endCell()
      if !(cells.count == 1 && cells[0].trimmed.isEmpty) { rows.append(Row(cells: cells, line: rowLine)) }
      cells.removeAll()
    }
    if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { i = 3 }
    while i < bytes.count {
      let b = bytes[i]
      if inQuotes {
        if b == UInt8(ascii: "\"") {
          if i + 1 < bytes.count, bytes[i + 1] == UInt8(ascii: "\"") { cell.append(b); i += 1 } else { inQuotes = false }
        } else {
          if b == 10 { line += 1 }
          cell.append(b)
        }
      } else if b == UInt8(ascii: "\"") && cell.isEmpty {
        inQuotes = true
      } else if b == delimiter {
        endCell()
      } else if b == 10 || b == 13 {
        if b == 13, i + 1 < bytes.count, bytes[i + 1] == 10 { i += 1 }
        endRow()
        line += 1
        rowLine = line
      } else {
        cell.append(b)
      }
      i += 1
    }
    if inQuotes { throw DataError(file: file, place: "line \(rowLine)", "unterminated quoted cell") }
    if !cell.isEmpty || !cells.isEmpty { endRow() }
    return rows
  }

  public static func baseName(_ path: String) -> String {
    var name = path.split(separator: "/").last.map(String.init) ?? path
    if let dot = name.lastIndex(of: "."), dot != name.startIndex { name = String(name[..<dot]) }
    return name
  }
}

extension String {
  var trimmed: String {
    var s = Substring(self)
    while let f = s.first, f == " " || f == "\t" { s = s.dropFirst() }
    while let l = s.last, l == " " || l == "\t" { s = s.dropLast() }
    return String(s)
  }
}
