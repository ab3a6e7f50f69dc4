import CFastParse

/// Reading times out of data files: the formats people's CSV and JSON files hold, found
/// from a column's values, and strftime-style patterns. Everything works on UTF-8 bytes and
/// returns UNIX milliseconds (UTC; offsets are applied).
public enum TimeFormat: Sendable, Equatable {
  /// `YYYY-MM-DD`, `YYYY-MM-DDTHH:MM[:SS[.fff]]` (or a space for `T`), `Z` or `±hh[:mm]`;
  /// also `YYYY-MM`.
  case iso
  /// `YYYY/MM/DD[ HH:MM[:SS]]`
  case ymdSlash
  /// `DD.MM.YYYY[ HH:MM[:SS]]`
  case dmyDot
  /// `MM/DD/YYYY` (true) or `DD/MM/YYYY` (false); nil while the column has not decided.
  case slash(monthFirst: Bool?)
  /// `Jan 2 2000`, `Jan 2, 2000`, `2 Jan 2000`, `January 2, 2000`, `2-Jan-2000`.
  case monthName
  /// Integers 1000–2999: years.
  case year
  /// Whole numbers 1000–2999 written as floats (`1700.0`, as pandas writes an integer column
  /// that had a gap): years, guessed.
  case yearNumber
  /// `1959Q1`, `1959-Q1`, `1959 Q1`, `Q1 1959`, `Q1-1959`: the quarter's first day.
  case quarter
  case unixSeconds
  case unixMillis
  case pattern(TimePattern)

  /// How the format is named in messages.
  public var label: String {
    switch self {
    case .iso: "ISO 8601 (YYYY-MM-DD)"
    case .ymdSlash: "YYYY/MM/DD"
    case .dmyDot: "DD.MM.YYYY"
    case .slash(let m?): m ? "MM/DD/YYYY" : "DD/MM/YYYY"
    case .slash(nil): "MM/DD/YYYY or DD/MM/YYYY"
    case .monthName: "a date with a month name (Jan 2 2000)"
    case .year: "years"
    case .yearNumber: "years written as numbers (1700.0)"
    case .quarter: "quarters (1959Q1)"
    case .unixSeconds: "UNIX seconds"
    case .unixMillis: "UNIX milliseconds"
    case .pattern(let p): "timeFormat '\(p.text)'"
    }
  }
}

/// A strftime-style pattern: `%Y %m %d %e %H %I %M %S %f %p %b %B %h %a %A %y %j %q %z %s %F %T %D %%`.
/// `%q` is a quarter 1–4 (its first month); a `%Y` at the end of the pattern also reads a
/// year written as a float (`1700.0`).
/// A space in the pattern matches any run of spaces (or none); other characters match
/// themselves.
public struct TimePattern: Sendable, Equatable {
  public let text: String
  enum Part: Equatable { case literal(UInt8), space, field(UInt8) }
  let parts: [Part]

  public init?(_ text: String) {
    self.text = text
    var parts: [Part] = []
    var b = Array(text.utf8)[...]
    var fields = 0
    while let c = b.first {
      b = b.dropFirst()
      if c == 32 { parts.append(.space); continue }
      guard c == UInt8(ascii: "%") else { parts.append(.literal(c)); continue }
      guard let f = b.first else { return nil }
      b = b.dropFirst()
      switch f {
      case UInt8(ascii: "%"): parts.append(.literal(f))
      case UInt8(ascii: "F"): parts += [.field(UInt8(ascii: "Y")), .literal(45), .field(UInt8(ascii: "m")), .literal(45), .field(UInt8(ascii: "d"))]; fields += 1
      case UInt8(ascii: "T"): parts += [.field(UInt8(ascii: "H")), .literal(58), .field(UInt8(ascii: "M")), .literal(58), .field(UInt8(ascii: "S"))]; fields += 1
      case UInt8(ascii: "D"): parts += [.field(UInt8(ascii: "m")), .literal(47), .field(UInt8(ascii: "d")), .literal(47), .field(UInt8(ascii: "y"))]; fields += 1
      default:
        guard Array("YmdeHIMSfpbBhaAyjqzs".utf8).contains(f) else { return nil }
        parts.append(.field(f)); fields += 1
      }
    }
    guard fields > 0 else { return nil }
    self.parts = parts
  }

