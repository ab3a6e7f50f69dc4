import Drawing

/// Reads the Telegram "Charts" contest format: round 1's array of charts, and round 2's
/// `overview.json` and day files (one chart object each).
public enum TelegramDecoder {
  /// Decodes every chart in `bytes`. `file` names the input in errors; `baseName` titles
  /// unnamed sets ("Chart 1", ...).
  public static func decode(_ bytes: [UInt8], file: String? = nil) throws(DataError) -> [ChartSet] {
    let root: JSONValue
    do { root = try JSONParser.parse(bytes) } catch { throw DataError(file: file, error.description) }
    switch root {
    case .array(let charts):
      if charts.isEmpty { throw DataError(file: file, "the file holds no charts (an empty array)") }
      var sets: [ChartSet] = []
      for (k, chart) in charts.enumerated() {
        sets.append(try decodeChart(chart, path: "[\(k)]", file: file, fallbackName: "Chart \(k + 1)"))
      }
      return sets
    case .object:
      return [try decodeChart(root, path: "", file: file, fallbackName: "Chart")]
    default:
      throw DataError(file: file, place: "$", "expected a chart object or an array of charts, got \(root.typeName)")
    }
  }

  static func decodeChart(_ v: JSONValue, path: String, file: String?, fallbackName: String) throws(DataError) -> ChartSet {
    func fail(_ p: String, _ m: String) -> DataError { DataError(file: file, place: p.isEmpty ? "$" : p, m) }
    guard case .object(let obj) = v else { throw fail(path, "expected a chart object, got \(v.typeName)") }
    // Other keys (some forks of the contest add their own) are ignored.
    guard let colsValue = obj["columns"] else { throw fail(path, "missing 'columns'") }
    guard case .array(let cols) = colsValue else { throw fail(path + ".columns", "expected an array, got \(colsValue.typeName)") }
    let types = try stringMap(obj["types"], path + ".types", file)
    let names = try stringMap(obj["names"], path + ".names", file)
    let colors = try stringMap(obj["colors"], path + ".colors", file)

    var xs: [Double]? = nil
    var ys: [(label: String, values: [Double], path: String)] = []
    var length: Int? = nil
    var labels = Set<String>()
    // One column is x: the others are lines.
    if cols.count - 1 > ChartSet.maxLines {
      throw fail(path + ".columns", "the chart has \(cols.count - 1) y columns; a set holds at most \(ChartSet.maxLines) lines")
    }
    for (c, col) in cols.enumerated() {
      let cp = "\(path).columns[\(c)]"
      guard case .array(let items) = col else { throw fail(cp, "expected an array, got \(col.typeName)") }
      guard case .string(let label)? = items.first else { throw fail(cp + "[0]", "expected the column's label (a string)") }
      // Labels are the lines' ids: the views key their state by them.
      guard labels.insert(label).inserted else { throw fail(cp + "[0]", "a second column labelled '\(label)' (labels must be unique)") }
      if let length, items.count - 1 != length {
        throw fail(cp, "column '\(label)' has \(items.count - 1) values, but earlier columns have \(length)")
      }
      length = items.count - 1
      let isX = types[label] == "x" || (types[label] == nil && label == "x")
      var values = [Double](repeating: .nan, count: items.count - 1)
      for k in 1..<max(1, items.count) {
        switch items[k] {
        case .number(let d) where isX && !DataLimits.isTime(d):
          throw fail("\(cp)[\(k)]", "x value \(fmt(d)) is out of range (\(DataLimits.timeRange))")
        case .number(let d) where !isX && !DataLimits.isValue(d):
          throw fail("\(cp)[\(k)]", "value \(fmt(d)) is out of range (\(DataLimits.valueRange))")
        case .number(let d): values[k - 1] = d
        case .null where !isX: values[k - 1] = .nan  // a gap
        default: throw fail("\(cp)[\(k)]", "expected a number, got \(items[k].typeName)")
        }
      }
      if isX {
        if xs != nil { throw fail(cp, "a second x column ('\(label)')") }
        for k in 1..<max(1, values.count) where !(values[k] > values[k - 1]) {
          throw fail("\(cp)[\(k + 1)]", "x values must increase (\(fmt(values[k - 1])) is followed by \(fmt(values[k])))")
        }
        xs = values
      } else {
        ys.append((label, values, cp))
      }
    }
    guard let xs else { throw fail(path + ".columns", "missing the x column (a column labelled 'x')") }
    if xs.isEmpty { throw fail(path + ".columns", "the chart has no points") }
    if ys.isEmpty { throw fail(path + ".columns", "the chart has no y columns") }

    var lines: [Line] = []
    for (k, y) in ys.enumerated() {
      let typeName = types[y.label] ?? "line"
      guard let kind = SeriesKind(rawValue: typeName) else {
        throw fail("\(path).types.\(y.label)", "unknown type '\(typeName)', expected one of: 'line', 'bar', 'area'")
      }
      var color = Palette.color(k)
      if let hex = colors[y.label] {
        guard let c = Color(hex: hex) else { throw fail("\(path).colors.\(y.label)", "bad colour '\(hex)', expected '#RRGGBB'") }
        color = c
      }
      lines.append(Line(id: y.label, name: names[y.label] ?? y.label, color: color, kind: kind, values: y.values))
    }
    var flags = SetFlags()
    for (key, target) in [("y_scaled", \SetFlags.yScaled), ("stacked", \SetFlags.stacked), ("percentage", \SetFlags.percentage)] {
      switch obj[key] {
      case nil: break
      case .bool(let b)?: flags[keyPath: target] = b
      case let other?: throw fail("\(path).\(key)", "expected true or false, got \(other.typeName)")
      }
    }
    var title = fallbackName
    if case .string(let t)? = obj["title"] { title = t }
    return ChartSet(name: title, xs: xs, lines: lines, flags: flags)
  }

  private static func stringMap(_ v: JSONValue?, _ path: String, _ file: String?) throws(DataError) -> [String: String] {
    guard let v else { return [:] }
    guard case .object(let obj) = v else { throw DataError(file: file, place: path, "expected an object, got \(v.typeName)") }
    var out: [String: String] = [:]
    for (k, item) in obj {
      guard case .string(let s) = item else { throw DataError(file: file, place: "\(path).\(k)", "expected a string, got \(item.typeName)") }
      out[k] = s
    }
    return out
  }

  private static func fmt(_ d: Double) -> String { d == d.rounded() && abs(d) < 1e17 ? String(Int64(d)) : String(d) }
}

/// Default line colours for data that names none (the contest's palette first).
public enum Palette {
  public static let colors: [Color] = [
    "#3DC23F", "#F34C44", "#3497ED", "#F5BD25", "#9ED448", "#4BD964", "#65B9AC", "#E65850",
    "#5D6AD1", "#DB8ED8", "#8E8E93", "#FF9500",
  ].compactMap { Color(hex: $0) }
  public static func color(_ i: Int) -> Color { colors[((i % colors.count) + colors.count) % colors.count] }
}
