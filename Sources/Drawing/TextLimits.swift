/// How long a text the program lays out and draws may be. A title, label or line name is
/// shaped and rasterised in every frame on every painter; a few megabytes of text there
/// cost gigabytes of glyph runs, and no picture shows more than a few hundred characters.
public enum TextLimits {
  /// The longest text, in UTF-8 bytes, that a script or a data file may give.
  public static let maxBytes = 10_000

  /// `text` cut to at most `maxBytes` bytes at a character boundary (for texts that were
  /// not checked where they came in).
  public static func clipped(_ text: String) -> String {
    guard text.utf8.count > maxBytes else { return text }
    let bytes = Array(text.utf8.prefix(maxBytes + 1))
    var n = maxBytes
    while n > 0 && bytes[n] & 0xC0 == 0x80 { n -= 1 }  // not inside a character
    return String(decoding: bytes[..<n], as: UTF8.self)
  }
}