  public static func == (a: TimePattern, b: TimePattern) -> Bool { a.text == b.text }

  /// Milliseconds, or nil when `bytes` does not match the whole pattern.
  func parse(_ p: UnsafePointer<UInt8>, _ n: Int) -> Double? {
    var c = Cursor(p, n)
    var year = 1970, month = 1, day = 1, hour = 0, minute = 0, second = 0, frac = 0.0
    var pm: Bool? = nil, yday: Int? = nil, offsetMs = 0.0, epoch: Double? = nil
    for (k, part) in parts.enumerated() {
      switch part {
      case .literal(let l): guard c.eat(l) else { return nil }
      case .space: c.skipSpaces()
      case .field(let f):
        switch f {
        case UInt8(ascii: "Y"):
          let neg = c.eat(45)
          guard let v = c.digits(1, 4) else { return nil }
          year = neg ? -v : v
          // `1700.0` (a float year) when nothing follows the year in the pattern.
          if k == parts.count - 1, c.peek == 46 {
            c.i += 1
            while c.eat(48) {}
          }
        case UInt8(ascii: "y"): guard let v = c.digits(2, 2) else { return nil }; year = v < 69 ? 2000 + v : 1900 + v
        case UInt8(ascii: "m"): guard let v = c.digits(1, 2), (1...12).contains(v) else { return nil }; month = v
        case UInt8(ascii: "d"), UInt8(ascii: "e"):
          c.skipSpaces()
          guard let v = c.digits(1, 2), (1...31).contains(v) else { return nil }
          day = v
        case UInt8(ascii: "H"): guard let v = c.digits(1, 2), v < 24 else { return nil }; hour = v
        case UInt8(ascii: "I"): guard let v = c.digits(1, 2), (1...12).contains(v) else { return nil }; hour = v
        case UInt8(ascii: "M"): guard let v = c.digits(1, 2), v < 60 else { return nil }; minute = v
        case UInt8(ascii: "S"): guard let v = c.digits(1, 2), v <= 60 else { return nil }; second = v
        case UInt8(ascii: "f"): guard let f = c.fraction() else { return nil }; frac = f
        case UInt8(ascii: "p"): guard let v = c.ampm() else { return nil }; pm = v
        case UInt8(ascii: "b"), UInt8(ascii: "B"), UInt8(ascii: "h"): guard let v = c.monthName() else { return nil }; month = v
        case UInt8(ascii: "a"), UInt8(ascii: "A"): guard c.word() > 0 else { return nil }
        case UInt8(ascii: "j"): guard let v = c.digits(1, 3), (1...366).contains(v) else { return nil }; yday = v
        case UInt8(ascii: "q"): guard let v = c.digits(1, 1), (1...4).contains(v) else { return nil }; month = (v - 1) * 3 + 1
        case UInt8(ascii: "z"): guard let o = c.offset() else { return nil }; offsetMs = o
        case UInt8(ascii: "s"):
          let start = c.i
          _ = c.eat(45)
          guard c.digits(1, 18) != nil else { return nil }
          if c.eat(46) { _ = c.digits(0, 9) }
          var v = 0.0
          guard cs_parseDouble(p + start, c.i - start, &v) else { return nil }
          epoch = v * 1000
        default: return nil
        }
      }
    }
    guard c.atEnd else { return nil }
    if let epoch { return epoch - offsetMs }
    if let pm {
      if hour == 12 { hour = 0 }
      if pm { hour += 12 }
    }
    let days: Int
    if let yday { days = ISODate.days(year: year, month: 1, day: 1) + yday - 1 } else {
      guard day <= TimeParsing.daysIn(month, year) else { return nil }
      days = ISODate.days(year: year, month: month, day: day)
    }
    return (Double(days) * 86400 + Double(hour * 3600 + minute * 60 + second)) * 1000 + frac * 1000 - offsetMs
  }
}

