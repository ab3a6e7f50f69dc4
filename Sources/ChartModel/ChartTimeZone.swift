/// An IANA time zone (`Europe/Oslo`) read from the system's tz database (TZif files in
/// `/usr/share/zoneinfo`, Debian's `tzdata`), or UTC, which needs no file (so a lone binary
/// draws UTC scenes anywhere). Offsets come from the file's transitions, and after its last
/// one from its POSIX rule (`CET-1CEST,M3.5.0,M10.5.0/3`), so "slim" files work too.
/// Foundation is not used: it is not linked, and its zones would read the same files.
public struct ChartTimeZone: Sendable, Equatable {
  /// `UTC` or the IANA name.
  public var id: String
  /// Instants (UNIX seconds) where the offset changes, ascending, and the offset (seconds
  /// east of UTC) from each one on; `initial` before the first.
  var transitions: [Int64] = []
  var offsets: [Int32] = []
  var initial: Int32 = 0
  /// The rule after the last transition (nil: the last offset stays).
  var rule: PosixRule?

  public var isUTC: Bool { transitions.isEmpty && rule == nil && initial == 0 }

  public static let utc = ChartTimeZone(id: "UTC")
  init(id: String) { self.id = id }

  /// Where the tz database is read from.
  public static let databaseDirectory = "/usr/share/zoneinfo"

  public struct LoadError: Error, Sendable, CustomStringConvertible {
    public var message: String
    public var description: String { message }
    public init(_ message: String) { self.message = message }
  }

