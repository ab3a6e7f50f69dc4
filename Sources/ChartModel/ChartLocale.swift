/// The date and number facts of a language (CLDR, through `scripts/locales`): month and
/// weekday names, the date patterns the time axis and the poster use, separators, grouping,
/// percent and the short compact forms. One small JSON file per locale in `assets/locales/`;
/// `english` is built in (it is also `assets/locales/en.json`, which a test keeps equal).
public struct ChartLocale: Sendable, Equatable {
  /// `ru`, `pt-BR`, `zh-Hans`.
  public var id: String
  /// The language's own name for itself (`русский`).
  public var name: String
  public var rightToLeft: Bool
  /// January first; format forms (`января`) and stand-alone forms (`январь`).
  public var months: [String]
  public var monthsShort: [String]
  public var standaloneMonths: [String]
  public var standaloneMonthsShort: [String]
  /// Sunday first.
  public var weekdays: [String]
  public var weekdaysShort: [String]
  public var standaloneWeekdaysShort: [String]
  public var quarters: [String]
  public var quartersWide: [String]
  /// AM, PM.
  public var dayPeriods: [String]
  /// CLDR date patterns by use (see `Pattern`).
  public var patterns: [String: String]
  public var decimal: String
  public var group: String
  /// Digits in the first group (3) and in the ones before it (2 in Hindi: 45,05,200).
  public var primaryGrouping: Int
  public var secondaryGrouping: Int
  /// Digits the integer needs beyond the first group before it is grouped (2 in Spanish:
  /// 1234 but 12.345).
  public var minimumGroupingDigits: Int
  public var percentPrefix: String
  public var percentSuffix: String
  /// The short compact form of each magnitude 10³…10¹⁴: the power of ten divided by (0: the
  /// number is written out) and the texts around the number (`K`, ` тыс.`, `万`).
  public var compact: [CompactForm]

  public struct CompactForm: Sendable, Equatable {
    public var magnitude: Int
    public var divisorExponent: Int
    public var prefix: String
    public var suffix: String
    public init(magnitude: Int, divisorExponent: Int, prefix: String, suffix: String) {
      self.magnitude = magnitude; self.divisorExponent = divisorExponent; self.prefix = prefix; self.suffix = suffix
    }
  }

  /// The uses of the date patterns; every locale file has all of them.
  public enum Pattern: String, CaseIterable, Sendable {
    /// An axis label at midnight (`Apr 3`, `3 апр.`, `4月3日`).
    case monthDay
    /// An axis label at a month start (`Apr`, `апр.`, `4月`).
    case month
    /// An axis label at a year start, the poster of yearly data (`2019`, `2019年`).
    case year
    /// The poster of monthly data (`Sep 2004`).
    case yearMonth
    /// The poster of weekly data (`Feb 28 2019`).
    case date
    /// The poster of daily data (`Thu, Feb 28 2019`).
    case weekdayDate
    /// The poster of quarterly data (`Q3 2004`).
    case quarter
    /// An axis label on a whole minute, the poster's time (`14:00`).
    case time
    /// An axis label between whole minutes (`14:00:05`).
    case timeSeconds
    /// How a date and a time join: `{1}` the date, `{0}` the time.
    case dateTime
  }

  /// The locales in `assets/locales/` (a test keeps this list and the files equal).
  public static let names = ["en", "es", "fr", "de", "pt-BR", "ru", "uk", "zh-Hans", "ja", "ko", "ar", "he", "hi"]

  public func pattern(_ p: Pattern) -> String { patterns[p.rawValue] ?? ChartLocale.english.patterns[p.rawValue]! }

  /// chartscene's English: the texts the pictures have always had.
  public static let english = ChartLocale(
    id: "en", name: "English", rightToLeft: false,
    months: ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"],
    monthsShort: ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"],
    standaloneMonths: ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"],
    standaloneMonthsShort: ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"],
    weekdays: ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"],
    weekdaysShort: ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"],
    standaloneWeekdaysShort: ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"],
    quarters: ["Q1", "Q2", "Q3", "Q4"], quartersWide: ["1st quarter", "2nd quarter", "3rd quarter", "4th quarter"], dayPeriods: ["AM", "PM"],
    patterns: ["monthDay": "MMM d", "month": "LLL", "year": "y", "yearMonth": "MMM y", "date": "MMM d y", "weekdayDate": "EEE, MMM d y",
               "quarter": "QQQ y", "time": "HH:mm", "timeSeconds": "HH:mm:ss", "dateTime": "{1} {0}"],
    decimal: ".", group: ",", primaryGrouping: 3, secondaryGrouping: 3, minimumGroupingDigits: 1, percentPrefix: "", percentSuffix: "%",
    compact: (3...14).map { e in CompactForm(magnitude: e, divisorExponent: e / 3 * 3, prefix: "", suffix: ["K", "M", "B", "T"][e / 3 - 1]) })

