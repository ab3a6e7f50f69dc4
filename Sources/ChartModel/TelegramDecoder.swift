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

/// Default line colours for data that names none. The first twelve: the contest's green,
/// red, blue, yellow, teal, pink and grey, then five chosen so that no two of the twelve are
/// closer than ΔE 20 (CIEDE2000; PaletteTests measures it). The contest's #4BD964, #E65850,
/// #9ED448, #5D6AD1 and #FF9500 were 2.9–12 from others and are gone. Beyond twelve, colours are
/// generated (golden-angle hues at three lightnesses), never repeated, the same on every run.
public enum Palette {
  public static let colors: [Color] = [
    "#3DC23F", "#F34C44", "#3497ED", "#F5BD25", "#65B9AC", "#DB8ED8", "#8E8E93", "#6611FF",
    "#775500", "#006655", "#AA2266", "#557711",
  ].compactMap { Color(hex: $0) }

  public static func color(_ i: Int) -> Color {
    let k = i.magnitude
    if k < UInt(colors.count) { return colors[Int(k)] }
    let n = Double(k - UInt(colors.count))
    let hue = (n * 137.507_764_05 + 20).truncatingRemainder(dividingBy: 360)
    let light = [0.50, 0.36, 0.64][Int((k - UInt(colors.count)) % 3)]
    return hsl(hue, 0.62, light)
  }

  /// An opaque colour from hue (degrees), saturation and lightness (0–1), rounded to 8 bits.
  static func hsl(_ h: Double, _ s: Double, _ l: Double) -> Color {
    let c = (1 - abs(2 * l - 1)) * s
    let hp = h / 60
    let x = c * (1 - abs(hp.truncatingRemainder(dividingBy: 2) - 1))
    let (r, g, b): (Double, Double, Double) =
      hp < 1 ? (c, x, 0) : hp < 2 ? (x, c, 0) : hp < 3 ? (0, c, x) : hp < 4 ? (0, x, c) : hp < 5 ? (x, 0, c) : (c, 0, x)
    let m = l - c / 2
    func byte(_ v: Double) -> Double { ((v + m) * 255).rounded() / 255 }
    return Color(r: byte(r), g: byte(g), b: byte(b), a: 1)
  }
}
