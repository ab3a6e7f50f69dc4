import Drawing

/// Builds a `ChartSet` from values given inline (`cs.data.series{}`), checking what a
/// decoder would check.
public enum InlineSeries {
  public struct LineSpec: Sendable {
    public var id: String?
    public var name: String?
    public var color: Color?
    public var kind: SeriesKind
    public var values: [Double]
    public init(id: String? = nil, name: String? = nil, color: Color? = nil, kind: SeriesKind = .line, values: [Double]) {
      self.id = id; self.name = name; self.color = color; self.kind = kind; self.values = values
    }
  }

  public static func make(name: String, xs: [Double], lines: [LineSpec]) throws(DataError) -> ChartSet {
    if xs.isEmpty { throw DataError(place: "x", "no points (x is empty)") }
    for (k, x) in xs.enumerated() where !DataLimits.isTime(x) {
      throw DataError(place: "x[\(k + 1)]", "x value \(DataLimits.format(x)) is out of range (\(DataLimits.timeRange))")
    }
    for k in 1..<max(1, xs.count) where !(xs[k] > xs[k - 1]) {
      throw DataError(place: "x[\(k + 1)]", "x values must increase")
    }
    if lines.isEmpty { throw DataError(place: "lines", "no lines") }
    if lines.count > ChartSet.maxLines { throw DataError(place: "lines", "\(lines.count) lines; a set holds at most \(ChartSet.maxLines)") }
    var seen = Set<String>()
    var out: [Line] = []
    for (k, spec) in lines.enumerated() {
      let id = spec.id ?? "y\(k)"
      if !seen.insert(id).inserted { throw DataError(place: "lines[\(k + 1)]", "duplicate line id '\(id)'") }
      if spec.values.count != xs.count {
        throw DataError(place: "lines[\(k + 1)].values", "has \(spec.values.count) values, but x has \(xs.count)")
      }
      // NaN is a gap; infinities and huge values would make the axes overflow.
      if let i = spec.values.firstIndex(where: { !$0.isNaN && !DataLimits.isValue($0) }) {
        throw DataError(place: "lines[\(k + 1)].values[\(i + 1)]", "value \(DataLimits.format(spec.values[i])) is out of range (\(DataLimits.valueRange))")
      }
      out.append(Line(id: id, name: spec.name ?? id, color: spec.color ?? Palette.color(k), kind: spec.kind, values: spec.values))
    }
    return ChartSet(name: name, xs: xs, lines: out)
  }
}