  public init(id: String, name: String, rightToLeft: Bool, months: [String], monthsShort: [String], standaloneMonths: [String],
              standaloneMonthsShort: [String], weekdays: [String], weekdaysShort: [String], standaloneWeekdaysShort: [String],
              quarters: [String], quartersWide: [String], dayPeriods: [String], patterns: [String: String], decimal: String, group: String,
              primaryGrouping: Int, secondaryGrouping: Int, minimumGroupingDigits: Int, percentPrefix: String, percentSuffix: String,
              compact: [CompactForm])
  {
    self.id = id; self.name = name; self.rightToLeft = rightToLeft
    self.months = months; self.monthsShort = monthsShort; self.standaloneMonths = standaloneMonths; self.standaloneMonthsShort = standaloneMonthsShort
    self.weekdays = weekdays; self.weekdaysShort = weekdaysShort; self.standaloneWeekdaysShort = standaloneWeekdaysShort
    self.quarters = quarters; self.quartersWide = quartersWide; self.dayPeriods = dayPeriods; self.patterns = patterns
    self.decimal = decimal; self.group = group; self.primaryGrouping = primaryGrouping; self.secondaryGrouping = secondaryGrouping
    self.minimumGroupingDigits = minimumGroupingDigits; self.percentPrefix = percentPrefix; self.percentSuffix = percentSuffix
    self.compact = compact
  }

  /// An error reading a locale: one line.
  public struct LoadError: Error, Sendable, CustomStringConvertible {
    public var message: String
    public var description: String { message }
    public init(_ message: String) { self.message = message }
  }

  /// Parses a locale file (the JSON `scripts/locales` writes).
  public init(json bytes: [UInt8]) throws(LoadError) {
    let root: JSONValue
    do { root = try JSONParser.parse(bytes) } catch { throw LoadError(error.description) }
    guard case .object(let o) = root else { throw LoadError("a locale file holds an object") }
    func string(_ k: String) throws(LoadError) -> String {
      guard case .string(let s)? = o[k] else { throw LoadError("missing string '\(k)'") }
      return s
    }
    func strings(_ k: String, _ n: Int) throws(LoadError) -> [String] {
      guard case .array(let a)? = o[k], a.count == n else { throw LoadError("'\(k)' must be \(n) strings") }
      var out: [String] = []
      for v in a { guard case .string(let s) = v else { throw LoadError("'\(k)' must be \(n) strings") }; out.append(s) }
      return out
    }
    func int(_ v: JSONValue?, _ what: String, _ range: ClosedRange<Int>) throws(LoadError) -> Int {
      guard case .number(let d)? = v, d == d.rounded(), d >= Double(range.lowerBound), d <= Double(range.upperBound) else {
        throw LoadError("'\(what)' must be a whole number from \(range.lowerBound) to \(range.upperBound)")
      }
      return Int(d)
    }
    id = try string("locale")
    name = try string("name")
    rightToLeft = (try? string("direction")) == "rtl"
    months = try strings("months", 12)
    monthsShort = try strings("monthsShort", 12)
    standaloneMonths = try strings("standaloneMonths", 12)
    standaloneMonthsShort = try strings("standaloneMonthsShort", 12)
    weekdays = try strings("weekdays", 7)
    weekdaysShort = try strings("weekdaysShort", 7)
    standaloneWeekdaysShort = try strings("standaloneWeekdaysShort", 7)
    quarters = try strings("quarters", 4)
    quartersWide = try strings("quartersWide", 4)
    dayPeriods = try strings("dayPeriods", 2)
    guard case .object(let p)? = o["patterns"] else { throw LoadError("missing object 'patterns'") }
    var patterns: [String: String] = [:]
    for k in Pattern.allCases {
      guard case .string(let s)? = p[k.rawValue] else { throw LoadError("missing pattern '\(k.rawValue)'") }
      patterns[k.rawValue] = s
    }
    self.patterns = patterns
    decimal = try string("decimal")
    group = try string("group")
    guard case .array(let g)? = o["grouping"], g.count == 2 else { throw LoadError("'grouping' must be 2 numbers") }
    primaryGrouping = try int(g[0], "grouping", 0...9)
    secondaryGrouping = try int(g[1], "grouping", 0...9)
    minimumGroupingDigits = try int(o["minimumGroupingDigits"], "minimumGroupingDigits", 1...4)
    percentPrefix = try string("percentPrefix")
    percentSuffix = try string("percentSuffix")
    guard case .array(let c)? = o["compact"] else { throw LoadError("missing array 'compact'") }
    var compact: [CompactForm] = []
    for e in c {
      guard case .array(let f) = e, f.count == 4, case .string(let pre) = f[2], case .string(let suf) = f[3] else {
        throw LoadError("'compact' holds [magnitude, divisor exponent, prefix, suffix] entries")
      }
      let m = try int(f[0], "compact", 3...14)
      compact.append(CompactForm(magnitude: m, divisorExponent: try int(f[1], "compact", 0...m), prefix: pre, suffix: suf))
    }
    self.compact = compact.sorted { $0.magnitude < $1.magnitude }
  }

