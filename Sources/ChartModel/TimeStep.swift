/// What a set's times know: whether they are years, quarters, months, dates or times of
/// day. The poster and the zoomed pie's date say no more than this.
public enum TimePrecision: Sendable, Equatable {
  /// Every time is January 1 at midnight: `1854`.
  case year
  /// Every time is the first day of January, April, July or October at midnight: `Q3 2004`.
  case quarter
  /// Every time is the first of a month at midnight: `Sep 2004`.
  case month
  /// Midnights at least a week apart: `Feb 28 2019` (no weekday).
  case week
  /// Midnights (or one point): `Thu, Feb 28 2019`.
  case day
  /// Some time is not at midnight: `Thu, Feb 28 2019 14:00`.
  case time

  /// The precision of increasing times `xs`. Coarser than a day only with two points or more.
  public static func of(_ xs: [Double]) -> TimePrecision {
    var allJan = true, allQuarter = true, allFirst = true
    var minStep = Double.infinity
    for (k, t) in xs.enumerated() {
      let (d, sod) = DateText.split(t)
      if sod != 0 || t != t.rounded() { return .time }
      if k > 0 { minStep = min(minStep, t - xs[k - 1]) }
      if allFirst {
        let c = ISODate.civil(days: d)
        if c.day != 1 { allFirst = false; allJan = false; allQuarter = false } else {
          if c.month != 1 { allJan = false }
          if (c.month - 1) % 3 != 0 { allQuarter = false }
        }
      }
    }
    guard xs.count >= 2 else { return .day }
    if allJan { return .year }
    if allQuarter { return .quarter }
    if allFirst { return .month }
    return minStep >= 7 * 86_400_000 ? .week : .day
  }
}

/// Rows missing from regularly stepped data: where the step between two rows is a whole
/// multiple (2 or more) of the data's step, a row of gaps is put one step after the first,
/// so lines break there instead of bridging the missing rows.
///
/// The step is the shortest one between rows: in calendar months when every time is the
/// first of a month at midnight (months, quarters and years have uneven lengths), else in
/// milliseconds. The data is regular when every step is a whole multiple of it and the
/// missing rows are at most a quarter of the rows (so weekday-only data, trading hours and
/// irregular events are left alone).
public enum TimeGaps {
  /// The indices after which a row of gaps goes, and its time; empty when the data is not
  /// regular or nothing is missing.
  public static func missing(_ xs: [Double]) -> [(after: Int, time: Double)] {
    guard xs.count >= 3 else { return [] }
    // Calendar months when every time is a first of the month at midnight.
    var months: [Int]? = []
    months!.reserveCapacity(xs.count)
    for t in xs {
      let (d, sod) = DateText.split(t)
      let c = ISODate.civil(days: d)
      guard sod == 0, t == t.rounded(), c.day == 1 else { months = nil; break }
      months!.append(c.year * 12 + c.month - 1)
    }
    var out: [(after: Int, time: Double)] = []
    var missingRows = 0
    if let months {
      var step = Int.max
      for k in 1..<months.count { step = min(step, months[k] - months[k - 1]) }
      guard step > 0 else { return [] }
      for k in 1..<months.count {
        let d = months[k] - months[k - 1]
        guard d % step == 0 else { return [] }
        if d > step {
          missingRows += d / step - 1
          let m = months[k - 1] + step
          out.append((k - 1, Double(ISODate.days(year: m / 12, month: m % 12 + 1, day: 1)) * 86_400_000))
        }
      }
    } else {
      var step = Double.infinity
      for k in 1..<xs.count { step = min(step, xs[k] - xs[k - 1]) }
      guard step > 0, step.isFinite else { return [] }
      for k in 1..<xs.count {
        let d = xs[k] - xs[k - 1]
        let n = (d / step).rounded()
        guard abs(d - n * step) < 0.5 else { return [] }
        if n > 1 {
          missingRows += Int(min(n, 1e9)) - 1
          out.append((k - 1, xs[k - 1] + step))
        }
      }
    }
    guard missingRows * 4 <= xs.count else { return [] }
    return out
  }

  /// `xs` and `columns` with a row of gaps (NaN) where rows are missing.
  public static func fill(_ xs: [Double], _ columns: [[Double]]) -> (xs: [Double], columns: [[Double]]) {
    let gaps = missing(xs)
    guard !gaps.isEmpty else { return (xs, columns) }
    var outX: [Double] = []
    outX.reserveCapacity(xs.count + gaps.count)
    var outC = columns.map { c -> [Double] in var a = [Double](); a.reserveCapacity(c.count + gaps.count); return a }
    var g = 0
    for i in xs.indices {
      outX.append(xs[i])
      for k in columns.indices { outC[k].append(columns[k][i]) }
      if g < gaps.count, gaps[g].after == i {
        outX.append(gaps[g].time)
        for k in columns.indices { outC[k].append(.nan) }
        g += 1
      }
    }
    return (outX, outC)
  }
}

extension DateText {
  /// The poster's date at `precision`: `1854`, `Q3 2004`, `Sep 2004`, `Feb 28 2019`,
  /// `Thu, Feb 28 2019` (with `14:00` when not midnight).
  public static func poster(_ ms: Double, precision: TimePrecision) -> String {
    let c = ISODate.civil(days: split(ms).days)
    switch precision {
    case .year: return "\(c.year)"
    case .quarter: return "Q\((c.month - 1) / 3 + 1) \(c.year)"
    case .month: return "\(months[c.month - 1]) \(c.year)"
    case .week: return "\(months[c.month - 1]) \(c.day) \(c.year)"
    case .day, .time: return poster(ms)
    }
  }
}
