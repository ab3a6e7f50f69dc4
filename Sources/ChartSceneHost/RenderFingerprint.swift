import ChartSceneLua
import Glibc

/// What the shards of one video must agree on, as one hash: the chartscene build, the
/// script's text and the contents of every file it read while loading (modules, data,
/// presets, a timeline), and the resolved scene and options (size, scale, fps, duration,
/// frame count, theme, preset, `--arg`s). Paths are not part of it (workers may keep the
/// files in other folders); only what decides the pixels is.
extension Session {
  public func fingerprint(scale: Double, preset: String?, args: [(String, String)]) -> String {
    var h = Fingerprint()
    h.add("chartscene \(BuildInfo.version) \(BuildInfo.commit)")
    h.add(scriptBytes)
    // Files read so far: at this point (before the first frame) only what loading read,
    // the same on every worker.
    for path in files { h.addFile(path) }
    let clock = simulation.clock
    h.add("size \(scene.width)x\(scene.height) scale \(scale) fps \(clock.fps) duration \(scene.duration) frames \(clock.frameCount)")
    h.add("theme \(scene.theme.name) preset \(preset ?? "-")")
    if !scene.format.isStandard { h.add("locale \(scene.format.locale.id) timezone \(scene.format.zone.id)") }
    for (k, v) in args { h.add(k); h.add(v) }
    return h.hex
  }
}

/// A 128-bit hash (two multiply–rotate lanes over 8-byte words, each field length-prefixed).
/// Not cryptographic: it tells renders apart, it does not resist forgery.
struct Fingerprint {
  var a: UInt64 = 0x243F_6A88_85A3_08D3
  var b: UInt64 = 0x1319_8A2E_0370_7344

  mutating func word(_ w: UInt64) {
    a = (a ^ w) &* 0x9E37_79B9_7F4A_7C15
    a = (a << 29) | (a >> 35)
    b = (b ^ (w &+ 0x5851_F42D_4C95_7F2D)) &* 0xC2B2_AE3D_27D4_EB4F
    b = (b << 31) | (b >> 33)
  }

  mutating func add(_ bytes: UnsafeRawBufferPointer) {
    var i = 0
    let n = bytes.count
    while i + 8 <= n {
      word(bytes.loadUnaligned(fromByteOffset: i, as: UInt64.self))
      i += 8
    }
    var tail: UInt64 = 0
    var shift: UInt64 = 0
    while i < n { tail |= UInt64(bytes[i]) << shift; shift += 8; i += 1 }
    if shift > 0 { word(tail) }
  }

  mutating func add(_ bytes: [UInt8]) {
    word(UInt64(bytes.count))
    bytes.withUnsafeBytes { add($0) }
  }

  mutating func add(_ text: String) { add(Array(text.utf8)) }

  /// A file's contents, streamed; a file that cannot be read adds its error.
  mutating func addFile(_ path: String) {
    let fd = open(path, O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else { add("unreadable \(errno)"); return }
    defer { close(fd) }
    var buf = [UInt8](repeating: 0, count: 1 << 16)
    var have = 0
    var total: UInt64 = 0
    while true {
      let n = buf.withUnsafeMutableBytes { read(fd, $0.baseAddress! + have, $0.count - have) }
      if n < 0 && errno == EINTR { continue }
      if n <= 0 { break }
      total += UInt64(n)
      have += n
      // Whole words only, the rest kept for the next read: the words follow the file,
      // however the reads split it.
      let whole = have & ~7
      buf.withUnsafeBytes { add(UnsafeRawBufferPointer(rebasing: $0[0..<whole])) }
      for k in 0..<(have - whole) { buf[k] = buf[whole + k] }
      have -= whole
    }
    buf.withUnsafeBytes { add(UnsafeRawBufferPointer(rebasing: $0[0..<have])) }
    word(total)
  }

  var hex: String {
    func h(_ x: UInt64) -> String {
      var m = x ^ (x >> 31)
      m = m &* 0xBF58_476D_1CE4_E5B9
      m ^= m >> 27
      let s = String(m, radix: 16)
      return String(repeating: "0", count: 16 - s.count) + s
    }
    return h(a ^ b.byteSwapped) + h(b &+ a)
  }
}
