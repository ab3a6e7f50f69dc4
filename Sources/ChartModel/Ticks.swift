#if canImport(Glibc)
import Glibc
#endif

/// The Y axis drawn for a data range: nice bounds and 5-6 evenly spaced grid lines.
public struct YScale: Sendable, Equatable {
  public var lo: Double
  public var hi: Double
  public var step: Double
  public init(lo: Double, hi: Double, step: Double) { self.lo = lo; self.hi = hi; self.step = step }

  /// Values of the grid lines, lo first.
  public var ticks: [Double] {
    guard step > 0, hi > lo else { return [lo] }
    // A scale from `nice` has at most 6 intervals; a hand-made one may not be sensible.
    let count = ((hi - lo) / step).rounded()
    guard count.isFinite, count <= 1000 else { return [lo, hi] }
    return (0...Int(count)).map { lo + Double($0) * step }
  }

  /// The scale for `range`: the tightest nice bounds with 4 or 5 intervals (5 or 6 lines),
  /// or fewer when `maxIntervals` says the axis is too short for that many labels; 3 or 6
  /// intervals when 4 or 5 would leave over a quarter of the axis empty.
  public static func nice(for range: ValueRange, maxIntervals: Int = 5) -> YScale {
    var lo = range.min, hi = range.max
    if !(lo.isFinite && hi.isFinite) { return YScale(lo: 0, hi: 1, step: 0.2) }
    if !(hi - lo).isFinite {
      // Wider than a Double holds (data within DataLimits never is): no nice steps, the two
      // ends as the only ticks.
      return YScale(lo: lo, hi: hi, step: hi / 2 - lo / 2)
    }
    if hi - lo <= max(abs(hi), abs(lo)) * 1e-9 || hi - lo < 1e-200 {
      // All values equal (or too close for decimal steps): centre them in a small range.
      let pad = abs(lo) < 1e-200 ? 1 : abs(lo) * 0.1
      lo -= pad; hi += pad
    }
    let most = max(1, min(5, maxIntervals))
    // A range across zero may need one more interval than asked for.
    // At least 4 intervals on a tall axis (the contest's 5-6 lines); a shorter one may use one
    // fewer than it has room for rather than waste space (1-2-2.5-5 steps cannot hit every count).
    let least = most >= 5 ? 4 : max(1, most - 1)
    guard var pick = best(lo: lo, hi: hi, most: most, least: least) ?? best(lo: lo, hi: hi, most: most + 1, least: least) else {
      return YScale(lo: lo, hi: hi, step: (hi - lo) / Double(most))
    }
    // Too coarse (over a quarter of the axis empty: 0–40M for a 25.2M maximum, 1K–5K for
    // 1.2K–3.6K): one interval fewer, or one more where the axis has room for its label,
    // when that wastes clearly less (0–30M, 1K–4K).
    let span = hi - lo
    func waste(_ s: YScale) -> Double { (s.hi - s.lo - span) / (s.hi - s.lo) }
    if waste(pick) > 0.25 {
      // Never below 3 intervals: a short axis keeps its few labels.
      let fewer = least > 3 ? best(lo: lo, hi: hi, most: most, least: least - 1) : nil
      let more = maxIntervals > most ? best(lo: lo, hi: hi, most: most + 1, least: least) : nil
      for alt in [fewer, more] { if let alt, waste(alt) + 0.05 < waste(pick) { pick = alt } }
    }
    return pick
  }

  /// The candidate with the least wasted space (rounder steps win ties).
  static func best(lo: Double, hi: Double, most: Int, least: Int) -> YScale? {
    let span = hi - lo
    let exp = Int((log10(span / 5)).rounded(.down))
    var best: YScale? = nil
    var bestScore = Double.infinity
    for e in (exp - 1)...(exp + 2) {
      let p = pow10(e)
      for (m, penalty) in multipliers {
        let step = m * p
        let tlo = (lo / step).rounded(.down) * step
        var n = Int(((hi - tlo) / step - 1e-9).rounded(.up))
        guard n <= most else { continue }
        n = max(n, least)
        let thi = tlo + Double(n) * step
        let score = (thi - tlo - span) / (thi - tlo) + penalty
        if score < bestScore { bestScore = score; best = YScale(lo: tlo, hi: thi, step: step) }
      }
    }
    return best
  }

