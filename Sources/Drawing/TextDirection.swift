/// The base direction of a text, as Unicode's bidi algorithm finds it (rule P2): the first
/// strongly directional character decides. Right-to-left texts (Arabic, Hebrew, ...) are
/// aligned to the right edge where a left-to-right one is aligned to the left.
public enum TextDirection {
  /// True when the first strong character of `text` is right-to-left.
  public static func isRightToLeft(_ text: String) -> Bool {
    for u in text.unicodeScalars {
      let v = u.value
      // Arabic-Indic digits are weak (AN): they do not decide.
      if (0x0660...0x0669).contains(v) || (0x06F0...0x06F9).contains(v) { continue }
      if (0x0590...0x08FF).contains(v) || (0xFB1D...0xFDFF).contains(v) || (0xFE70...0xFEFF).contains(v)
        || (0x10800...0x10FFF).contains(v) || (0x1E800...0x1EFFF).contains(v) {
        if u.properties.generalCategory == .nonspacingMark { continue }
        return true
      }
      if u.properties.isAlphabetic { return false }
    }
    return false
  }
}

extension TextAlign {
  /// Where a text goes when the script did not say: the right edge for a right-to-left text.
  public static func natural(_ text: String) -> TextAlign { TextDirection.isRightToLeft(text) ? .right : .left }
}
