#if canImport(Glibc)
import Glibc
#endif

/// A calendar time scale for the X axis, after d3's `scaleTime` and matplotlib's
/// `ConciseDateFormatter`: ticks at round UTC instants (1, 5, 15, 30 s; 1, 5, 15, 30 min;
/// 1, 3, 6, 12 h; 1, 2 days; 1, 2 weeks; 1, 3 months; 1, 2, 5, 10, 20, 50… years), anchored to
/// the calendar (they stay put while the window pans) and labelled by level: `14:00`, the
/// date at midnight (`Apr 3`), the month at a month start (`Apr`), the year at a year start
/// (`2019`).
public struct TimeInterval: Sendable, Hashable, CustomStringConvertible {
  public enum Unit: String, Sendable, Hashable, CaseIterable {
    case second, minute, hour, day, week, month, year
    /// The unit's place in `allCases`.
    var index: Int {
      switch self {
      case .second: return 0
      case .minute: return 1
      case .hour: return 2
      case .day: return 3
      case .week: return 4
      case .month: return 5
      case .year: return 6
      }
    }
  }
  public var unit: Unit
  public var count: Int
  public init(_ unit: Unit, _ count: Int) { self.unit = unit; self.count = count }

  public var description: String { "\(count) \(unit.rawValue)\(count == 1 ? "" : "s")" }

  static let msSecond = 1000.0, msMinute = 60_000.0, msHour = 3_600_000.0, msDay = 86_400_000.0

  /// The interval's length in ms for fixed units; the shortest length for months and years.
  public var minimumMs: Double {
    switch unit {
    case .second: return Double(count) * Self.msSecond
    case .minute: return Double(count) * Self.msMinute
    case .hour: return Double(count) * Self.msHour
    case .day: return Double(count) * Self.msDay
    case .week: return Double(count) * 7 * Self.msDay
    case .month: return Double(count == 1 ? 28 : count * 30 - 2) * Self.msDay
    case .year: return Double(count * 365) * Self.msDay
    }
  }

  /// Whether every tick of `self` is also a tick of `finer` (so `finer`'s extra ticks can
  /// fade in between without moving the others).
  public func isNested(in finer: TimeInterval) -> Bool {
    TimeScale.floor(0, self) == 0 && TimeScale.ticks(from: -minimumMs * 3, to: minimumMs * 40, self).allSatisfy { TimeScale.floor($0, finer) == $0 }
  }
}

public enum TimeScale {
  /// The candidate intervals, finest first (years go on by 1, 2, 5 × 10ⁿ).
  public static let intervals: [TimeInterval] = {
    var out: [TimeInterval] = [1, 5, 15, 30].map { TimeInterval(.second, $0) } + [1, 5, 15, 30].map { TimeInterval(.minute, $0) }
      + [1, 3, 6, 12].map { TimeInterval(.hour, $0) } + [1, 2].map { TimeInterval(.day, $0) } + [1, 2].map { TimeInterval(.week, $0) }
      + [1, 3].map { TimeInterval(.month, $0) }
    var p = 1
    while p <= 100_000 { for m in [1, 2, 5] { out.append(TimeInterval(.year, m * p)) }; p *= 10 }
    return out
  }()

  /// The start of the interval containing `t` in `zone`: the latest tick at or before `t`.
  /// Ticks are on local wall-clock boundaries (midnights, whole hours), so across a
  /// daylight-saving change a day lasts 23 or 25 hours.
  public static func floor(_ t: Double, _ iv: TimeInterval, zone: ChartTimeZone) -> Double {
    if zone.isUTC { return floor(t, iv) }
    switch iv.unit {
    case .second, .minute, .hour:
      // Whole units of the wall clock at the current offset (a repeated hour is ticked twice).
      let len = iv.minimumMs
      let local = t + zone.offsetMs(atUTC: t)
      return t - (local - (local / len).rounded(.down) * len)
    case .day, .week, .month, .year:
      var r = zone.utc(fromLocal: floor(zone.local(t), iv))
      if r > t { r = zone.utc(fromLocal: floor(zone.local(t) - 3 * TimeInterval.msHour, iv)) }
      return min(r, t)
    }
  }