/// A read position in a cell.
struct Cursor {
  let p: UnsafePointer<UInt8>
  let n: Int
  var i = 0
  init(_ p: UnsafePointer<UInt8>, _ n: Int) { self.p = p; self.n = n }
  var atEnd: Bool { i >= n }
  var peek: UInt8 { i < n ? p[i] : 0 }
  mutating func eat(_ c: UInt8) -> Bool { if i < n && p[i] == c { i += 1; return true }; return false }
  mutating func skipSpaces() { while i < n && p[i] == 32 { i += 1 } }
  /// min...max decimal digits.
  mutating func digits(_ lo: Int, _ hi: Int) -> Int? {
    var v = 0, k = 0
    while k < hi, i < n, p[i] &- 48 < 10 { v = v * 10 + Int(p[i] &- 48); i += 1; k += 1 }
    return k >= lo ? v : nil
  }
  /// Digits after a decimal point, as a fraction of one.
  mutating func fraction() -> Double? {
    var f = 0.0, scale = 0.1, k = 0
    while i < n, p[i] &- 48 < 10 { f += Double(p[i] &- 48) * scale; scale /= 10; i += 1; k += 1 }
    return k > 0 ? f : nil
  }
  /// Letters; returns how many.
  mutating func word() -> Int {
    let s = i
    while i < n, (p[i] | 0x20) &- 97 < 26 { i += 1 }
    return i - s
  }
  mutating func monthName() -> Int? {
    let s = i
    let k = word()
    guard k >= 3 else { i = s; return nil }
    let a = p[s] | 0x20, b = p[s + 1] | 0x20, c = p[s + 2] | 0x20
    for (m, name) in TimeParsing.monthNames.enumerated() where name[0] == a && name[1] == b && name[2] == c {
      // The full name, an abbreviation, or "Sept".
      if k == 3 || k == name.count || (m == 8 && k == 4 && (p[s + 3] | 0x20) == UInt8(ascii: "t")) {
        if k == name.count { for q in 3..<k where (p[s + q] | 0x20) != name[q] { i = s; return nil } }
        return m + 1
      }
    }
    i = s
    return nil
  }
  mutating func ampm() -> Bool? {
    guard i + 1 < n, (p[i + 1] | 0x20) == UInt8(ascii: "m") else { return nil }
    let c = p[i] | 0x20
    guard c == UInt8(ascii: "a") || c == UInt8(ascii: "p") else { return nil }
    i += 2
    return c == UInt8(ascii: "p")
  }
  /// `Z`, `UTC`, `GMT`, `±hh`, `±hhmm`, `±hh:mm` → milliseconds east of UTC.
  mutating func offset() -> Double? {
    if eat(UInt8(ascii: "Z")) || eat(UInt8(ascii: "z")) { return 0 }
    if i + 2 < n, (p[i] == UInt8(ascii: "U") && p[i + 1] == UInt8(ascii: "T") && p[i + 2] == UInt8(ascii: "C"))
      || (p[i] == UInt8(ascii: "G") && p[i + 1] == UInt8(ascii: "M") && p[i + 2] == UInt8(ascii: "T")) {
      i += 3
      if atEnd { return 0 }
    }
    guard i < n, p[i] == 43 || p[i] == 45 else { return nil }
    let neg = p[i] == 45
    i += 1
    guard let h = digits(2, 2), h <= 18 else { return nil }
    var m = 0
    if eat(58) { guard let mm = digits(2, 2), mm < 60 else { return nil }; m = mm } else if let mm = digits(2, 2) {
      guard mm < 60 else { return nil }
      m = mm
    }
    let v = Double(h * 3600 + m * 60) * 1000
    return neg ? -v : v
  }

