import Drawing

/// How a series is drawn.
public enum SeriesKind: String, Sendable, CaseIterable { case line, bar, area }

/// One data series: aligned with the set's x column. `NaN` marks a gap.
public struct Line: Sendable, Equatable {
  public let id: String
  public let name: String
  public let color: Color
  public let kind: SeriesKind
  public let values: [Double]
  public init(id: String, name: String, color: Color, kind: SeriesKind = .line, values: [Double]) {
    self.id = id; self.name = name; self.color = color; self.kind = kind; self.values = values
  }
}

/// The visible part of the time axis as fractions 0...1 (the article's lowerBound/upperBound).
public struct TimeWindow: Sendable, Equatable {
  public var lo: Double
  public var hi: Double
  public init(_ lo: Double, _ hi: Double) { self.lo = lo; self.hi = hi }
  public static let all = TimeWindow(0, 1)
  public var width: Double { hi - lo }
}

/// `min, max` of some values.
public struct ValueRange: Sendable, Equatable {
  public var min: Double
  public var max: Double
  public init(_ min: Double, _ max: Double) { self.min = min; self.max = max }
}

/// The values of every line at one point of the x axis.
public struct PointValues: Sendable, Equatable {
  public var index: Int
  public var timeMs: Double
  /// In line order; NaN for a gap.
  public var values: [(id: String, value: Double)]
  public static func == (a: PointValues, b: PointValues) -> Bool {
    a.index == b.index && a.timeMs == b.timeMs && a.values.map(\.id) == b.values.map(\.id)
      && zip(a.values, b.values).allSatisfy { $0.value == $1.value || ($0.value.isNaN && $1.value.isNaN) }
  }
}

/// Options that describe how a set was meant to be drawn (round 2 of the contest).
public struct SetFlags: Sendable, Equatable {
  public var yScaled = false
  public var stacked = false
  public var percentage = false
  public init(yScaled: Bool = false, stacked: Bool = false, percentage: Bool = false) {
    self.yScaled = yScaled; self.stacked = stacked; self.percentage = percentage
  }
}

/// A chart data set: one x column (UNIX milliseconds, increasing) and aligned y columns,
/// plus the view state the contest shares between views of the same set: the time window
/// and the hidden lines. A class on purpose: two views of one set stay in sync.
public final class ChartSet {
  public let name: String
  public let xs: [Double]
  public let lines: [Line]
  public let flags: SetFlags
  /// The narrowest window `setRange` allows, as a fraction of the axis.
  public let minimumWindowWidth: Double

  public private(set) var window: TimeWindow = .all
  public private(set) var hidden: Set<String> = []
  /// One min/max pyramid per line (in line order), built here once: see `MinMaxPyramid`.
  public let pyramids: [MinMaxPyramid]
  /// Where each line is in `lines`, by id and by name (the first line with it): a line is
  /// found in constant time, so a frame costs what its lines cost, not their square.
  private let indexByID: [String: Int]
  private let indexByName: [String: Int]
  /// Polylines kept from frame to frame by what they depend on (the mini-map's whole axis).
  private var memo: [String: [[Point]]] = [:]
  /// Round 2's zoom into a day (DayZoom.swift): where the day files are, the day shown,
  /// the details read so far, and who is told of each file read.
  public var dayFiles: DayFiles?
  public internal(set) var zoom: DayZoom?
  var details: [String: ChartSet] = [:]
  public var onRead: ((String) -> Void)?

  public init(name: String, xs: [Double], lines: [Line], flags: SetFlags = SetFlags()) {
    self.name = name
    self.xs = xs
    self.lines = lines
    self.flags = flags
    self.pyramids = lines.map { MinMaxPyramid($0.values) }
    var byID: [String: Int] = [:], byName: [String: Int] = [:]
    byID.reserveCapacity(lines.count)
    for (k, line) in lines.enumerated() {
      if byID[line.id] == nil { byID[line.id] = k }
      if byName[line.name] == nil { byName[line.name] = k }
    }
    self.indexByID = byID
    self.indexByName = byName
    // At least two points (or 1 % of the axis) stay visible.
    self.minimumWindowWidth = xs.count > 1 ? max(0.01, min(1, 2 / Double(xs.count - 1))) : 1
  }

  /// What the times know (years, quarters, months, dates, times of day): the poster says
  /// no more than this. Found once, when first asked.
  public private(set) lazy var precision: TimePrecision = TimePrecision.of(xs)

