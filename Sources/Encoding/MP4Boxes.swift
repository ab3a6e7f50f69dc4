/// Reading the boxes of an MP4 (ISO/IEC 14496-12) that someone else wrote: a segment given
/// to `concat` may be anything, so every size in it is untrusted. Each box is read with
/// checked arithmetic — a 32-bit size, a 64-bit `largesize` up to 2^63 − 1 or a negative
/// one, a box running past its parent or the file — and a box that does not fit ends the
/// walk (the caller then has no tags and says so). Nothing here can trap (issue 37: a 56-byte
/// file with a box of 2^63 − 1 bytes overflowed `offset + length`).
///
/// The walk is a pure function of what `read` returns, so the fuzz target (`fuzz/`,
/// `FuzzMP4`) and the tests give it bytes.
public enum MP4Boxes {
  /// A box: its four-character type, where its payload starts and how long it is.
  public struct Box: Equatable, Sendable {
    /// The type's four bytes, big-endian (`ilst`'s items are numbered this way).
    public var code: UInt32
    public var body: Int64
    public var length: Int64
    public var type: String { String(decoding: [UInt8(code >> 24), UInt8(code >> 16 & 0xff), UInt8(code >> 8 & 0xff), UInt8(code & 0xff)], as: UTF8.self) }
  }

  /// The largest `moov` read into memory (16 MiB): a segment's is a few KB.
  public static let largestMoov: Int64 = 1 << 24

  /// The box whose header is in `head` (at least 8 bytes, 16 for a `largesize`) at `offset`,
  /// inside a parent that ends at `end`; nil when it does not fit (or `head` is short).
  public static func header(_ head: ArraySlice<UInt8>, at offset: Int64, end: Int64) -> Box? {
    guard offset >= 0, end >= offset, head.count >= 8 else { return nil }
    let h = head.startIndex
    var length = Int64(head[h]) << 24 | Int64(head[h + 1]) << 16 | Int64(head[h + 2]) << 8 | Int64(head[h + 3])
    var size: Int64 = 8
    if length == 1 {
      // A 64-bit largesize, read unsigned: past Int64.max it cannot be a box in this file.
      guard head.count >= 16 else { return nil }
      let big = head[(h + 8)..<(h + 16)].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
      guard big <= UInt64(Int64.max) else { return nil }
      length = Int64(big)
      size = 16
    } else if length == 0 {
      length = end - offset  // to the end of the parent (the file)
    }
    let (stop, overflow) = offset.addingReportingOverflow(length)
    guard length >= size, !overflow, stop <= end else { return nil }
    let code = UInt32(head[h + 4]) << 24 | UInt32(head[h + 5]) << 16 | UInt32(head[h + 6]) << 8 | UInt32(head[h + 7])
    return Box(code: code, body: offset + size, length: length - size)
  }

  /// The boxes of `bytes[range]`, in order, up to the first that does not fit.
  public static func boxes(_ bytes: [UInt8], _ range: Range<Int>) -> [Box] {
    var out: [Box] = []
    guard range.lowerBound >= 0, range.upperBound <= bytes.count else { return out }
    var i = range.lowerBound
    while range.upperBound - i >= 8 {
      let head = bytes[i..<min(i + 16, range.upperBound)]
      guard let box = header(head, at: Int64(i), end: Int64(range.upperBound)) else { break }
      out.append(box)
      i = Int(box.body + box.length)
    }
    return out
  }

  /// The `mdta` keys of `moov/meta` (what `MP4Writer` writes) or `moov/udta/meta` (ffmpeg with
  /// `use_metadata_tags`) and their UTF-8 values, from a file of `size` bytes that `read`
  /// gives (offset, count → the bytes, nil when it cannot); nil when it holds none.
  public static func metadataKeys(size: Int64, read: (Int64, Int) -> [UInt8]?) -> [String: String]? {
    // moov at the top level.
    var offset: Int64 = 0
    var moov: Box? = nil
    while size - offset >= 8, let head = read(offset, Int(min(16, size - offset))),
          let box = header(head[...], at: offset, end: size) {
      if box.type == "moov" { moov = box; break }
      offset = box.body + box.length
    }
    guard let moov, moov.length <= largestMoov, let m = read(moov.body, Int(moov.length)), m.count == Int(moov.length) else { return nil }
    return metadataKeys(moov: m)
  }

  /// The same of a whole file's bytes.
  public static func metadataKeys(bytes: [UInt8]) -> [String: String]? {
    metadataKeys(size: Int64(bytes.count)) { offset, count in
      guard offset >= 0, count >= 0, offset <= Int64(bytes.count), Int64(count) <= Int64(bytes.count) - offset else { return nil }
      return Array(bytes[Int(offset)..<(Int(offset) + count)])
    }
  }

  /// The keys of a `moov` box's payload.
  static func metadataKeys(moov m: [UInt8]) -> [String: String]? {
    func u32(_ i: Int) -> Int { Int(m[i]) << 24 | Int(m[i + 1]) << 16 | Int(m[i + 2]) << 8 | Int(m[i + 3]) }
    func range(_ b: Box) -> Range<Int> { Int(b.body)..<Int(b.body + b.length) }
    let top = boxes(m, 0..<m.count)
    let udta = top.first(where: { $0.type == "udta" }).map { boxes(m, range($0)) } ?? []
    // A full box: 4 bytes of version and flags before its children.
    guard let meta = (top + udta).first(where: { $0.type == "meta" }).map(range), meta.count >= 4 else { return nil }
    let inside = boxes(m, (meta.lowerBound + 4)..<meta.upperBound)
    guard let keysBox = inside.first(where: { $0.type == "keys" }).map(range),
          let ilst = inside.first(where: { $0.type == "ilst" }).map(range), keysBox.count >= 8 else { return nil }
    var keys: [String] = []
    for box in boxes(m, (keysBox.lowerBound + 8)..<keysBox.upperBound) where box.type == "mdta" {
      keys.append(String(decoding: m[range(box)], as: UTF8.self))
    }
    // ilst: boxes whose type is a 1-based index into the keys, each holding a `data` box
    // (type 1: UTF-8) after 8 bytes of type and locale.
    var tags: [String: String] = [:]
    for item in boxes(m, ilst) {
      let index = Int(item.code)
      guard index >= 1, index <= keys.count,
            let data = boxes(m, range(item)).first(where: { $0.type == "data" }).map(range),
            data.count >= 8, u32(data.lowerBound) == 1 else { continue }
      tags[keys[index - 1]] = String(decoding: m[(data.lowerBound + 8)..<data.upperBound], as: UTF8.self)
    }
    return tags.isEmpty ? nil : tags
  }
}