  /// An optional time of day after a date: (`T` or spaces) `HH:MM[:SS[.fff]]`, an optional
  /// `AM`/`PM`, an optional offset. Returns milliseconds since the date's midnight UTC, or nil
  /// when what follows is not a time.
  mutating func timeOfDay() -> Double? {
    if atEnd { return 0 }
    guard eat(UInt8(ascii: "T")) || peek == 32 else { return nil }
    skipSpaces()
    guard let h = digits(1, 2), eat(58), let m = digits(2, 2), m < 60 else { return nil }
    var hour = h, ms = Double(m * 60) * 1000
    if eat(58) {
      guard let s = digits(2, 2), s <= 60 else { return nil }
      ms += Double(s) * 1000
      if eat(46) || eat(44) { guard let f = fraction() else { return nil }; ms += f * 1000 }
    }
    let save = i
    skipSpaces()
    if let pm = ampm() {
      guard (1...12).contains(hour) else { return nil }
      if hour == 12 { hour = 0 }
      if pm { hour += 12 }
    } else { i = save }
    guard hour < 24 else { return nil }
    ms += Double(hour) * 3_600_000
    if atEnd { return ms }
    let save2 = i
    skipSpaces()
    if atEnd { return ms }
    guard let o = offset(), atEnd else { i = save2; return nil }
    return ms - o
  }
}

@inline(__always) func cs_parseDouble(_ p: UnsafePointer<UInt8>, _ n: Int, _ out: inout Double) -> Bool {
  cs_parse_double(p, n, &out) != 0
}

public enum TimeParsing {
  static let monthNames: [[UInt8]] = ["january", "february", "march", "april", "may", "june", "july", "august",
    "september", "october", "november", "december"].map { Array($0.utf8) }

  static func daysIn(_ month: Int, _ year: Int) -> Int {
    switch month {
    case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
    case 4, 6, 9, 11: return 30
    default: return 31
    }
  }

  @inline(__always) static func date(_ y: Int, _ m: Int, _ d: Int) -> Double? {
    guard (1...12).contains(m), d >= 1, d <= daysIn(m, y) else { return nil }
    return Double(ISODate.days(year: y, month: m, day: d)) * 86_400_000
  }

  /// Parses one cell in a known format. For `.slash(nil)` the result is a packed
  /// (year, first, second, time of day) value that `unpackSlash` turns into a time once the
  /// column has decided its order.
  @inline(__always)
  public static func parse(_ p: UnsafePointer<UInt8>, _ n: Int, _ f: TimeFormat) -> Double? {
    switch f {
    case .iso: return iso(p, n)
    case .ymdSlash: return ymdSep(p, n, 47)
    case .dmyDot: return dmyDot(p, n)
    case .slash(let order): return slash(p, n, order)
    case .monthName: return monthName(p, n)
    case .year:
      var c = Cursor(p, n)
      guard let y = c.digits(4, 4), c.atEnd, (1000...2999).contains(y) else { return nil }
      return date(y, 1, 1)
    case .yearNumber:
      var v = 0.0
      guard cs_parseDouble(p, n, &v), v == v.rounded(), v >= 1000, v <= 2999 else { return nil }
      return date(Int(v), 1, 1)
    case .quarter: return quarter(p, n)
    case .unixSeconds, .unixMillis:
      var v = 0.0
      guard cs_parseDouble(p, n, &v) else { return nil }
      return f == .unixSeconds ? v * 1000 : v
    case .pattern(let pat): return pat.parse(p, n)
    }
  }

