import Drawing

extension ChartSet {
  /// The most lines a set may hold, from any reader (CSV, JSON records, contest JSON,
  /// `cs.data.series`): every frame lays out, draws and animates each line (a legend chip,
  /// a polyline, a fade).
  public static let maxLines = 1000

  /// The bytes the set holds: its columns (8 bytes a value), each line's min/max pyramid
  /// (about a byte a value, plus 16 bytes a gap), names and ids, and a little for each line
  /// (its entries in the index) and the set itself. What the set is charged against
  /// `--max-memory`.
  public var footprint: Int {
    var bytes = 1024 + name.utf8.count + xs.count * 8
    for line in lines { bytes += 256 + line.id.utf8.count + line.name.utf8.count + line.values.count * 8 }
    for p in pyramids { bytes += p.byteCount }
    return bytes
  }

  /// Throws when the set's name or a line's id or name is longer than `TextLimits.maxBytes`
  /// (they are drawn in titles, legends and tooltips, in every frame).
  public func checkTextLengths(file: String?) throws(DataError) {
    func check(_ text: String, _ what: String) throws(DataError) {
      let n = text.utf8.count
      guard n <= TextLimits.maxBytes else {
        throw DataError(file: file, "\(what) is \(n) bytes long (at most \(TextLimits.maxBytes))")
      }
    }
    try check(name, "the name of the chart")
    for (k, line) in lines.enumerated() {
      try check(line.id, "the id of line \(k + 1)")
      try check(line.name, "the name of line '\(TextLimits.clipped(line.id))'")
    }
  }
}