  /// The precision of the times as wall-clock times in `zone` (found once per zone).
  public func precision(in zone: ChartTimeZone) -> TimePrecision {
    if zone.isUTC { return precision }
    if let p = zonedPrecision, p.zone == zone.id { return p.precision }
    let p = TimePrecision.of(xs.map(zone.local))
    zonedPrecision = (zone.id, p)
    return p
  }
  private var zonedPrecision: (zone: String, precision: TimePrecision)?

  public var count: Int { xs.count }
  public var firstMs: Double { xs.first ?? 0 }
  public var lastMs: Double { xs.last ?? 0 }
  public var spanMs: Double { lastMs - firstMs }

  public func line(id: String) -> Line? { index(ofLine: id).map { lines[$0] } }
  /// Where the line with this id is in `lines` (constant time).
  public func index(ofLine id: String) -> Int? { indexByID[id] }
  /// The id of the line whose id, else whose name, is `key` (CSV and JSON lines are named
  /// after their columns or series).
  public func lineID(for key: String) -> String? {
    if let k = indexByID[key] { return lines[k].id }
    return indexByName[key].map { lines[$0].id }
  }
  public func isHidden(_ id: String) -> Bool { hidden.contains(id) }
  public var visibleLines: [Line] { lines.filter { !hidden.contains($0.id) } }

  // MARK: - State

  /// Moves the window. The bounds are clamped to 0...1 and widened to the minimum width.
  public func setRange(_ lo: Double, _ hi: Double) {
    window = ChartSet.clampedWindow(lo, hi, minimumWidth: minimumWindowWidth)
  }

  /// The window `setRange(lo, hi)` would produce.
  public static func clampedWindow(_ lo: Double, _ hi: Double, minimumWidth: Double) -> TimeWindow {
    var lo = max(0, min(1, lo)), hi = max(0, min(1, hi))
    if hi < lo { swap(&lo, &hi) }
    if hi - lo < minimumWidth {
      let mid = (lo + hi) / 2
      lo = max(0, min(1 - minimumWidth, mid - minimumWidth / 2))
      hi = lo + minimumWidth
    }
    return TimeWindow(lo, hi)
  }

  public func setHidden(_ id: String, _ isHidden: Bool) {
    if isHidden { hidden.insert(id) } else { hidden.remove(id) }
  }

  // MARK: - Time ↔ index

  /// The time at a fraction of the axis.
  public func time(atFraction f: Double) -> Double { firstMs + f * spanMs }
  /// The fraction of the axis at a time.
  public func fraction(atTime t: Double) -> Double { spanMs > 0 ? (t - firstMs) / spanMs : 0 }

  /// Indices of the points whose time lies inside the window (may be empty when the window
  /// falls between two points).
  public func indices(in w: TimeWindow) -> Range<Int> {
    let tLo = time(atFraction: w.lo), tHi = time(atFraction: w.hi)
    let a = lowerBound(tLo - 1e-6), b = upperBound(tHi + 1e-6)
    return a..<max(a, b)
  }

  /// Indices to draw for a window: the points inside it plus one on each side, so lines
  /// run to the edges of the plot.
  public func drawIndices(in w: TimeWindow) -> Range<Int> {
    guard !xs.isEmpty else { return 0..<0 }
    let inside = indices(in: w)
    return max(0, inside.lowerBound - 1)..<min(xs.count, inside.upperBound + 1)
  }

  /// Index of the point nearest to a time.
  public func nearestIndex(toTime t: Double) -> Int {
    guard !xs.isEmpty else { return 0 }
    let i = lowerBound(t)
    if i >= xs.count { return xs.count - 1 }
    if i == 0 { return 0 }
    return (t - xs[i - 1]) <= (xs[i] - t) ? i - 1 : i
  }

  private func lowerBound(_ t: Double) -> Int {
    var lo = 0, hi = xs.count
    while lo < hi { let m = (lo + hi) / 2; if xs[m] < t { lo = m + 1 } else { hi = m } }
    return lo
  }
  private func upperBound(_ t: Double) -> Int {
    var lo = 0, hi = xs.count
    while lo < hi { let m = (lo + hi) / 2; if xs[m] <= t { lo = m + 1 } else { hi = m } }
    return lo
  }

  // MARK: - Values

  /// Exact min and max over the points of the visible lines inside the window; nil when
  /// every line is hidden or there are no values.
  public func dataRange(in w: TimeWindow? = nil, hidden h: Set<String>? = nil) -> ValueRange? {
    let w = w ?? window
    let h = h ?? hidden
    var idx = indices(in: w)
    if idx.isEmpty {
      // The window lies between two points: use its neighbours.
      idx = drawIndices(in: w)
    }
    return valueRange(of: lines.filter { !h.contains($0.id) }, in: idx)
  }