  /// A cache of the last ISO day read, for a column read row after row (rows of one day
  /// repeat it: a day of minutes is 1,440 rows).
  static func dayCache() -> cs_iso_day_cache {
    var c = cs_iso_day_cache()
    c.day_ms = .nan
    c.day = { p in TimeParsing.iso(p!, 10) ?? .nan }
    return c
  }

  /// `parse` through the one fast reader of ISO cells (`cs_iso_time`, shared with the bulk
  /// path), which reads each day once; other forms go to `parse`.
  @inline(__always)
  static func parse(_ p: UnsafePointer<UInt8>, _ n: Int, _ f: TimeFormat, cache: inout cs_iso_day_cache) -> Double? {
    if case .iso = f {
      var t = 0.0
      if cs_iso_time(&cache, p, n, &t) != 0 { return t }
    }
    return parse(p, n, f)
  }

  /// `YYYY-MM-DD` with an optional time of day and offset (`T12:00`, ` 12:00:00.5`, `Z`,
  /// `+03:00`), or `YYYY-MM`. (Columns are read through `cs_iso_time` first.)
  static func iso(_ p: UnsafePointer<UInt8>, _ n: Int) -> Double? {
    var c = Cursor(p, n)
    guard let y = c.digits(4, 4), c.eat(45), let m = c.digits(2, 2) else { return nil }
    if c.atEnd { return date(y, m, 1) }
    guard c.eat(45), let d = c.digits(2, 2), let day = date(y, m, d), let t = c.timeOfDay() else { return nil }
    return day + t
  }

  /// `1959Q1`, `1959-Q1`, `1959 Q1`, `Q1 1959`, `Q1-1959` (any case): the quarter's first day.
  static func quarter(_ p: UnsafePointer<UInt8>, _ n: Int) -> Double? {
    var c = Cursor(p, n)
    var y: Int, q: Int
    if c.peek | 0x20 == UInt8(ascii: "q") {
      c.i += 1
      guard let v = c.digits(1, 1) else { return nil }
      q = v
      if !c.eat(45) { guard c.peek == 32 else { return nil }; c.skipSpaces() }
      guard let yy = c.digits(4, 4) else { return nil }
      y = yy
    } else {
      guard let yy = c.digits(4, 4) else { return nil }
      y = yy
      if !c.eat(45) { c.skipSpaces() }
      guard c.peek | 0x20 == UInt8(ascii: "q") else { return nil }
      c.i += 1
      guard let v = c.digits(1, 1) else { return nil }
      q = v
    }
    guard c.atEnd, (1...4).contains(q) else { return nil }
    return date(y, (q - 1) * 3 + 1, 1)
  }

  static func ymdSep(_ p: UnsafePointer<UInt8>, _ n: Int, _ sep: UInt8) -> Double? {
    var c = Cursor(p, n)
    guard let y = c.digits(4, 4), c.eat(sep), let m = c.digits(1, 2), c.eat(sep), let d = c.digits(1, 2),
      let day = date(y, m, d), let t = c.timeOfDay() else { return nil }
    return day + t
  }

  static func dmyDot(_ p: UnsafePointer<UInt8>, _ n: Int) -> Double? {
    var c = Cursor(p, n)
    guard let d = c.digits(1, 2), c.eat(46), let m = c.digits(1, 2), c.eat(46), let y = c.digits(4, 4),
      let day = date(y, m, d), let t = c.timeOfDay() else { return nil }
    return day + t
  }

  /// Packed slash dates: ((year·32 + first)·32 + second) days of 4 days each, plus the time
  /// of day shifted by one day (offsets can move it either way). Exact in a Double.
  static let packUnit = 345_600_000.0