  /// The zone named `name` (`UTC`, `Etc/UTC`, `Z` need no file). Errors name the nearest
  /// zones.
  public static func load(_ name: String, directory: String = databaseDirectory) throws(LoadError) -> ChartTimeZone {
    if ["utc", "z", "etc/utc", "gmt", "etc/gmt", "zulu", "etc/zulu", "universal"].contains(name.lowercased()) { return .utc }
    let parts = name.split(separator: "/", omittingEmptySubsequences: false)
    // `right/` zones count leap seconds in their timestamps (UNIX time does not): refused.
    let valid = !name.isEmpty && name.utf8.count < 128 && parts.first != "right" && parts.allSatisfy { p in
      !p.isEmpty && p != "." && p != ".." && p.utf8.allSatisfy { c in (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || (c >= 48 && c <= 57) || c == 95 || c == 45 || c == 43 }
    }
    let bytes: [UInt8]? = valid ? (try? FileReader.read(directory + "/" + name, limit: 1 << 20)) : nil
    guard let bytes, let zone = ChartTimeZone(tzif: bytes, id: name) else {
      let all = zoneNames(directory: directory)
      if all.isEmpty {
        throw LoadError("unknown time zone '\(Nearest.shown(name))' (no tz database in \(directory): install tzdata, or use \"UTC\")")
      }
      throw LoadError("unknown time zone '\(Nearest.shown(name))' (nearest: \(Nearest.names(to: name, in: all).map { "'\($0)'" }.joined(separator: ", ")))")
    }
    return zone
  }

  /// The zone names the database lists (tzdata's `tzdata.zi` / `zone1970.tab`), for messages.
  public static func zoneNames(directory: String = databaseDirectory) -> [String] {
    for file in ["tzdata.zi", "zone1970.tab", "zone.tab"] {
      guard let b = try? FileReader.read(directory + "/" + file, limit: 8 << 20) else { continue }
      var out: [String] = []
      for line in String(decoding: b, as: UTF8.self).split(separator: "\n") {
        let f = line.split(whereSeparator: { $0 == " " || $0 == "\t" })
        if file == "tzdata.zi" {
          // `Z Europe/Oslo ...` zones and `L Europe/Berlin Europe/Oslo` links.
          if f.count >= 2, f[0] == "Z" { out.append(String(f[1])) } else if f.count >= 3, f[0] == "L" { out.append(String(f[2])) }
        } else if f.count >= 3, !line.hasPrefix("#") {
          out.append(String(f[2]))
        }
      }
      if !out.isEmpty { return out.sorted() }
    }
    return []
  }

  /// Parses a TZif file (versions 1-4; the 64-bit part when there is one).
  public init?(tzif b: [UInt8], id: String) {
    self.id = id
    func u32(_ i: Int) -> UInt32 { UInt32(b[i]) << 24 | UInt32(b[i + 1]) << 16 | UInt32(b[i + 2]) << 8 | UInt32(b[i + 3]) }
    func header(_ at: Int) -> (isut: Int, isstd: Int, leap: Int, time: Int, type: Int, char: Int)? {
      guard at + 44 <= b.count, b[at] == 0x54, b[at + 1] == 0x5A, b[at + 2] == 0x69, b[at + 3] == 0x66 else { return nil }
      let v = (0..<6).map { Int(u32(at + 20 + 4 * $0)) }
      guard v.allSatisfy({ $0 < 1 << 20 }) else { return nil }
      return (v[0], v[1], v[2], v[3], v[4], v[5])
    }
    guard let h1 = header(0) else { return nil }
    var at = 44, timeSize = 4, h = h1
    let v1Size = h1.time * 4 + h1.time + h1.type * 6 + h1.char + h1.leap * 8 + h1.isstd + h1.isut
    if b[4] >= 0x32, let h2 = header(44 + v1Size) { at = 44 + v1Size + 44; timeSize = 8; h = h2 }
    guard h.type >= 1, at + h.time * timeSize + h.time + h.type * 6 <= b.count else { return nil }
    var times: [Int64] = []
    for k in 0..<h.time {
      let i = at + k * timeSize
      if timeSize == 8 { times.append(Int64(bitPattern: UInt64(u32(i)) << 32 | UInt64(u32(i + 4)))) } else { times.append(Int64(Int32(bitPattern: u32(i)))) }
    }
    let idxAt = at + h.time * timeSize
    let typeAt = idxAt + h.time
    var typeOffsets: [Int32] = []
    for k in 0..<h.type { typeOffsets.append(Int32(bitPattern: u32(typeAt + 6 * k))) }
    for k in 0..<h.time {
      let t = Int(b[idxAt + k])
      guard t < typeOffsets.count else { return nil }
      transitions.append(times[k]); offsets.append(typeOffsets[t])
    }
    initial = typeOffsets[0]
    // The footer: `\nRULE\n` after the 64-bit data.
    if timeSize == 8 {
      let end = typeAt + h.type * 6 + h.char + h.leap * 12 + h.isstd + h.isut
      if end < b.count, b[end] == 10, let close = b[(end + 1)...].firstIndex(of: 10) {
        let text = String(decoding: b[(end + 1)..<close], as: UTF8.self)
        if !text.isEmpty { rule = PosixRule(text) }
        // A fixed offset and no transitions (`Etc/UTC`, `Etc/GMT-3`): no rule to follow.
        if let r = rule, r.dst == nil, transitions.isEmpty { initial = r.std; rule = nil }
      }
    }
  }

  /// Seconds east of UTC at UNIX second `s`.
  public func offsetSeconds(atUTC s: Int64) -> Int32 {
    if transitions.isEmpty || s >= transitions[transitions.count - 1] {
      if let rule, transitions.isEmpty || s >= transitions[transitions.count - 1] { return rule.offset(atUTC: s) }
      return transitions.isEmpty ? initial : offsets[offsets.count - 1]
    }
    if s < transitions[0] { return initial }
    var lo = 0, hi = transitions.count - 1  // transitions[lo] <= s < transitions[hi]
    while hi - lo > 1 {
      let mid = (lo + hi) / 2
      if transitions[mid] <= s { lo = mid } else { hi = mid }
    }
    return offsets[lo]
  }

  /// Milliseconds east of UTC at UNIX milliseconds `ms`.
  public func offsetMs(atUTC ms: Double) -> Double {
    if isUTC { return 0 }
    guard ms.isFinite else { return 0 }
    let s = max(-1e15, min(1e15, (ms / 1000).rounded(.down)))
    return Double(offsetSeconds(atUTC: Int64(s))) * 1000
  }

  /// The instant a wall-clock time (ms, as if UTC) names. A time skipped by a change
  /// (02:30 on a spring-forward night) takes the offset before it; a repeated one the
  /// earlier instant.
  public func utc(fromLocal local: Double) -> Double {
    if isUTC { return local }
    let before = offsetMs(atUTC: local - 86_400_000)
    let after = offsetMs(atUTC: local + 86_400_000)
    let a = local - before
    if offsetMs(atUTC: a) == before { return a }
    let b = local - after
    if offsetMs(atUTC: b) == after { return b }
    return a
  }

  /// The wall-clock time (ms, as if UTC) at instant `ms`.
  public func local(_ ms: Double) -> Double { isUTC ? ms : ms + offsetMs(atUTC: ms) }
}

/// A POSIX TZ rule, as in the footer of TZif files: `CET-1CEST,M3.5.0,M10.5.0/3`,
/// `EST5EDT,M3.2.0,M11.1.0`, `<+03>-3` (no change). Only `Mm.w.d` dates (what tzdata writes
/// for every zone with daylight saving time today) and `Jn`/`n` days.
struct PosixRule: Sendable, Equatable {
  var std: Int32
  var dst: Int32?
  enum Day: Sendable, Equatable { case month(Int, Int, Int), julian(Int), zeroBased(Int) }
  var start: (Day, Int32)?
  var end: (Day, Int32)?
  static func == (a: PosixRule, b: PosixRule) -> Bool { a.std == b.std && a.dst == b.dst && a.start?.0 == b.start?.0 && a.start?.1 == b.start?.1 && a.end?.0 == b.end?.0 && a.end?.1 == b.end?.1 }

