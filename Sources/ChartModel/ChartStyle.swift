/// How a chart draws its set (round 2 of the contest): the series type, stacking,
/// percentages and two Y axes. The data gives defaults (`types`, `stacked`, `percentage`,
/// `y_scaled`); a view may override each.
public struct ChartStyle: Sendable, Equatable {
  /// The chart's type: the override, else the first line's type.
  public var type: SeriesKind
  /// Whether the type applies to every line (an override) or each line keeps its own.
  public var typeForced: Bool
  public var stacked: Bool
  public var percentage: Bool
  public var yScaled: Bool

  /// What a view asks for on top of the data (nil: as the data says).
  public struct Overrides: Sendable, Equatable {
    public var type: SeriesKind?
    public var stacked: Bool?
    public var percentage: Bool?
    public var yScaled: Bool?
    public init(type: SeriesKind? = nil, stacked: Bool? = nil, percentage: Bool? = nil, yScaled: Bool? = nil) {
      self.type = type; self.stacked = stacked; self.percentage = percentage; self.yScaled = yScaled
    }
    public var isEmpty: Bool { type == nil && stacked == nil && percentage == nil && yScaled == nil }
  }

  public init(type: SeriesKind = .line, typeForced: Bool = false, stacked: Bool = false, percentage: Bool = false, yScaled: Bool = false) {
    self.type = type; self.typeForced = typeForced; self.stacked = stacked; self.percentage = percentage; self.yScaled = yScaled
  }

  /// The style of `set` with `o` applied. A percentage chart is stacked (the contest's
  /// percentage charts are); two Y axes need two lines and no stacking.
  public static func resolve(_ set: ChartSet, _ o: Overrides = Overrides()) -> ChartStyle {
    var s = ChartStyle()
    s.type = o.type ?? set.lines.first?.kind ?? .line
    s.typeForced = o.type != nil
    s.percentage = o.percentage ?? set.flags.percentage
    s.stacked = s.percentage || (o.stacked ?? set.flags.stacked)
    s.yScaled = !s.stacked && set.lines.count >= 2 && (o.yScaled ?? set.flags.yScaled)
    return s
  }

  /// The style as a short text, for cache keys (string interpolation of the struct itself
  /// goes through reflection, a cost in every frame).
  public var key: String { "\(type.rawValue) \(typeForced) \(stacked) \(percentage) \(yScaled)" }

  /// How one line is drawn: stacked charts draw every line in the chart's type; otherwise
  /// each line keeps its own type unless the view forces one.
  public func kind(of line: Line) -> SeriesKind { stacked || typeForced ? type : line.kind }

  /// True when the plain line chart of round 1 is all there is to draw.
  public func isPlainLines(_ set: ChartSet) -> Bool {
    !stacked && !yScaled && set.lines.allSatisfy { kind(of: $0) == .line }
  }

  /// True when any line is drawn as bars (their columns need whole slots at the axis's ends).
  public func drawsBars(_ set: ChartSet) -> Bool {
    stacked ? type == .bar : set.lines.contains { kind(of: $0) == .bar }
  }

  /// True when the axis must start at 0 (bars and areas grow from it).
  public func startsAtZero(_ set: ChartSet) -> Bool {
    stacked || set.lines.contains { kind(of: $0) != .line }
  }
}

/// Stacked sums and shares: each line's value weighted by its opacity (1 shown, 0 hidden;
/// between while it fades), so hiding a line shrinks the stack smoothly.
///
/// Stacks diverge: positive values stack up from 0 and negative values down from 0, each in
/// line order, so a negative value is drawn below the axis at its real size (never as 0).
/// Percentage charts are shares of a whole and take values of 0 or more (cs.chart refuses
/// negatives; data that changes later counts them as 0). Gaps: a stacked area, line or
/// percentage chart breaks at a point where a shown line has no value (its shape is not
/// drawn across it, and no share is made of a partial total); stacked bars leave the missing
/// segment out and stack the others as they are (the column's total is the total of the
/// values that exist).
public enum Stacking {
  /// The value at point i (NaN for a gap).
  @inline(__always) static func raw(_ line: Line, _ i: Int) -> Double {
    i < line.values.count ? line.values[i] : .nan
  }

  /// The value that counts for shares (a gap counts as 0, negatives as 0).
  @inline(__always) static func v(_ line: Line, _ i: Int) -> Double {
    let x = raw(line, i)
    return x > 0 ? x : 0
  }

  /// True when a shown line (weight above 0) has no value at point i.
  public static func hasGap(_ lines: [Line], weights: [Double], at i: Int) -> Bool {
    for (k, line) in lines.enumerated() where weights[k] > 0 && raw(line, i).isNaN { return true }
    return false
  }