  /// The tightest nice scale for `range` with exactly `intervals` intervals: the second axis
  /// of a two-axis chart, whose lines must fall on the first axis's grid lines.
  public static func nice(for range: ValueRange, intervals n: Int) -> YScale {
    var lo = range.min, hi = range.max
    guard n >= 1, n <= 1000, lo.isFinite, hi.isFinite, (hi - lo).isFinite else { return nice(for: range, maxIntervals: max(1, n)) }
    if hi - lo <= max(abs(hi), abs(lo)) * 1e-9 || hi - lo < 1e-200 {
      let pad = abs(lo) < 1e-200 ? 1 : abs(lo) * 0.1
      lo -= pad; hi += pad
    }
    let span = hi - lo
    let exp = Int((log10(span / Double(n))).rounded(.down))
    var best: YScale? = nil
    for e in (exp - 1)...(exp + 2) {
      let p = pow10(e)
      for (m, _) in multipliers {
        let step = m * p
        let tlo = (lo / step).rounded(.down) * step
        guard tlo + Double(n) * step >= hi - span * 1e-9 else { continue }
        if best == nil || step < best!.step { best = YScale(lo: tlo, hi: tlo + Double(n) * step, step: step) }
      }
    }
    return best ?? YScale(lo: lo, hi: hi, step: span / Double(n))
  }

  /// Step multipliers with a small preference for the roundest ones.
  /// Steps of 1, 2, 2.5 and 5 × 10ⁿ only (d3's and matplotlib's MaxNLocator habit), so the
  /// labels count in steps a reader can follow.
  static let multipliers: [(Double, Double)] = [(1, 0), (2, 0.02), (5, 0.02), (2.5, 0.05)]

  static func pow10(_ e: Int) -> Double {
    var v = 1.0
    if e >= 0 { for _ in 0..<e { v *= 10 } } else { for _ in 0..<(-e) { v /= 10 } }
    return v
  }
}

/// Short number texts for axis labels: `950`, `1.2K`, `4.5M`, `2B`, `1.5T`, `0.0000015`,
/// `−20` (a typographic minus).
public enum CompactNumber {
  /// The minus sign in every label (U+2212, as typographers and matplotlib use).
  public static let minus = "\u{2212}"

  /// Formats `value` with enough decimals to tell ticks `step` apart. Small magnitudes are
  /// written out in decimals (`0.0000015`, never `1.5µ`) up to 12 decimals; smaller steps
  /// use scientific notation (`1.5e−15`).
  public static func format(_ value: Double, step: Double = 0, locale: ChartLocale = .english) -> String {
    if value == 0 || (step > 0 && abs(value) < step * 1e-9) { return "0" }
    guard value.isFinite else { return String(value) }
    let a = abs(value)
    let ref = max(a, abs(step))
    // The locale's short form for the magnitude of the value (or the step): 1.2K, 1,2 тыс., 1.2万.
    var div = 1.0, prefix = "", suffix = ""
    if ref >= 1e3 {
      var e = 3
      while e < 14 && ref >= YScale.pow10(e + 1) { e += 1 }
      if let f = locale.compact.last(where: { $0.magnitude <= e }) {
        div = YScale.pow10(f.divisorExponent); prefix = f.prefix; suffix = f.suffix
      }
    }
    var decimals = 0
    if step > 0 {
      let s = step / div
      if s < 1e-12 { return scientific(value, step: step, locale: locale) }
      func whole(_ x: Double) -> Bool { x.rounded() != 0 && abs(x - x.rounded()) <= 1e-6 * max(1, abs(x)) }
      while decimals < 13 && !whole(s * YScale.pow10(decimals)) { decimals += 1 }
      if decimals > 12 { return scientific(value, step: step, locale: locale) }
      if value / div >= 1e15 { return scientific(value, step: step, locale: locale) }
    } else {
      let v = a / div
      if v < 1e-12 { return scientific(value, step: 0, locale: locale) }
      decimals = v >= 100 || v == v.rounded() ? 0 : (v >= 10 ? 1 : 2)
      if v < 1 { decimals = significantDecimals(v, digits: 2) }
    }
    // No short form at this magnitude (German and Japanese thousands): the number is written
    // out, grouped as in full (`500.000`, `1,500`).
    if div == 1 && ref >= 1e3 { return grouped(value, decimals: decimals, locale: locale) }
    return prefix + localized(fixed(value / div, decimals), locale) + suffix
  }

  /// A number text made with `.` as the decimal point in `locale`'s decimal separator.
  static func localized(_ text: String, _ locale: ChartLocale) -> String {
    locale.decimal == "." ? text : text.replacingUTF8(".", Character(locale.decimal))
  }