  init?(_ text: String) {
    var c = Array(text.utf8)[...]
    func name() -> Bool {
      if c.first == UInt8(ascii: "<") {
        guard let close = c.firstIndex(of: UInt8(ascii: ">")) else { return false }
        c = c[(close + 1)...]
        return true
      }
      var n = 0
      while let f = c.first, (f >= 65 && f <= 90) || (f >= 97 && f <= 122) { c = c.dropFirst(); n += 1 }
      return n >= 3
    }
    func number() -> Int? {
      var v = 0, n = 0
      while let f = c.first, f >= 48, f <= 57 { v = v * 10 + Int(f - 48); c = c.dropFirst(); n += 1 }
      return n > 0 ? v : nil
    }
    func time() -> Int32? {
      var sign: Int32 = 1
      if c.first == UInt8(ascii: "-") { sign = -1; c = c.dropFirst() } else if c.first == UInt8(ascii: "+") { c = c.dropFirst() }
      guard let hh = number() else { return nil }
      var s = Int32(hh) * 3600
      if c.first == UInt8(ascii: ":") { c = c.dropFirst(); guard let m = number() else { return nil }; s += Int32(m) * 60
        if c.first == UInt8(ascii: ":") { c = c.dropFirst(); guard let x = number() else { return nil }; s += Int32(x) }
      }
      return sign * s
    }
    func date() -> (Day, Int32)? {
      var d: Day
      if c.first == UInt8(ascii: "M") {
        c = c.dropFirst()
        guard let m = number(), c.first == UInt8(ascii: ".") else { return nil }; c = c.dropFirst()
        guard let w = number(), c.first == UInt8(ascii: ".") else { return nil }; c = c.dropFirst()
        guard let wd = number(), (1...12).contains(m), (1...5).contains(w), (0...6).contains(wd) else { return nil }
        d = .month(m, w, wd)
      } else if c.first == UInt8(ascii: "J") {
        c = c.dropFirst()
        guard let n = number(), (1...365).contains(n) else { return nil }
        d = .julian(n)
      } else {
        guard let n = number(), n <= 365 else { return nil }
        d = .zeroBased(n)
      }
      var t: Int32 = 7200
      if c.first == UInt8(ascii: "/") { c = c.dropFirst(); guard let x = time() else { return nil }; t = x }
      return (d, t)
    }
    guard name(), let s = time() else { return nil }
    std = -s  // POSIX counts west of UTC
    if c.isEmpty { dst = nil; return }
    guard name() else { return nil }
    if c.first != UInt8(ascii: ",") { guard let d = time() else { return nil }; dst = -d } else { dst = std + 3600 }
    guard c.first == UInt8(ascii: ",") else { return nil }
    c = c.dropFirst()
    guard let a = date(), c.first == UInt8(ascii: ",") else { return nil }
    c = c.dropFirst()
    guard let e = date(), c.isEmpty else { return nil }
    start = a; end = e
  }

  /// The UNIX second of a rule date in `year`, at local time `t` with offset `offset`.
  static func instant(_ d: Day, _ t: Int32, year: Int, offset: Int32) -> Int64 {
    var day: Int
    switch d {
    case .month(let m, let w, let wd):
      let first = ISODate.days(year: year, month: m, day: 1)
      let firstWd = ((first % 7) + 7 + 4) % 7  // 1970-01-01 was a Thursday (4)
      var dom = 1 + (wd - firstWd + 7) % 7 + (w - 1) * 7
      let nm = m == 12 ? ISODate.days(year: year + 1, month: 1, day: 1) : ISODate.days(year: year, month: m + 1, day: 1)
      while dom > nm - first { dom -= 7 }
      day = first + dom - 1
    case .julian(let n):
      // 1-365, February 29 never counted.
      let leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0
      day = ISODate.days(year: year, month: 1, day: 1) + n - 1 + (leap && n >= 60 ? 1 : 0)
    case .zeroBased(let n):
      day = ISODate.days(year: year, month: 1, day: 1) + n
    }
    return Int64(day) * 86400 + Int64(t) - Int64(offset)
  }

  func offset(atUTC s: Int64) -> Int32 {
    guard let dst, let start, let end else { return std }
    let year = ISODate.civil(days: Int((Double(s) / 86400).rounded(.down))).year
    let a = PosixRule.instant(start.0, start.1, year: year, offset: std)
    let e = PosixRule.instant(end.0, end.1, year: year, offset: dst)
    // Northern zones: summer between start and end; southern ones (start after end): outside.
    if a < e { return s >= a && s < e ? dst : std }
    return s >= e && s < a ? std : dst
  }
}
