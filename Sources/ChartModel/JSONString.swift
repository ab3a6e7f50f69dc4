/// The body of a JSON string (RFC 8259): the one reader behind `JSONParser` and the records
/// reader of `cs.data.json`. Control characters are refused, escapes are unescaped, a
/// `\uD83D\uDE00` pair becomes one scalar, and a lone surrogate becomes U+FFFD (the escape
/// after it, if it is not the pair's other half, is read on its own).
enum JSONString {
  enum Problem: Error {
    /// No closing quote before the end.
    case unterminated
    /// A byte below 32 (a line break, a tab) inside the string.
    case control(UInt8)
    /// `\` and a byte that starts no escape.
    case badEscape(UInt8)
    /// `\u` without four hex digits.
    case badUnicode
  }

  /// Reads from `i` (just past the opening quote) to just past the closing quote, appending
  /// the string's bytes to `out`. On a problem `i` is where it was found.
  static func read(_ b: [UInt8], _ i: inout Int, into out: inout [UInt8]) throws(Problem) {
    while true {
      guard i < b.count else { throw .unterminated }
      let c = b[i]
      if c == 34 { i += 1; return }
      if c < 32 { throw .control(c) }
      if c != 92 { out.append(c); i += 1; continue }
      guard i + 1 < b.count else { throw .unterminated }
      let e = b[i + 1]
      i += 2
      switch e {
      case 34, 92, 47: out.append(e)
      case UInt8(ascii: "b"): out.append(8)
      case UInt8(ascii: "f"): out.append(12)
      case UInt8(ascii: "n"): out.append(10)
      case UInt8(ascii: "r"): out.append(13)
      case UInt8(ascii: "t"): out.append(9)
      case UInt8(ascii: "u"):
        var code = try hex4(b, &i)
        if code >= 0xD800 && code < 0xDC00, i + 6 <= b.count, b[i] == 92, b[i + 1] == UInt8(ascii: "u") {
          let next = i
          i += 2
          let low = try hex4(b, &i)
          if low >= 0xDC00 && low < 0xE000 {
            code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
          } else {
            i = next  // not a pair: the lone high surrogate becomes U+FFFD, the next escape is read on its own
          }
        }
        let scalar = Unicode.Scalar(code) ?? "\u{FFFD}"
        out.append(contentsOf: Array(String(Character(scalar)).utf8))
      default:
        i -= 1
        throw .badEscape(e)
      }
    }
  }

  static func hex4(_ b: [UInt8], _ i: inout Int) throws(Problem) -> UInt32 {
    guard i + 4 <= b.count else { throw .badUnicode }
    var v: UInt32 = 0
    for k in 0..<4 {
      let c = b[i + k]
      let d: UInt32
      switch c {
      case 48...57: d = UInt32(c - 48)
      case 65...70: d = UInt32(c - 55)
      case 97...102: d = UInt32(c - 87)
      default: throw .badUnicode
      }
      v = v * 16 + d
    }
    i += 4
    return v
  }
}