  /// Decimals that show `digits` significant digits of `v` (0 < v < 1).
  static func significantDecimals(_ v: Double, digits: Int) -> Int {
    guard v > 0, v.isFinite else { return 0 }
    let lead = Int((-log10(v)).rounded(.up))  // zeros after the point, plus one
    return min(17, max(0, lead + digits - 1))
  }

  /// `1.5e−15`: mantissa with as many digits as the step needs.
  static func scientific(_ value: Double, step: Double, locale: ChartLocale = .english) -> String {
    let e = Int(log10(abs(value)).rounded(.down))
    let m = value / pow(10, Double(e))
    var d = 1
    if step > 0 {
      let rel = step / pow(10, Double(e))
      d = max(0, min(12, significantDecimals(rel, digits: 1)))
    }
    return localized(fixed(m, d), locale) + "e" + (e < 0 ? minus : "") + String(abs(e))
  }

  /// `value` with exactly `decimals` digits after the point, trailing zeros dropped.
  public static func fixed(_ value: Double, _ decimals: Int) -> String {
    var decimals = max(0, decimals)
    // Past 18 digits an Int64 cannot hold the number: fewer decimals (Double has ~16 anyway).
    while decimals > 0 && abs(value) * YScale.pow10(decimals) >= 9e17 { decimals -= 1 }
    let scale = YScale.pow10(decimals)
    let n = (abs(value) * scale).rounded()
    let neg = value < 0 && n != 0
    if n >= 9e18 || !n.isFinite { return String(value) }
    var intN = Int64(n)
    let fracPart = decimals > 0 ? intN % Int64(scale) : 0
    intN = decimals > 0 ? intN / Int64(scale) : intN
    var digits = String(intN)
    if decimals > 0 && fracPart != 0 {
      var f = String(fracPart)
      while f.count < decimals { f = "0" + f }
      while f.hasSuffix("0") { f.removeLast() }
      digits += "." + f
    }
    return (neg ? minus : "") + digits
  }

  /// Full number with thousands separators for the poster, with the value's own precision
  /// up to 6 significant digits (whole numbers keep all their digits): `4,505,200`,
  /// `12.5`, `0.0000015`, `1,500,000,000,000`, `−1,234`.
  public static func grouped(_ value: Double, locale: ChartLocale = .english) -> String {
    if value.isNaN { return "–" }
    // Past Int64 (and past the integers a Double holds exactly): plain notation, 1e+20.
    if !value.isFinite || abs(value) >= 1e18 { return localized(String(String(value).map { $0 == "-" ? "\u{2212}" : $0 }), locale) }
    let a = abs(value)
    if a != 0 && a < 1e-12 { return scientific(value, step: 0, locale: locale) }
    return grouped(value, decimals: exactDecimals(a), locale: locale)
  }

  /// The fewest decimals that show `a` exactly (to 1e-9 relative), at most 6 significant
  /// digits in all.
  static func exactDecimals(_ a: Double) -> Int {
    let intDigits = a >= 1 ? Int(log10(a).rounded(.down)) + 1 : 0
    var maxDecimals = max(0, 6 - intDigits)
    if a < 1 && a > 0 { maxDecimals = significantDecimals(a, digits: 6) }
    var decimals = 0
    while decimals < maxDecimals {
      let s = a * YScale.pow10(decimals)
      if abs(s - s.rounded()) <= 1e-9 * max(1, s) { break }
      decimals += 1
    }
    return decimals
  }

  /// `value` with at most `decimals` decimals (trailing zeros dropped) and `locale`'s group
  /// and decimal separators: `4,505,200`, `4 505 200`, `45,05,200`, `1234` (Spanish).
  public static func grouped(_ value: Double, decimals: Int, locale: ChartLocale = .english) -> String {
    guard value.isFinite, abs(value) < 1e18 else { return grouped(value, locale: locale) }
    let text = fixed(abs(value), decimals)
    let neg = value < 0 && text != "0"
    let parts = text.split(separator: ".", maxSplits: 1)
    var s = String(parts[0])
    var out = ""
    let primary = locale.primaryGrouping, secondary = locale.secondaryGrouping
    if primary > 0 && s.count >= primary + locale.minimumGroupingDigits {
      out = locale.group + s.suffix(primary) + out
      s = String(s.dropLast(primary))
      let size = secondary > 0 ? secondary : primary
      while s.count > size { out = locale.group + s.suffix(size) + out; s = String(s.dropLast(size)) }
    }
    return (neg ? minus : "") + s + out + (parts.count > 1 ? locale.decimal + parts[1] : "")
  }
}
