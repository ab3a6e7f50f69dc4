/// What an error or warning line may hold: it is printed to a terminal, and its text may come
/// from a script (`error("\27]0;…")`) or a data file (`"\r\nerror: forged"`). Control
/// characters (C0, DEL, C1) and the invisible bidirectional overrides are shown escaped
/// (`\n`, `\r`, `\t`, `\x1b`, `\u{202e}`), so the line is always one line and says what the
/// text holds; a message longer than `limit` characters is cut with `…`.
public enum OneLine {
  /// Characters of a printed line (`error: ` included) before it is cut.
  public static let limit = 500

  /// `s` with every control character escaped.
  public static func escape(_ s: String) -> String {
    guard s.unicodeScalars.contains(where: needsEscape) else { return s }
    var out = ""
    out.reserveCapacity(s.utf8.count + 8)
    for u in s.unicodeScalars {
      guard needsEscape(u) else { out.unicodeScalars.append(u); continue }
      switch u {
      case "\n": out += "\\n"
      case "\r": out += "\\r"
      case "\t": out += "\\t"
      default:
        let hex = String(u.value, radix: 16)
        out += u.value < 0x100 ? "\\x" + (hex.count < 2 ? "0" + hex : hex) : "\\u{\(hex)}"
      }
    }
    return out
  }

  /// One printable line: escaped, and cut to `limit` characters with `…`.
  public static func clean(_ s: String, limit: Int = OneLine.limit) -> String {
    let e = escape(s)
    guard e.count > limit else { return e }
    return String(e.prefix(limit - 1)) + "…"
  }

  static func needsEscape(_ u: Unicode.Scalar) -> Bool {
    let v = u.value
    return v < 0x20 || (v >= 0x7f && v < 0xa0) || (v >= 0x202a && v <= 0x202e) || (v >= 0x2066 && v <= 0x2069)
      || v == 0x200e || v == 0x200f || v == 0x061c
  }
}