  /// The tick after `tick` (a value returned by `floor(_:_:zone:)`).
  public static func next(_ tick: Double, _ iv: TimeInterval, zone: ChartTimeZone) -> Double {
    if zone.isUTC { return next(tick, iv) }
    switch iv.unit {
    case .second, .minute, .hour:
      let len = iv.minimumMs
      for k in 1...3 {
        let c = floor(tick + Double(k) * len, iv, zone: zone)
        if c > tick { return c }
      }
      return tick + len
    case .day, .week, .month, .year:
      // From the local day's start: a day whose midnight was skipped (clocks going forward at
      // 00:00) starts at 01:00, and the next tick is still the next midnight.
      let r = zone.utc(fromLocal: next(floor(zone.local(tick), iv), iv))
      return r > tick ? r : tick + iv.minimumMs
    }
  }

  /// The start of the interval containing `t` (UTC): the latest tick at or before `t`.
  public static func floor(_ t: Double, _ iv: TimeInterval) -> Double {
    let n = Double(iv.count)
    switch iv.unit {
    case .second, .minute, .hour, .day:
      // These divide the day (or count days from 1970-01-01), so epoch multiples are
      // calendar-aligned.
      let len = iv.minimumMs
      return (t / len).rounded(.down) * len
    case .week:
      // Weeks start on Sunday (d3's timeWeek); 1970-01-04 was a Sunday.
      let len = 7 * n * TimeInterval.msDay
      let offset = 3 * TimeInterval.msDay
      return ((t - offset) / len).rounded(.down) * len + offset
    case .month, .year:
      let (days, _) = DateText.split(t)
      let c = ISODate.civil(days: days)
      if iv.unit == .month {
        var m = c.year * 12 + (c.month - 1)
        m = Int((Double(m) / n).rounded(.down)) * iv.count
        return Double(ISODate.days(year: floorDiv(m, 12), month: m - floorDiv(m, 12) * 12 + 1, day: 1)) * TimeInterval.msDay
      }
      let y = floorDiv(c.year, iv.count) * iv.count
      return Double(ISODate.days(year: y, month: 1, day: 1)) * TimeInterval.msDay
    }
  }

  static func floorDiv(_ a: Int, _ b: Int) -> Int { a >= 0 ? a / b : -((-a + b - 1) / b) }

  /// The tick after `tick` (a value returned by `floor`).
  public static func next(_ tick: Double, _ iv: TimeInterval) -> Double {
    switch iv.unit {
    case .second, .minute, .hour, .day, .week: return tick + iv.minimumMs
    case .month, .year:
      let c = ISODate.civil(days: DateText.split(tick).days)
      var m = c.year * 12 + (c.month - 1) + (iv.unit == .month ? iv.count : 12 * iv.count)
      if iv.unit == .year { m = (c.year + iv.count) * 12 }
      let y = floorDiv(m, 12)
      return Double(ISODate.days(year: y, month: m - y * 12 + 1, day: 1)) * TimeInterval.msDay
    }
  }

  /// Ticks inside [lo, hi] (at most `limit`).
  public static func ticks(from lo: Double, to hi: Double, _ iv: TimeInterval, zone: ChartTimeZone = .utc, limit: Int = 2000) -> [Double] {
    guard lo.isFinite, hi.isFinite, hi >= lo else { return [] }
    var t = floor(lo, iv, zone: zone)
    if t < lo { t = next(t, iv, zone: zone) }
    var out: [Double] = []
    while t <= hi && out.count < limit {
      out.append(t)
      let n = next(t, iv, zone: zone)
      guard n > t else { break }
      t = n
    }
    return out
  }

  /// The label of a tick by its level: `2019` at a year start, `Apr` at a month start,
  /// `Apr 3` at midnight, `14:00` on a whole minute, `14:00:05` otherwise.
  public static func label(_ t: Double) -> String {
    let (days, sod) = DateText.split(t)
    if sod == 0 {
      let c = ISODate.civil(days: days)
      if c.month == 1 && c.day == 1 { return "\(c.year)" }
      if c.day == 1 { return DateText.months[c.month - 1] }
      return "\(DateText.months[c.month - 1]) \(c.day)"
    }
    if sod % 60 == 0 { return DateText.hourMinute(t) }
    return DateText.hourMinute(t) + ":" + DateText.twoDigits(sod % 60)
  }

  /// The widest label an interval's ticks can have (samples; `width` measures a text).
  public static func sampleLabels(_ iv: TimeInterval) -> [String] {
    switch iv.unit {
    case .second: return ["00:00:00", "May 28", "2000"]
    case .minute, .hour: return ["00:00", "May 28", "Sep 30", "2000"]
    case .day, .week: return ["May 28", "Sep 30", "Mar 31", "2000"]
    case .month: return ["May", "Sep", "2000"]
    case .year: return ["2000"]
    }
  }

