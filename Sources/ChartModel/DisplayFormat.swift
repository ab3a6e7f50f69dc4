/// How a scene writes times and numbers for its reader: a locale (names, patterns,
/// separators, compact forms) and a time zone (where midnight is). Every date and number
/// text a chart shows goes through here: axis labels, the poster, the zoomed pie's date,
/// and text templates (`format(time:strftime:)`, `compact`, `grouped`, `percent`).
///
/// `standard` (English, UTC) writes exactly the texts chartscene always has.
public struct DisplayFormat: Sendable, Equatable {
  public var locale: ChartLocale { didSet { samples = DisplayFormat.samples(locale) } }
  public var zone: ChartTimeZone
  /// The axis's sample labels by interval unit, written once per locale (the axis measures
  /// them several times a frame).
  private var samples: [TimeInterval.Unit: [String]]

  public init(locale: ChartLocale = .english, zone: ChartTimeZone = .utc) {
    self.locale = locale; self.zone = zone
    samples = DisplayFormat.samples(locale)
  }

  public static let standard = DisplayFormat()

  public var isStandard: Bool { locale.id == "en" && zone.isUTC }

  // MARK: Numbers

  /// A Y-axis label: short, with enough decimals to tell ticks `step` apart (`1.2K`,
  /// `1,2 тыс.`, `1.2万`).
  public func axisNumber(_ value: Double, step: Double) -> String { CompactNumber.format(value, step: step, locale: locale) }

  /// A short number on its own (`4.5M`, `4,5 млн`, `450万`): 2-3 significant digits.
  public func compact(_ value: Double) -> String { CompactNumber.format(value, step: 0, locale: locale) }

  /// A full number with group separators, the value's own precision up to 6 significant
  /// digits (`4,505,200`, `4 505 200`, `45,05,200`).
  public func grouped(_ value: Double) -> String { CompactNumber.grouped(value, locale: locale) }

  /// A full number with at most `decimals` decimals (trailing zeros dropped).
  public func grouped(_ value: Double, decimals: Int) -> String { CompactNumber.grouped(value, decimals: decimals, locale: locale) }

  /// A number text (already written in this locale) as a percentage: `42%`, `42 %`.
  public func percent(_ text: String) -> String { locale.percentPrefix + text + locale.percentSuffix }

  /// A share in percent, rounded to `decimals`: `42%`, `42,5 %`.
  public func percent(_ value: Double, decimals: Int = 0) -> String { percent(grouped(value, decimals: decimals)) }

  // MARK: Times

  /// The wall-clock parts of instant `ms` in the zone.
  public func parts(_ ms: Double) -> TimeParts { TimeParts(localMs: zone.local(ms)) }

  /// An X-axis label by its level: the year at a year start (`2019`, `2019年`), the month
  /// at a month start (`Apr`, `апр.`), the date at midnight (`Apr 3`, `3 апр.`), else the
  /// time (`14:00`, `14:00:05`), all in local time.
  public func axisLabel(_ ms: Double) -> String {
    if isStandard { return TimeScale.label(ms) }
    let (p, pattern) = axisLabelParts(ms)
    return date(p, pattern)
  }

  /// The wall-clock parts of an X label's instant and the pattern its level writes it with
  /// (`axisLabel`).
  func axisLabelParts(_ ms: Double) -> (TimeParts, ChartLocale.Pattern) {
    var p = parts(ms)
    if p.secondOfDay != 0, !zone.isUTC, p.secondOfDay <= 7200, parts(ms - 1).day != p.day {
      // The first instant of a day whose midnight the clocks skipped: labelled as its date.
      p.secondOfDay = 0
    }
    if p.secondOfDay == 0 {
      if p.month == 1 && p.day == 1 { return (p, .year) }
      if p.day == 1 { return (p, .month) }
      return (p, .monthDay)
    }
    return (p, p.secondOfDay % 60 == 0 ? .time : .timeSeconds)
  }

