/// UTC calendar arithmetic and the date texts the charts show. Foundation's formatters are
/// slow on Linux and locale-dependent; these are exact, fast and always English/UTC.
public enum ISODate {
  static let msPerDay = 86_400_000.0

  /// Days since 1970-01-01 for a proleptic Gregorian date (Howard Hinnant's algorithm).
  public static func days(year: Int, month: Int, day: Int) -> Int {
    let y = month <= 2 ? year - 1 : year
    let era = (y >= 0 ? y : y - 399) / 400
    let yoe = y - era * 400
    let mp = (month + 9) % 12
    let doy = (153 * mp + 2) / 5 + day - 1
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
    return era * 146097 + doe - 719468
  }

  /// (year, month 1-12, day 1-31) of a day number.
  public static func civil(days z0: Int) -> (year: Int, month: Int, day: Int) {
    let z = z0 + 719468
    let era = (z >= 0 ? z : z - 146096) / 146097
    let doe = z - era * 146097
    let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
    let mp = (5 * doy + 2) / 153
    let d = doy - (153 * mp + 2) / 5 + 1
    let m = mp < 10 ? mp + 3 : mp - 9
    return (yoe + era * 400 + (m <= 2 ? 1 : 0), m, d)
  }

  /// Parses `YYYY-MM-DD`, optionally followed by `T` or a space and `HH:MM[:SS[.fff]]`, and
  /// an optional `Z` (all times are UTC). Returns UNIX milliseconds.
  public static func parseMs(_ s: String) -> Double? {
    let b = Array(s.utf8)
    func num(_ from: Int, _ n: Int) -> Int? {
      guard from + n <= b.count else { return nil }
      var v = 0
      for k in from..<from + n { guard b[k] >= 48 && b[k] <= 57 else { return nil }; v = v * 10 + Int(b[k] - 48) }
      return v
    }
    guard b.count >= 10, let y = num(0, 4), b[4] == 45, let mo = num(5, 2), b[7] == 45, let d = num(8, 2),
      (1...12).contains(mo), (1...31).contains(d)
    else { return nil }
    var ms = Double(days(year: y, month: mo, day: d)) * msPerDay
    var i = 10
    if i < b.count, b[i] == UInt8(ascii: "T") || b[i] == 32 {
      guard let h = num(i + 1, 2), b.count > i + 3, b[i + 3] == 58, let mi = num(i + 4, 2), h < 24, mi < 60 else { return nil }
      ms += Double(h * 3600 + mi * 60) * 1000
      i += 6
      if i < b.count, b[i] == 58 {
        guard let sec = num(i + 1, 2), sec < 61 else { return nil }
        ms += Double(sec) * 1000
        i += 3
        if i < b.count, b[i] == 46 {
          i += 1
          var frac = 0.0, scale = 100.0
          while i < b.count, b[i] >= 48, b[i] <= 57 { frac += Double(b[i] - 48) * scale; scale /= 10; i += 1 }
          ms += frac
        }
      }
    }
    if i < b.count, b[i] == UInt8(ascii: "Z") { i += 1 }
    return i == b.count ? ms : nil
  }
}

/// Formats times for axis labels and the indicator's poster.
public enum DateText {
  static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
  static let weekdays = ["Thu", "Fri", "Sat", "Sun", "Mon", "Tue", "Wed"]  // 1970-01-01 was a Thursday

  static func split(_ ms: Double) -> (days: Int, secondsOfDay: Int) {
    // Decoded times lie within DataLimits.maxTimeMs; anything else (an axis position past
    // the data, NaN) is clamped rather than trapping in the Int conversion.
    let ms = ms.isNaN ? 0 : max(-DataLimits.maxTimeMs * 2, min(DataLimits.maxTimeMs * 2, ms))
    let totalSeconds = Int((ms / 1000).rounded(.down))
    var days = totalSeconds / 86400
    var sod = totalSeconds % 86400
    if sod < 0 { sod += 86400; days -= 1 }
    return (days, sod)
  }

  /// `Feb 12`
  public static func monthDay(_ ms: Double) -> String {
    let c = ISODate.civil(days: split(ms).days)
    return "\(months[c.month - 1]) \(c.day)"
  }

  /// `14:00`
  public static func hourMinute(_ ms: Double) -> String {
    let s = split(ms).secondsOfDay
    return twoDigits(s / 3600) + ":" + twoDigits(s / 60 % 60)
  }

  /// `Sat, Feb 12 2019`, with `14:00` appended when the time is not midnight.
  public static func poster(_ ms: Double) -> String {
    let (d, sod) = split(ms)
    let c = ISODate.civil(days: d)
    var s = "\(weekdays[((d % 7) + 7) % 7]), \(months[c.month - 1]) \(c.day) \(c.year)"
    if sod != 0 { s += " " + hourMinute(ms) }
    return s
  }

  /// `2019-02-12`
  public static func iso(_ ms: Double) -> String {
    let c = ISODate.civil(days: split(ms).days)
    return "\(c.year)-\(twoDigits(c.month))-\(twoDigits(c.day))"
  }

  static func twoDigits(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
}