  /// A tick to draw: its instant, text and opacity (1 at rest).
  public struct Tick: Sendable, Equatable {
    public var timeMs: Double
    public var text: String
    public var alpha: Double
    public init(timeMs: Double, text: String, alpha: Double) { self.timeMs = timeMs; self.text = text; self.alpha = alpha }
  }

  /// The ticks for a window [tLo, tHi] drawn `plotWidth` px wide.
  ///
  /// - `width` measures a label; `gap` is the least air between two labels; `spacing` the
  ///   least distance between the ticks of the chosen interval (the density).
  /// - The chosen interval is the finest whose shortest step is `spacing` px or more and
  ///   whose labels fit. While the window moves (`rest` 0), the ticks of the next finer
  ///   interval fade in over the last stretch of zoom before they would be chosen; at rest
  ///   (`rest` 1) they are either fully drawn or not at all, so a still has no faint
  ///   labels; in between (a window that just stopped or just started) the fade eases
  ///   between the two. `referenceSpan` is the width (ms) of the window at rest that the
  ///   ease starts from or ends at (the window before the zoom while it starts, the current
  ///   one after it ends); nil: the current window.
  /// - `level`: draw this level instead (see `Levels.level`; a caller that eases the level
  ///   over time, so no fade pops in one frame); it is kept at or above `Levels.least`, so
  ///   labels never overlap.
  public static func make(tLo: Double, tHi: Double, plotWidth: Double, spacing: Double, gap: Double = 8, rest: Double = 1,
                          referenceSpan: Double? = nil, level: Double? = nil, format: DisplayFormat = .standard,
                          width: (String) -> Double) -> (interval: TimeInterval?, ticks: [Tick])
  {
    guard tHi > tLo, plotWidth > 0, tLo.isFinite, tHi.isFinite else { return (nil, []) }
    let levels = Levels(span: tHi - tLo, plotWidth: plotWidth, spacing: spacing, gap: gap, format: format, width: width)
    let l = max(levels.least, level ?? levels.level(rest: rest, referenceSpan: referenceSpan))
    return levels.draw(tLo: tLo, tHi: tHi, level: l)
  }

  /// The levels of labels a window can show, as one number that moves continuously with
  /// the zoom: `k` draws the interval `intervals[k]` alone; `k − f` (0 < f < 1) draws it
  /// with the next finer interval faded in by `f`. Zooming in lowers it; a level of labels
  /// comes or goes as it passes a whole number.
  public struct Levels {
    let pxPerMs: Double
    let plotWidth: Double
    let spacing: Double
    let gap: Double
    let format: DisplayFormat
    /// The widest sample label of each unit (`Unit.allCases` order): an interval's samples
    /// depend on its unit alone, so 7 measurements make every interval's width.
    let widths: [Double]

    /// `format` writes the labels (and the samples measured to fit them).
    public init(span: Double, plotWidth: Double, spacing: Double, gap: Double = 8, format: DisplayFormat = .standard, width: (String) -> Double) {
      pxPerMs = span > 0 ? plotWidth / span : 0
      self.plotWidth = plotWidth
      self.spacing = spacing; self.gap = gap
      self.format = format
      widths = TimeInterval.Unit.allCases.map { u in format.sampleLabels(TimeInterval(u, 1)).map(width).max() ?? 0 }
    }

    func labelWidth(_ iv: TimeInterval) -> Double { widths[iv.unit.index] }
    func need(_ iv: TimeInterval) -> Double { max(spacing, labelWidth(iv) + gap) }
    func choose(_ pxPerMs: Double) -> Int {
      for (k, iv) in intervals.enumerated() where iv.minimumMs * pxPerMs >= need(iv) { return k }
      return intervals.count - 1
    }
    func fadeBounds(_ finer: TimeInterval) -> (from: Double, to: Double) {
      (max(labelWidth(finer) + gap, need(finer) * 0.6), need(finer))
    }
    func fadeAt(_ finer: TimeInterval, _ pxPerMs: Double) -> Double {
      let (from, to) = fadeBounds(finer)
      return to > from ? max(0, min(1, (finer.minimumMs * pxPerMs - from) / (to - from))) : 0
    }