  /// The context an X label at `ms` leaves out, as matplotlib's `ConciseDateFormatter`
  /// writes it in its offset: the year beside a month or a date (`Mar 5` · `2019`,
  /// `2019年` · `3月5日`), the date with its year beside a time (`Apr 1 2019` · `06:00`);
  /// nil beside a year (`2019` says it all). `before`: the locale writes the context before
  /// the label (its date pattern puts the year first, its date-time pattern the date
  /// first), as read; on the axis, which runs left to right, a right-to-left locale's
  /// "before" is on the right.
  /// `year`: the context is the year (beside a month or a date), not a date.
  public func axisContext(_ ms: Double) -> (text: String, before: Bool, year: Bool)? {
    let (p, pattern) = axisLabelParts(ms)
    var text: String, before: Bool, year = false
    switch pattern {
    case .year: return nil
    case .month, .monthDay:
      text = date(p, .year)
      before = Self.yearFirst(locale.pattern(.date))
      year = true
    default:
      text = date(p, .date)
      let joined = locale.pattern(.dateTime)[...]
      before = (joined.range(of: "{1}")?.lowerBound ?? joined.endIndex) <= (joined.range(of: "{0}")?.lowerBound ?? joined.endIndex)
    }
    if locale.rightToLeft { before.toggle() }
    return (text, before, year)
  }

  /// The context of any instant as a row of dates (`year`: `2019`) or of times (the date,
  /// `Apr 1 2019`) writes it: what the axis start says while the window moves.
  public func axisContext(_ ms: Double, year: Bool) -> String {
    date(parts(ms), year ? .year : .date)
  }

  /// Whether a CLDR date pattern writes the year before the month and the day (`y年M月d日`).
  static func yearFirst(_ pattern: String) -> Bool {
    var quoted = false
    for c in pattern {
      if c == "'" { quoted.toggle(); continue }
      guard !quoted else { continue }
      if c == "y" || c == "Y" || c == "u" { return true }
      if c == "M" || c == "L" || c == "d" { return false }
    }
    return false
  }

  /// The poster's date at a set's precision (`Thu, Feb 28 2019`, `чт, 28 февр. 2019 г.`),
  /// with the time when the data has times.
  public func poster(_ ms: Double, precision: TimePrecision) -> String {
    if isStandard { return DateText.poster(ms, precision: precision) }
    let p = parts(ms)
    switch precision {
    case .year: return date(p, .year)
    case .quarter: return date(p, .quarter)
    case .month: return date(p, .yearMonth)
    case .week: return date(p, .date)
    case .day, .time:
      let d = date(p, .weekdayDate)
      guard p.secondOfDay != 0 else { return d }
      return locale.pattern(.dateTime).replacingOccurrences("{1}", d).replacingOccurrences("{0}", date(p, .time))
    }
  }

  /// The precision of a set's times as seen in the zone (daily data at local midnights is
  /// `.day`, not `.time`).
  public func precision(of set: ChartSet) -> TimePrecision {
    zone.isUTC ? set.precision : set.precision(in: zone)
  }

  /// Instant `ms` written with one of the locale's patterns.
  public func date(_ ms: Double, _ pattern: ChartLocale.Pattern) -> String { date(parts(ms), pattern) }

  func date(_ p: TimeParts, _ pattern: ChartLocale.Pattern) -> String { format(p, cldr: locale.pattern(pattern)) }

  /// Instant `ms` written with a CLDR pattern (`d MMMM y`, `EEE HH:mm`).
  public func format(_ ms: Double, cldr pattern: String) -> String { format(parts(ms), cldr: pattern) }

  /// Instant `ms` written with a strftime-like pattern, in the locale: `%Y` year, `%y` two
  /// digits, `%m` month 01-12, `%B` month name (stand-alone: `январь`), `%b` short month,
  /// `%d` day 01-31, `%e` day 1-31, `%A` weekday, `%a` short weekday, `%H` 00-23, `%I`
  /// 01-12, `%p` AM/PM, `%M` minutes, `%S` seconds, `%j` day of the year 001-366, `%q` quarter 1-4, `%Q` the quarter's
  /// short name (`Q3`, `3-й кв.`), `%x` the locale's date (`Apr 3 2019`), `%X` its time,
  /// `%%` a `%`. Unknown `%c` pairs are kept as they are.
  public func format(_ ms: Double, strftime pattern: String) -> String {
    let p = parts(ms)
    var out = ""
    var it = pattern.makeIterator()
    while let c = it.next() {
      guard c == "%" else { out.append(c); continue }
      guard let f = it.next() else { out.append("%"); break }
      switch f {
      case "Y": out += String(p.year)
      case "y": out += TimeParts.two(((p.year % 100) + 100) % 100)
      case "m": out += TimeParts.two(p.month)
      case "B": out += locale.standaloneMonths[p.month - 1]
      case "b": out += locale.standaloneMonthsShort[p.month - 1]
      case "d": out += TimeParts.two(p.day)
      case "e": out += String(p.day)
      case "A": out += locale.weekdays[p.weekday]
      case "a": out += locale.weekdaysShort[p.weekday]
      case "H": out += TimeParts.two(p.hour)
      case "I": out += TimeParts.two(p.hour % 12 == 0 ? 12 : p.hour % 12)
      case "p": out += locale.dayPeriods[p.hour < 12 ? 0 : 1]
      case "M": out += TimeParts.two(p.minute)
      case "S": out += TimeParts.two(p.second)
      case "j":
        let n = ISODate.days(year: p.year, month: p.month, day: p.day) - ISODate.days(year: p.year, month: 1, day: 1) + 1
        out += n < 10 ? "00\(n)" : n < 100 ? "0\(n)" : "\(n)"
      case "q": out += String((p.month - 1) / 3 + 1)
      case "Q": out += locale.quarters[(p.month - 1) / 3]
      case "x": out += date(p, .date)
      case "X": out += date(p, .time)
      case "%": out += "%"
      default: out.append("%"); out.append(f)
      }
    }
    return out
  }