  /// The line's value at time t, interpolated between its neighbouring points (nil in a
  /// gap or outside the axis).
  public func interpolatedValue(_ line: Line, atTime t: Double) -> Double? {
    guard !xs.isEmpty, t >= firstMs, t <= lastMs else { return nil }
    let i = min(max(0, lowerBound(t)), xs.count - 1)
    if xs[i] == t || i == 0 { return line.values[i].isNaN ? nil : line.values[i] }
    let a = line.values[i - 1], b = line.values[i]
    guard !a.isNaN, !b.isNaN else { return nil }
    return a + (b - a) * (t - xs[i - 1]) / (xs[i] - xs[i - 1])
  }

  /// What the plot shows of the visible lines in a window: `dataRange` widened by the
  /// lines' values where they cross the window's edges.
  public func drawnRange(in w: TimeWindow? = nil) -> ValueRange? {
    let w = w ?? window
    guard var r = dataRange(in: w) else { return nil }
    for line in visibleLines {
      for t in [time(atFraction: w.lo), time(atFraction: w.hi)] {
        if let v = interpolatedValue(line, atTime: t) { r.min = Swift.min(r.min, v); r.max = Swift.max(r.max, v) }
      }
    }
    return r
  }

  /// Min and max of the given lines over an index range (gaps skipped).
  public static func range(of lines: [Line], in idx: Range<Int>) -> ValueRange? {
    var lo = Double.infinity, hi = -Double.infinity
    for line in lines {
      let vs = line.values
      for i in idx where i < vs.count {
        let v = vs[i]
        if v < lo { lo = v }
        if v > hi { hi = v }
      }
    }
    return lo <= hi ? ValueRange(lo, hi) : nil
  }

  /// Min and max of the given lines (of this set) over an index range, gaps skipped: from
  /// the pyramids, O(lines × log n).
  public func valueRange(of lines: [Line], in idx: Range<Int>) -> ValueRange? {
    var lo = Double.infinity, hi = -Double.infinity
    for line in lines {
      guard let r = pyramid(for: line)?.minMax(idx) ?? ChartSet.range(of: [line], in: idx).map({ ($0.min, $0.max) }) else { continue }
      lo = Swift.min(lo, r.min); hi = Swift.max(hi, r.max)
    }
    return lo <= hi ? ValueRange(lo, hi) : nil
  }

  /// The pyramid of one of this set's lines (by id).
  public func pyramid(for line: Line) -> MinMaxPyramid? {
    guard let k = indexByID[line.id], pyramids[k].count == line.values.count else { return nil }
    return pyramids[k]
  }

  /// What a chart draws of a line over some indices: polylines in pixel space with at most
  /// four vertices per pixel column (first, min, max, last), split at gaps. Up to 4,096
  /// points every point is kept; above, the columns come from the line's pyramid, so the
  /// cost grows with the pixel columns, not with the points. `xToPixel` must not decrease.
  public func polylines(for line: Line, indices: Range<Int>,
                        xToPixel: (Double) -> Double, yToPixel: (Double) -> Double) -> [[Point]] {
    if indices.count > Decimation.exactLimit, let p = pyramid(for: line) {
      return p.polylines(xs: xs, indices: indices, xToPixel: xToPixel, yToPixel: yToPixel)
    }
    return Decimation.polylines(xs: xs, ys: line.values, indices: indices, xToPixel: xToPixel, yToPixel: yToPixel)
  }

  /// `make()`, or what it returned last time for the same key (a few keys are kept).
  public func memoized(_ key: String, _ make: () -> [[Point]]) -> [[Point]] {
    if let hit = memo[key] { return hit }
    let value = make()
    if memo.count >= 16 { memo.removeAll() }
    memo[key] = value
    return value
  }

  /// The values at the point nearest to a fraction of the axis.
  public func values(atFraction f: Double) -> PointValues? {
    guard !xs.isEmpty else { return nil }
    let i = nearestIndex(toTime: time(atFraction: f))
    return PointValues(index: i, timeMs: xs[i], values: lines.map { ($0.id, i < $0.values.count ? $0.values[i] : .nan) })
  }

  /// Typical spacing of the x column (median step), in ms; 1 day when unknown.
  public var typicalStepMs: Double {
    guard xs.count > 1 else { return 86_400_000 }
    var steps: [Double] = []
    let stride = max(1, (xs.count - 1) / 64)
    var i = 1
    while i < xs.count { steps.append(xs[i] - xs[i - 1]); i += stride }
    steps.sort()
    let m = steps[steps.count / 2]
    return m > 0 ? m : max(1, spanMs / Double(xs.count - 1))
  }
}
