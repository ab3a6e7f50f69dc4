/// The strftime-style patterns of the `{time:PATTERN}` fields of text templates.
extension DateText {
  /// The conversions a template's `{time:PATTERN}` may use (written by
  /// `DisplayFormat.format(_:strftime:)`, in the scene's locale and time zone): `%Y` 2019,
  /// `%y` 19, `%m` 02, `%d` 05, `%e` 5, `%B` February, `%b` Feb, `%A` Tuesday, `%a` Tue, `%H`
  /// 14, `%M` 05, `%S` 09, `%j` 036, `%q` the quarter (1-4), `%%` a percent sign.
  public static let patternLetters: [Character] = ["Y", "y", "m", "d", "e", "B", "b", "A", "a", "H", "M", "S", "j", "q", "%"]

  /// The first conversion of `pattern` that templates do not take, if any.
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