  static func slash(_ p: UnsafePointer<UInt8>, _ n: Int, _ monthFirst: Bool?) -> Double? {
    var c = Cursor(p, n)
    guard let a = c.digits(1, 2), c.eat(47), let b = c.digits(1, 2), c.eat(47), let y = c.digits(4, 4),
      let t = c.timeOfDay() else { return nil }
    switch monthFirst {
    case true?: guard let day = date(y, a, b) else { return nil }; return day + t
    case false?: guard let day = date(y, b, a) else { return nil }; return day + t
    case nil:
      guard (1...31).contains(a), (1...31).contains(b), a <= 12 || b <= 12, y >= 1000 else { return nil }
      guard date(y, a, b) != nil || date(y, b, a) != nil else { return nil }
      return Double((y * 32 + a) * 32 + b) * packUnit + (t + 86_400_000)
    }
  }

  /// The two numbers of a packed slash date.
  static func slashParts(_ v: Double) -> (a: Int, b: Int) {
    let key = Int((v / packUnit).rounded(.down))
    return (key / 32 % 32, key % 32)
  }

  /// A packed slash date as a time in the decided order (nil when that order makes no date).
  static func unpackSlash(_ v: Double, monthFirst: Bool) -> Double? {
    let key = Int((v / packUnit).rounded(.down))
    let t = v - Double(key) * packUnit - 86_400_000
    let y = key / 1024, a = key / 32 % 32, b = key % 32
    guard let day = monthFirst ? date(y, a, b) : date(y, b, a) else { return nil }
    return day + t
  }

  static func monthName(_ p: UnsafePointer<UInt8>, _ n: Int) -> Double? {
    var c = Cursor(p, n)
    // An optional weekday: "Mon, Jan 2 2000", "Monday 2 January 2000".
    let save = c.i
    if c.monthName() == nil, c.word() >= 3 {
      _ = c.eat(44)
      c.skipSpaces()
    } else { c.i = save }
    var month: Int, day: Int
    if let m = c.monthName() {
      // Jan 2 2000, Jan 2, 2000, Jan-02-2000
      month = m
      guard c.eat(32) || c.eat(45) else { return nil }
      c.skipSpaces()
      guard let d = c.digits(1, 2) else { return nil }
      day = d
      _ = c.eat(44)
      guard c.eat(32) || c.eat(45) else { return nil }
      c.skipSpaces()
    } else {
      // 2 Jan 2000, 2-Jan-2000, 2 January, 2000
      guard let d = c.digits(1, 2) else { return nil }
      day = d
      guard c.eat(32) || c.eat(45) else { return nil }
      c.skipSpaces()
      guard let m = c.monthName() else { return nil }
      month = m
      _ = c.eat(44)
      guard c.eat(32) || c.eat(45) else { return nil }
      c.skipSpaces()
    }
    guard let y = c.digits(4, 4), let dayMs = date(y, month, day) else { return nil }
    if c.eat(44) { guard c.peek == 32 else { return nil } }
    guard let t = c.timeOfDay() else { return nil }
    return dayMs + t
  }

  // MARK: - Finding a column's format

  /// The formats a text cell could be in, in order of preference.
  static let textFormats: [TimeFormat] = [.iso, .ymdSlash, .dmyDot, .slash(monthFirst: nil), .monthName, .quarter]