  /// The sum of the weighted magnitudes at point i (gaps count 0): how much ink a column holds.
  public static func total(_ lines: [Line], weights: [Double], at i: Int) -> Double {
    var s = 0.0
    for (k, line) in lines.enumerated() {
      let x = raw(line, i)
      if !x.isNaN { s += abs(x) * weights[k] }
    }
    return s
  }

  /// The lower and upper edge of every line at point i, bottom line first. Stacked: positives
  /// up from 0, negatives down from 0 (diverging); percentage: running shares in percent
  /// (0–100) of the non-negative values. `breakOnGap`: every edge is NaN when a shown line has
  /// a gap at i (areas, lines, percentages); otherwise only the missing line's edges are NaN
  /// and the others stack without it (bars).
  public static func bounds(_ lines: [Line], weights: [Double], at i: Int, percentage: Bool,
                            breakOnGap: Bool) -> [(lo: Double, hi: Double)] {
    let gap = (lo: Double.nan, hi: Double.nan)
    if (breakOnGap || percentage) && hasGap(lines, weights: weights, at: i) {
      return [(lo: Double, hi: Double)](repeating: gap, count: lines.count)
    }
    var out: [(lo: Double, hi: Double)] = []
    out.reserveCapacity(lines.count)
    if percentage {
      var s = 0.0
      var tops = [Double](repeating: 0, count: lines.count)
      for (k, line) in lines.enumerated() { s += v(line, i) * weights[k]; tops[k] = s }
      for k in tops.indices {
        let hi = s > 0 ? tops[k] / s * 100 : 0
        let lo = k == 0 ? 0 : (s > 0 ? tops[k - 1] / s * 100 : 0)
        out.append((lo, hi))
      }
      return out
    }
    var up = 0.0, down = 0.0
    for (k, line) in lines.enumerated() {
      let x = raw(line, i)
      if x.isNaN { out.append(gap); continue }
      let d = x * weights[k]
      if d >= 0 { out.append((up, up + d)); up += d } else { out.append((down + d, down)); down += d }
    }
    return out
  }

  /// Each line's share of the weighted total at point i, in percent (0 for all when the
  /// total is 0; a gap and a negative count as 0), as a pie shows it.
  public static func shares(_ lines: [Line], weights: [Double], at i: Int) -> [Double] {
    var total = 0.0
    for (k, line) in lines.enumerated() { total += v(line, i) * weights[k] }
    return lines.enumerated().map { k, line in total > 0 ? v(line, i) * weights[k] / total * 100 : 0 }
  }

  /// The shares of a percentage chart at point i, or nil when a shown line has a gap there
  /// (a share of a partial total would be wrong).
  public static func sharesOrNil(_ lines: [Line], weights: [Double], at i: Int) -> [Double]? {
    hasGap(lines, weights: weights, at: i) ? nil : shares(lines, weights: weights, at: i)
  }

  /// The lowest and highest stacked edge over an index range (0 included; nil for an empty
  /// range): the Y range of a diverging stack.
  public static func extent(_ lines: [Line], weights: [Double], in idx: Range<Int>) -> ValueRange? {
    guard !idx.isEmpty else { return nil }
    var lo = 0.0, hi = 0.0
    for i in idx {
      var up = 0.0, down = 0.0
      for (k, line) in lines.enumerated() {
        let x = raw(line, i)
        guard !x.isNaN else { continue }
        if x >= 0 { up += x * weights[k] } else { down += x * weights[k] }
      }
      lo = min(lo, down); hi = max(hi, up)
    }
    return ValueRange(lo, hi)
  }

  /// The upper edge of every line at point i, bottom line first (`bounds`' upper edges, gaps
  /// leaving a line out).
  public static func tops(_ lines: [Line], weights: [Double], at i: Int, percentage: Bool) -> [Double] {
    bounds(lines, weights: weights, at: i, percentage: percentage, breakOnGap: false).map(\.hi)
  }

  /// The first negative value of any line (its line and index), for refusing a percentage chart.
  public static func firstNegative(_ lines: [Line]) -> (line: Line, index: Int)? {
    for line in lines {
      if let i = line.values.firstIndex(where: { $0 < 0 }) { return (line, i) }
    }
    return nil
  }
}

extension ChartSet {
  /// Weights for stacking: 1 for shown lines, 0 for hidden ones.
  public func visibilityWeights(hidden h: Set<String>? = nil) -> [Double] {
    let h = h ?? hidden
    return lines.map { h.contains($0.id) ? 0 : 1 }
  }

  /// The points a window shows as columns centred on their times: those inside it, and a
  /// neighbour whose column reaches into it.
  public func columnIndices(in w: TimeWindow) -> Range<Int> {
    guard spanMs > 0 else { return 0..<count }
    let half = typicalStepMs / 2 / spanMs
    var idx = indices(in: TimeWindow(w.lo - half, w.hi + half))
    if idx.isEmpty { idx = drawIndices(in: w) }
    return idx
  }

