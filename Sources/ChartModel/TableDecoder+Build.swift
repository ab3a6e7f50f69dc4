import CFastParse
import Drawing
import Glibc

/// The set: the columns sorted by time, repeated times checked, gaps where regular steps
/// miss a row, long data split into lines.
extension TableDecoder {
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
        let perm = TableDecoder.stableOrder(times)
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
    let order = TableDecoder.stableOrder(c.times)
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

  /// The rows in time order, rows of equal times kept in file order (a stable sort).
  static func stableOrder(_ times: [Double]) -> [Int] {
    (0..<times.count).sorted { times[$0] < times[$1] || (times[$0] == times[$1] && $0 < $1) }
  }
}
