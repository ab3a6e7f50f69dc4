import CPNG

/// Text chunks of a PNG (the PNG specification, 11.3.4): `tEXt` for a keyword whose text is
/// Latin-1, `iTXt` (UTF-8, uncompressed, with a language tag) for any other, placed right
/// after IHDR. Readers (`pngcheck -t`, exiftool, image viewers' properties) show `Title`,
/// `Description` and `Software`.
public enum PNGText {
  /// `png` with one chunk per entry after its IHDR; `png` itself when it is not a PNG.
  public static func insert(_ entries: [(keyword: String, text: String)], language: String = "", into png: [UInt8]) -> [UInt8] {
    // Signature (8 bytes), then IHDR: length 13, type, data, CRC (25 bytes).
    let ihdrEnd = 8 + 25
    guard png.count > ihdrEnd, png[12..<16].elementsEqual(Array("IHDR".utf8)) else { return png }
    var chunks: [UInt8] = []
    for (keyword, text) in entries {
      let clean = String(String.UnicodeScalarView(text.unicodeScalars.filter { $0.value >= 0x20 || $0 == "\n" }))
      let latin1 = clean.unicodeScalars.allSatisfy { $0.value < 0x100 }
      var data = Array(keyword.utf8.prefix(79)) + [0]
      if latin1 {
        data += clean.unicodeScalars.map { UInt8($0.value) }
        chunks += chunk("tEXt", data)
      } else {
        // Not compressed, method 0; the language tag; no translated keyword.
        data += [0, 0] + Array(language.utf8.filter { $0 < 0x80 && $0 > 0x20 }) + [0, 0] + Array(clean.utf8)
        chunks += chunk("iTXt", data)
      }
    }
    return Array(png[..<ihdrEnd]) + chunks + Array(png[ihdrEnd...])
  }

  static func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
    let body = Array(type.utf8) + data
    let crc = UInt32(truncatingIfNeeded: body.withUnsafeBufferPointer { cs_png_crc($0.baseAddress, $0.count) })
    return be(UInt32(data.count)) + body + be(crc)
  }

  static func be(_ v: UInt32) -> [UInt8] { [UInt8(v >> 24), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] }
}
