/// strftime-style date texts (UTC, English, like every date the charts show): for the
/// `{time:PATTERN}` fields of text templates.
extension DateText {
  static let fullMonths = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"]
  static let fullWeekdays = ["Thursday", "Friday", "Saturday", "Sunday", "Monday", "Tuesday", "Wednesday"]
  /// The conversions `format` knows.
  public static let patternLetters: [Character] = ["Y", "y", "m", "d", "e", "B", "b", "A", "a", "H", "M", "S", "j", "q", "%"]

  /// `ms` formatted by an strftime pattern: `%Y` 2019, `%y` 19, `%m` 02, `%d` 05, `%e` 5,
  /// `%B` February, `%b` Feb, `%A` Tuesday, `%a` Tue, `%H` 14, `%M` 05, `%S` 09, `%j` 036,
  /// `%q` the quarter (1-4), `%%` a percent sign.
  public static func format(_ ms: Double, pattern: String) -> String {
    let (d, sod) = split(ms)
    let c = ISODate.civil(days: d)
    let weekday = ((d % 7) + 7) % 7
    var out = ""
    var percent = false
    for ch in pattern {
      guard percent else {
        if ch == "%" { percent = true } else { out.append(ch) }
        continue
      }
      percent = false
      switch ch {
      case "Y": out += String(c.year)
      case "y": out += twoDigits(((c.year % 100) + 100) % 100)
      case "m": out += twoDigits(c.month)
      case "d": out += twoDigits(c.day)
      case "e": out += String(c.day)
      case "B": out += fullMonths[c.month - 1]
      case "b": out += months[c.month - 1]
      case "A": out += fullWeekdays[weekday]
      case "a": out += weekdays[weekday]
      case "H": out += twoDigits(sod / 3600)
      case "M": out += twoDigits(sod / 60 % 60)
      case "S": out += twoDigits(sod % 60)
      case "j":
        let n = d - ISODate.days(year: c.year, month: 1, day: 1) + 1
        out += n < 10 ? "00\(n)" : n < 100 ? "0\(n)" : "\(n)"
      case "q": out += String((c.month - 1) / 3 + 1)
      default: out += "%"
      }
    }
    if percent { out += "%" }
    return out
  }

  /// The first conversion of `pattern` that `format` does not know, if any.
  public static func unknownConversion(_ pattern: String) -> String? {
    var percent = false
    for ch in pattern {
      if percent {
        if !patternLetters.contains(ch) { return "%\(ch)" }
        percent = false
      } else if ch == "%" { percent = true }
    }
    return percent ? "%" : nil
  }
}