  /// What a chart of `style` needs its left Y axis to hold in window w (hidden lines out):
  /// the stacked sums (from 0) for stacked charts, 0–100 for percentages, the first line for
  /// two axes, everything drawn otherwise (from 0 when bars or areas are drawn).
  public func axisRange(_ style: ChartStyle, in w: TimeWindow? = nil, hidden h: Set<String>? = nil) -> ValueRange? {
    let w = w ?? window
    let h = h ?? hidden
    if style.percentage { return ValueRange(0, 100) }
    if style.stacked {
      guard lines.contains(where: { !h.contains($0.id) }) else { return nil }
      let idx = style.type == .bar ? columnIndices(in: w) : drawIndices(in: w)
      return Stacking.extent(lines, weights: visibilityWeights(hidden: h), in: idx).map(ChartSet.upFromZero)
    }
    if style.yScaled {
      // The left axis is the first line's, kept while the line is hidden (the axis fades).
      return lineRange(lines[0], in: w, hidden: [], fromZero: style.kind(of: lines[0]) != .line)
    }
    guard var r = drawnRange(in: w, hidden: h) else { return nil }
    if style.startsAtZero(self) {
      r.min = Swift.min(0, r.min)
      r.max = Swift.max(0, r.max)
      r = ChartSet.upFromZero(r)
    }
    return r
  }

  /// Bars and stacks of nothing but zeros stand on an axis from 0 up (0–1), not on one
  /// centred on their zero line (−1…1).
  static func upFromZero(_ r: ValueRange) -> ValueRange { r.min == 0 && r.max == 0 ? ValueRange(0, 1) : r }

  /// The right axis of a two-axis chart: the lines after the first.
  public func rightAxisRange(_ style: ChartStyle, in w: TimeWindow? = nil, hidden h: Set<String>? = nil) -> ValueRange? {
    guard style.yScaled, lines.count > 1 else { return nil }
    let w = w ?? window
    var out: ValueRange?
    for line in lines.dropFirst() {
      guard let r = lineRange(line, in: w, hidden: h ?? hidden, fromZero: style.kind(of: line) != .line) else { continue }
      out = out.map { ValueRange(Swift.min($0.min, r.min), Swift.max($0.max, r.max)) } ?? r
    }
    return out
  }

  /// One line's drawn range in a window, or nil when it is hidden or has no values there.
  func lineRange(_ line: Line, in w: TimeWindow, hidden h: Set<String>, fromZero: Bool) -> ValueRange? {
    guard !h.contains(line.id) else { return nil }
    var idx = indices(in: w)
    if idx.isEmpty { idx = drawIndices(in: w) }
    guard var r = ChartSet.range(of: [line], in: idx) else { return nil }
    for t in [time(atFraction: w.lo), time(atFraction: w.hi)] {
      if let v = interpolatedValue(line, atTime: t) { r.min = Swift.min(r.min, v); r.max = Swift.max(r.max, v) }
    }
    if fromZero { r.min = Swift.min(0, r.min); r.max = Swift.max(0, r.max) }
    return r
  }

  /// Min and max of the visible lines' shares (percent of the shown lines' total) over the
  /// points inside a window: a percentage chart's `dataRange`.
  public func shareRange(in w: TimeWindow? = nil) -> ValueRange? {
    let w = w ?? window
    var idx = indices(in: w)
    if idx.isEmpty { idx = drawIndices(in: w) }
    let weights = visibilityWeights()
    var lo = Double.infinity, hi = -Double.infinity
    for i in idx {
      guard let shares = Stacking.sharesOrNil(lines, weights: weights, at: i) else { continue }
      for (k, share) in shares.enumerated() where weights[k] > 0 {
        lo = Swift.min(lo, share); hi = Swift.max(hi, share)
      }
    }
    return lo <= hi ? ValueRange(lo, hi) : nil
  }

  /// `drawnRange` for a given hidden set.
  func drawnRange(in w: TimeWindow, hidden h: Set<String>) -> ValueRange? {
    if h == hidden { return drawnRange(in: w) }
    var idx = indices(in: w)
    if idx.isEmpty { idx = drawIndices(in: w) }
    let shown = lines.filter { !h.contains($0.id) }
    guard var r = ChartSet.range(of: shown, in: idx) else { return nil }
    for line in shown {
      for t in [time(atFraction: w.lo), time(atFraction: w.hi)] {
        if let v = interpolatedValue(line, atTime: t) { r.min = Swift.min(r.min, v); r.max = Swift.max(r.max, v) }
      }
    }
    return r
  }
}