  /// The labels an interval's ticks can have, to measure the widest: every month of the
  /// locale (English keeps its historical samples, so its pictures never change).
  public func sampleLabels(_ iv: TimeInterval) -> [String] {
    samples[iv.unit] ?? TimeScale.sampleLabels(iv)
  }

  static func samples(_ locale: ChartLocale) -> [TimeInterval.Unit: [String]] {
    if locale.id == "en" { return [:] }
    let f = DisplayFormat(unsampled: locale)
    var out: [TimeInterval.Unit: [String]] = [:]
    for u in [TimeInterval.Unit.second, .minute, .hour, .day, .week, .month, .year] { out[u] = f.writeSamples(TimeInterval(u, 1)) }
    return out
  }

  private init(unsampled locale: ChartLocale) { self.locale = locale; zone = .utc; samples = [:] }

  func writeSamples(_ iv: TimeInterval) -> [String] {
    let year = format(TimeParts(year: 2000, month: 1, day: 1), cldr: locale.pattern(.year))
    func all(_ pattern: ChartLocale.Pattern, day: Int) -> [String] {
      (1...12).map { m in format(TimeParts(year: 2000, month: m, day: min(day, m == 2 ? 28 : 30)), cldr: locale.pattern(pattern)) }
    }
    switch iv.unit {
    case .second: return [format(TimeParts(year: 2000, month: 1, day: 1, secondOfDay: 86399), cldr: locale.pattern(.timeSeconds))] + all(.monthDay, day: 28) + [year]
    case .minute, .hour: return [format(TimeParts(year: 2000, month: 1, day: 1, secondOfDay: 86340), cldr: locale.pattern(.time))] + all(.monthDay, day: 28) + all(.month, day: 1) + [year]
    case .day, .week: return all(.monthDay, day: 28) + all(.month, day: 1) + [year]
    case .month: return all(.month, day: 1) + [year]
    case .year: return [year]
    }
  }

  /// A typical date label of the axis (`Sep 30`), for spacing ticks.
  public var typicalAxisDate: String {
    locale.id == "en" ? "Sep 30" : format(TimeParts(year: 2000, month: 9, day: 30), cldr: locale.pattern(.monthDay))
  }