  /// The file name (no extension) for `requested`: exact, whatever the case and `_`/`-`
  /// (`pt_br`), else by language alone (`ru-RU` → `ru`, `zh-CN` → `zh-Hans`, `pt` → `pt-BR`);
  /// nil when none fits.
  public static func resolve(_ requested: String) -> String? {
    let r = requested.replacingUTF8("_", "-").lowercased()
    if let exact = names.first(where: { $0.lowercased() == r }) { return exact }
    let language = r.split(separator: "-").first.map(String.init) ?? r
    let same = names.filter { $0.lowercased().split(separator: "-").first.map(String.init) == language }
    return same.count == 1 ? same[0] : nil
  }

  /// Reads locale `requested` from `directory` (the assets' `locales` folder); English
  /// needs no file. Errors say the nearest names.
  public static func load(_ requested: String, directory: String) throws(LoadError) -> ChartLocale {
    guard let name = resolve(requested) else {
      throw LoadError("unknown locale '\(Nearest.shown(requested))' (nearest: \(Nearest.names(to: requested, in: names).map { "'\($0)'" }.joined(separator: ", ")); all: \(names.joined(separator: ", ")))")
    }
    if name == "en" { return english }
    let path = directory + "/" + name + ".json"
    let bytes: [UInt8]
    do { bytes = try FileReader.read(path, limit: 1 << 20) } catch { throw LoadError("locale '\(name)': \(error.description)") }
    do { return try ChartLocale(json: bytes) } catch { throw LoadError("locale file '\(path)': \(error.message)") }
  }
}

/// The names closest to a mistyped one (edit distance, case-insensitive), for error messages.
public enum Nearest {
  /// The characters of a mistyped name that are compared: no name in a list is longer (the
  /// longest zone has 32), and the distance costs this times each candidate's length, so a
  /// `--timezone` of 100,000 characters is answered at once (it took minutes).
  public static let compared = 64

  /// `name` as an error shows it: at most 100 characters, then `…`.
  public static func shown(_ name: String) -> String {
    name.unicodeScalars.count <= 100 ? name : String(String.UnicodeScalarView(name.unicodeScalars.prefix(99))) + "…"
  }

  public static func names(to word: String, in candidates: [String], count: Int = 3) -> [String] {
    let lowered = word.lowercased()
    let w = Array(lowered.unicodeScalars.prefix(compared))
    func distance(_ b: [Unicode.Scalar]) -> Int {
      if w.isEmpty { return b.count }
      var prev = Array(0...b.count)
      for i in 1...w.count {
        var cur = [i] + Array(repeating: 0, count: b.count)
        for j in stride(from: 1, through: b.count, by: 1) {
          cur[j] = min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (w[i - 1] == b[j - 1] ? 0 : 1))
        }
        prev = cur
      }
      return prev[b.count]
    }
    let scored = candidates.enumerated().map { (i, c) -> (Int, Int, String) in
      let lc = Array(c.lowercased().unicodeScalars)
      // A name that contains the word (or its last part, `Oslo` in `Europe/Oslo`) is near.
      let tail = c.split(separator: "/").last.map { String($0).lowercased() } ?? c.lowercased()
      let d = tail == lowered ? 0 : min(distance(lc), distance(Array(tail.unicodeScalars)) + 1)
      return (d, i, c)
    }
    return scored.sorted { ($0.0, $0.1) < ($1.0, $1.1) }.prefix(count).map(\.2)
  }
}

extension String {
  func replacingUTF8(_ a: Character, _ b: Character) -> String { String(map { $0 == a ? b : $0 }) }
}