    /// The level the window asks for (`rest` and `referenceSpan` as in `make`).
    public func level(rest: Double = 1, referenceSpan: Double? = nil) -> Double {
      let chosenIndex = choose(pxPerMs)
      guard chosenIndex > 0 else { return 0 }
      let finer = intervals[chosenIndex - 1]
      var fade = fadeAt(finer, pxPerMs)
      // At rest the finer level is drawn fully when past half-way, else not at all; the ease
      // goes to (or comes from) the rest state of the reference window when it shows the
      // same levels.
      var settled: Double = fade >= 0.5 ? 1 : 0
      if let span = referenceSpan, span > 0, span.isFinite, pxPerMs > 0 {
        let refPx = plotWidth / span
        if choose(refPx) == chosenIndex { settled = fadeAt(finer, refPx) >= 0.5 ? 1 : 0 }
      }
      let r = max(0, min(1, rest))
      fade += (settled - fade) * r
      return Double(chosenIndex) - fade
    }

    /// The finest level whose labels never overlap: the finest interval whose labels fit
    /// side by side.
    public var least: Double {
      for (k, iv) in intervals.enumerated() where iv.minimumMs * pxPerMs >= labelWidth(iv) + gap { return Double(k) }
      return Double(intervals.count - 1)
    }

    /// Like `least`, but easing as labels come close: the finest interval that fits is
    /// drawn only partly faded in while its ticks are less than 1.5 labels-and-gaps apart,
    /// so labels squeezed by a zoom out fade before they touch (continuously in the zoom).
    public var safe: Double {
      let j = Int(least)
      guard j + 1 < intervals.count else { return least }
      let iv = intervals[j]
      let room = labelWidth(iv) + gap
      let cap = max(0, min(1, (iv.minimumMs * pxPerMs - room) / (0.5 * room)))
      return Double(j) + 1 - cap
    }

    /// The ticks drawn at a level.
    public func draw(tLo: Double, tHi: Double, level: Double) -> (interval: TimeInterval?, ticks: [Tick]) {
      let l = max(0, min(Double(intervals.count - 1), level))
      let chosenIndex = Int(l.rounded(.up))
      var fade = Double(chosenIndex) - l
      if fade < 1e-9 { fade = 0 }
      let chosen = intervals[chosenIndex]
      let zone = format.zone
      var out = TimeScale.ticks(from: tLo, to: tHi, chosen, zone: zone).map { Tick(timeMs: $0, text: format.axisLabel($0), alpha: 1) }
      guard chosenIndex > 0, fade > 0.001 else { return (chosen, out) }
      let finer = intervals[chosenIndex - 1]
      let have = Set(out.map(\.timeMs))
      var extra = TimeScale.ticks(from: tLo, to: tHi, finer, zone: zone).filter { !have.contains($0) }.map { Tick(timeMs: $0, text: format.axisLabel($0), alpha: fade) }
      if !chosen.isNested(in: finer) {
        // Levels that do not nest (2 days in weeks, 2 weeks in months, 2 years in 5 years)
        // never mix at rest, which would space the labels unevenly (`Apr 2, Apr 4, Apr 7`):
        // fully faded in, the finer level replaces the chosen one. On the way, the chosen
        // ticks that are no finer ticks fade out over the first half of the fade, and the
        // finer ticks near them (less than a finer step away on the calendar, so the same
        // ones whatever the zoom) fade in over the second half; the others, a finer step
        // or more from any of them, follow the fade.
        let leave = max(0, min(1, 2 * fade)), arrive = max(0, min(1, 2 * fade - 1))
        let finerSet = Set(TimeScale.ticks(from: tLo, to: tHi, finer, zone: zone))
        out = out.compactMap { t in
          if finerSet.contains(t.timeMs) { return t }
          var t = t
          t.alpha = 1 - leave
          return t.alpha > 0.001 ? t : nil
        }
        // Against the chosen ticks just outside the window too, so panning keeps the same ones.
        let margin = 2 * chosen.minimumMs
        let leaving = TimeScale.ticks(from: tLo - margin, to: tHi + margin, chosen, zone: zone).filter { TimeScale.floor($0, finer, zone: zone) != $0 }
        extra = extra.compactMap { e in
          guard leaving.contains(where: { abs($0 - e.timeMs) < finer.minimumMs }) else { return e }
          var e = e
          e.alpha = arrive
          return e.alpha > 0.001 ? e : nil
        }
      }
      out += extra
      out.sort { $0.timeMs < $1.timeMs }
      return (chosen, out)
    }
  }
}