  /// Writes wall-clock parts with a CLDR date pattern: `y` year, `yy` two digits, `M`/`L`
  /// month (1-2 letters numeric, 3 short name, 4 name; `L` stand-alone), `d`, `E`/`c`
  /// weekday (1-3 short, 4 full), `Q` quarter (1-2 numeric, 3 short, 4 wide), `H`, `h`,
  /// `a`, `m`, `s`, `'quoted'` text.
  public func format(_ p: TimeParts, cldr pattern: String) -> String {
    var out = ""
    let chars = Array(pattern)
    var i = 0
    while i < chars.count {
      let c = chars[i]
      if c == "'" {
        if i + 1 < chars.count, chars[i + 1] == "'" { out.append("'"); i += 2; continue }
        i += 1
        while i < chars.count, chars[i] != "'" { out.append(chars[i]); i += 1 }
        i += 1
        continue
      }
      guard c.isASCII, c.isLetter else { out.append(c); i += 1; continue }
      var n = 1
      while i + n < chars.count, chars[i + n] == c { n += 1 }
      i += n
      switch c {
      case "y", "Y", "u": out += n == 2 ? TimeParts.two(((p.year % 100) + 100) % 100) : String(p.year)
      case "M", "L":
        switch n {
        case 1: out += String(p.month)
        case 2: out += TimeParts.two(p.month)
        case 3: out += (c == "L" ? locale.standaloneMonthsShort : locale.monthsShort)[p.month - 1]
        default: out += (c == "L" ? locale.standaloneMonths : locale.months)[p.month - 1]
        }
      case "d": out += n == 2 ? TimeParts.two(p.day) : String(p.day)
      case "E", "c", "e":
        if n >= 4 { out += locale.weekdays[p.weekday] } else { out += (c == "c" ? locale.standaloneWeekdaysShort : locale.weekdaysShort)[p.weekday] }
      case "Q", "q":
        let q = (p.month - 1) / 3
        out += n <= 2 ? (n == 2 ? "0" : "") + String(q + 1) : (n == 3 ? locale.quarters[q] : locale.quartersWide[q])
      case "H": out += n == 2 ? TimeParts.two(p.hour) : String(p.hour)
      case "h":
        let h = p.hour % 12 == 0 ? 12 : p.hour % 12
        out += n == 2 ? TimeParts.two(h) : String(h)
      case "a", "b", "B": out += locale.dayPeriods[p.hour < 12 ? 0 : 1]
      case "m": out += n == 2 ? TimeParts.two(p.minute) : String(p.minute)
      case "s": out += n == 2 ? TimeParts.two(p.second) : String(p.second)
      case "G": break
      default: out += String(repeating: c, count: n)
      }
    }
    return out
  }
}

/// A wall-clock time broken into its parts (proleptic Gregorian).
public struct TimeParts: Sendable, Equatable {
  public var year: Int, month: Int, day: Int
  /// Seconds since the day's midnight (0-86399).
  public var secondOfDay: Int
  /// 0 Sunday … 6 Saturday.
  public var weekday: Int
  public var hour: Int { secondOfDay / 3600 }
  public var minute: Int { secondOfDay / 60 % 60 }
  public var second: Int { secondOfDay % 60 }

  public init(localMs: Double) {
    let (d, sod) = DateText.split(localMs)
    let c = ISODate.civil(days: d)
    year = c.year; month = c.month; day = c.day; secondOfDay = sod
    weekday = ((d % 7) + 7 + 4) % 7
  }

  public init(year: Int, month: Int, day: Int, secondOfDay: Int = 0) {
    self.init(localMs: (Double(ISODate.days(year: year, month: month, day: day)) * 86400 + Double(secondOfDay)) * 1000)
  }

  static func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
}

extension String {
  func replacingOccurrences(_ target: String, _ replacement: String) -> String {
    guard !target.isEmpty else { return self }
    var out = ""
    var rest = self[...]
    while let r = rest.range(of: target) {
      out += rest[..<r.lowerBound]
      out += replacement
      rest = rest[r.upperBound...]
    }
    return out + rest
  }
}

extension Substring {
  func range(of target: String) -> Range<Substring.Index>? {
    let t = Array(target)
    guard !t.isEmpty else { return nil }
    var i = startIndex
    while i < endIndex {
      var j = i, k = 0
      while k < t.count, j < endIndex, self[j] == t[k] { j = index(after: j); k += 1 }
      if k == t.count { return i..<j }
      i = index(after: i)
    }
    return nil
  }
}

extension DisplayFormat {
  /// A locale or time zone that cannot be used: one line naming the nearest ones.
  public struct ResolveError: Error, Sendable, CustomStringConvertible {
    public var message: String
    public var description: String { message }
  }

  /// The format for a locale name (nil: English) and an IANA zone name (nil: UTC), locale
  /// files read from `localesDirectory` (nil: the names are only checked).
  public static func resolve(locale: String?, timezone: String?, localesDirectory: String?) throws(ResolveError) -> DisplayFormat {
    var f = DisplayFormat.standard
    if let locale {
      if let dir = localesDirectory {
        do { f.locale = try ChartLocale.load(locale, directory: dir) } catch { throw ResolveError(message: error.message) }
      } else if ChartLocale.resolve(locale) == nil {
        do { _ = try ChartLocale.load(locale, directory: "") } catch { throw ResolveError(message: error.message) }
      }
    }
    if let timezone {
      do { f.zone = try ChartTimeZone.load(timezone) } catch { throw ResolveError(message: error.message) }
    }
    return f
  }
}