  /// The format every one of `values` reads in, or nil. Numbers (`numeric`) read as years
  /// when they are all integers 1000–2999, else as UNIX milliseconds when any is above 1e11
  /// in magnitude, else as UNIX seconds when `numbersAreTimes`. With `floatYears`, whole
  /// numbers 1000–2999 written otherwise (`1700.0`) are years too (`.yearNumber`).
  static func detect(_ values: [[UInt8]], numbersAreTimes: Bool, floatYears: Bool = false) -> TimeFormat? {
    guard !values.isEmpty else { return nil }
    var nums: [Double] = []
    nums.reserveCapacity(values.count)
    for v in values {
      var d = 0.0
      guard v.withUnsafeBufferPointer({ cs_parseDouble($0.baseAddress!, $0.count, &d) }) else { nums = []; break }
      nums.append(d)
    }
    if nums.count == values.count {
      if nums.allSatisfy({ $0 == $0.rounded() && $0 >= 1000 && $0 <= 2999 }) {
        if values.allSatisfy({ $0.count == 4 }) { return .year }
        if floatYears { return .yearNumber }
      }
      if nums.contains(where: { abs($0) > 1e11 }) { return numbersAreTimes || nums.allSatisfy({ abs($0) > 1e11 }) ? .unixMillis : nil }
      if numbersAreTimes || nums.allSatisfy({ abs($0) >= 1e8 && $0 == $0.rounded() }) { return .unixSeconds }
      return nil
    }
    // A format fits when it reads the first value and at least half of the others (the rows
    // it cannot read are then errors at their lines).
    for f in textFormats {
      var read = 0
      var firstOver12 = false, secondOver12 = false
      for (k, v) in values.enumerated() {
        let r: Double? = v.withUnsafeBufferPointer { b in b.count == 0 ? nil : parse(b.baseAddress!, b.count, f) }
        guard let r else { if k == 0 { break } else { continue } }
        read += 1
        if case .slash = f {
          let (a, b) = slashParts(r)
          if a > 12 { firstOver12 = true }
          if b > 12 { secondOver12 = true }
        }
      }
      guard read > 0, read * 2 >= values.count else { continue }
      if case .slash = f {
        if firstOver12 && secondOver12 { continue }
        if firstOver12 { return .slash(monthFirst: false) }
        if secondOver12 { return .slash(monthFirst: true) }
      }
      return f
    }
    return nil
  }

  /// A strftime pattern that might read `value` (for messages), or nil.
  static func suggestPattern(_ value: String) -> String? {
    // Turn runs of digits and letters into fields, in the usual order of such texts.
    var out = ""
    var fields: [String] = []
    var s = Substring(value)
    var numbersSeen = 0
    var hasMonthWord = false
    var hasTimeColon = false
    while let c = s.first {
      if c.isNumber {
        let run = s.prefix { $0.isNumber }
        s = s.dropFirst(run.count)
        let next = s.first
        let inTime = next == ":" || hasTimeColon
        if next == ":" { hasTimeColon = true }
        var f: String
        if inTime {
          f = ["%H", "%M", "%S"][min(2, fields.filter { ["%H", "%M", "%S"].contains($0) }.count)]
        } else if run.count == 4 {
          f = "%Y"
        } else if run.count == 8 && numbersSeen == 0 {
          f = "%Y%m%d"
        } else {
          let dateFields = fields.filter { ["%d", "%m", "%e"].contains($0) }
          if hasMonthWord { f = "%e" } else { f = dateFields.isEmpty ? (Int(run) ?? 0 > 12 ? "%d" : "%m") : (dateFields.contains("%d") ? "%m" : "%d") }
          if run.count == 2, fields.contains("%Y") == false, numbersSeen >= 2 { f = "%y" }
        }
        numbersSeen += 1
        fields.append(f)
        out += f
      } else if c.isLetter {
        let run = s.prefix { $0.isLetter }
        s = s.dropFirst(run.count)
        let lower = run.lowercased()
        if let m = monthNames.firstIndex(where: { String(decoding: $0, as: UTF8.self).hasPrefix(lower.prefix(3)) }), lower.count >= 3 {
          let full = String(decoding: monthNames[m], as: UTF8.self)
          out += lower == full ? "%B" : "%b"
          hasMonthWord = true
          fields.append("%b")
        } else if lower == "am" || lower == "pm" {
          out += "%p"
        } else if lower.count >= 3 && ["mon", "tue", "wed", "thu", "fri", "sat", "sun"].contains(String(lower.prefix(3))) {
          out += "%a"
        } else if lower == "t" || lower == "z" {
          out += String(run)
        } else {
          return nil
        }
      } else {
        out.append(c == "%" ? "%%" : String(c))
        s = s.dropFirst()
      }
    }
    return fields.isEmpty ? nil : out
  }
}
