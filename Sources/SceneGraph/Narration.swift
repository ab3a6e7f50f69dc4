/// Sound and subtitles of a scene (`audio = {...}`, `captions = ...` on `cs.scene`): the clips
/// mixed into a video, and the cues burned into the frames and written as a subtitle track.
public struct Narration: Sendable, Equatable {
  public var audio: [AudioClip] = []
  public var captions: [Caption] = []
  public init(audio: [AudioClip] = [], captions: [Caption] = []) { self.audio = audio; self.captions = captions }

  public var isEmpty: Bool { audio.isEmpty && captions.isEmpty }

  /// The cue shown at `t` (cues do not overlap: at most one), and how far it has faded in or
  /// out (0 … 1, over `fade` seconds at each end).
  public func caption(at t: Double, fade: Double = 0.12) -> (Caption, Double)? {
    guard let c = captions.first(where: { t >= $0.from && t < $0.to }) else { return nil }
    let f = min(fade, (c.to - c.from) / 4)
    let opacity = f > 0 ? min(1, (t - c.from) / f, (c.to - t) / f) : 1
    return (c, max(0, opacity))
  }
}

/// One sound file played from `at` seconds into the scene, its samples times `gain`.
public struct AudioClip: Sendable, Equatable {
  /// The file's full path (resolved against the script's folder).
  public var path: String
  /// As the script named it (for messages).
  public var shown: String
  public var at: Double
  public var gain: Double
  public init(path: String, shown: String, at: Double, gain: Double) { self.path = path; self.shown = shown; self.at = at; self.gain = gain }

  /// True when the first bytes of a file (up to 16, at least 4) are those of a sound file
  /// ffmpeg reads: WAV, AIFF, FLAC, Ogg, MP3, MP4/M4A, WebM/Matroska, CAF.
  public static func isSound(head: [UInt8]) -> Bool {
    let n = head.count
    guard n >= 4 else { return false }
    func at(_ o: Int, _ s: String) -> Bool { o + s.utf8.count <= n && Array(head[o..<(o + s.utf8.count)]) == Array(s.utf8) }
    return (at(0, "RIFF") && (at(8, "WAVE") || at(8, "RF64"))) || at(0, "RF64") || (at(0, "FORM") && (at(8, "AIFF") || at(8, "AIFC")))
      || at(0, "fLaC") || at(0, "OggS") || at(0, "ID3") || at(4, "ftyp") || at(0, "caff")
      || (head[0] == 0x1A && head[1] == 0x45 && head[2] == 0xDF && head[3] == 0xA3)
      || (head[0] == 0xFF && head[1] & 0xE0 == 0xE0)
  }
}

/// A subtitle: `text` (lines separated by "\n") shown from `from` to `to` seconds.
public struct Caption: Sendable, Equatable {
  public var from: Double
  public var to: Double
  public var text: String
  public init(from: Double, to: Double, text: String) { self.from = from; self.to = to; self.text = text }
}

/// A bad caption: the line of the file (or the index of the cue in a Lua table) and why.
public struct CaptionError: Error, Sendable, CustomStringConvertible {
  public var line: Int
  public var message: String
  public init(line: Int, _ message: String) { self.line = line; self.message = message }
  public var description: String { message }
}

public enum Captions {
  /// The most cues a scene may have, and the longest text of one.
  public static let maximumCues = 100_000
  public static let maximumText = 2_000

  /// Reads SubRip (`.srt`) or WebVTT (`.vtt`, recognised by its `WEBVTT` header): numbered
  /// (SRT) blocks of `HH:MM:SS,mmm --> HH:MM:SS,mmm` and text lines, separated by blank lines.
  /// Markup tags (`<i>`, `{\an8}`) are removed. Throws at the first bad line.
  public static func parse(_ bytes: [UInt8]) throws(CaptionError) -> [Caption] {
    var text = String(decoding: bytes, as: UTF8.self)
    if text.hasPrefix("\u{FEFF}") { text.removeFirst() }
    let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map { $0.hasSuffix("\r") ? String($0.dropLast()) : String($0) }
    var cues: [Caption] = []
    var k = 0
    let vtt = lines.first.map { $0 == "WEBVTT" || $0.hasPrefix("WEBVTT ") || $0.hasPrefix("WEBVTT\t") } ?? false
    if vtt {
      // The header block (and any NOTE/STYLE block) ends at a blank line.
      while k < lines.count && !lines[k].trimmed.isEmpty { k += 1 }
    }
    while k < lines.count {
      if lines[k].trimmed.isEmpty { k += 1; continue }
      if vtt, lines[k].hasPrefix("NOTE") || lines[k] == "STYLE" || lines[k] == "REGION" {
        while k < lines.count && !lines[k].trimmed.isEmpty { k += 1 }
        continue
      }
      // An optional number (SRT) or identifier (VTT) before the times.
      var timing = k
      if !lines[k].contains("-->") {
        if !vtt && Int(lines[k].trimmed) == nil {
          throw CaptionError(line: k + 1, "expected a cue number or 'HH:MM:SS,mmm --> HH:MM:SS,mmm', got '\(clip(lines[k]))'")
        }
        timing = k + 1
      }
      guard timing < lines.count, lines[timing].contains("-->") else {
        let got = timing < lines.count ? "'\(clip(lines[timing]))'" : "the end of the file"
        throw CaptionError(line: timing + 1, "expected 'HH:MM:SS,mmm --> HH:MM:SS,mmm', got \(got)")
      }
      let parts = lines[timing].split(separator: "-->", omittingEmptySubsequences: false).map(String.init)
      guard parts.count == 2, let from = time(parts[0].trimmed),
            let to = time(String(parts[1].trimmed.prefix { $0 != " " && $0 != "\t" })) else {
        throw CaptionError(line: timing + 1, "bad cue times '\(clip(lines[timing]))' (expected 'HH:MM:SS,mmm --> HH:MM:SS,mmm')")
      }
      var body: [String] = []
      k = timing + 1
      while k < lines.count && !lines[k].trimmed.isEmpty { body.append(stripTags(lines[k]).trimmed); k += 1 }
      try add(&cues, Caption(from: from, to: to, text: body.joined(separator: "\n")), line: timing + 1)
    }
    return cues
  }

  /// Appends a cue after checking it against the one before: times in order, not
  /// overlapping, the end after the start.
  public static func add(_ cues: inout [Caption], _ c: Caption, line: Int) throws(CaptionError) {
    guard c.from.isFinite, c.to.isFinite, (0...360_000).contains(c.from), (0...360_000).contains(c.to) else {
      throw CaptionError(line: line, "cue times must be between 0 and 100 hours")
    }
    guard c.to > c.from else { throw CaptionError(line: line, "the cue ends (\(stamp(c.to, comma: true))) before it starts (\(stamp(c.from, comma: true)))") }
    if let last = cues.last, c.from < last.to {
      throw CaptionError(line: line, "the cue starts at \(stamp(c.from, comma: true)), before the one before it ends (\(stamp(last.to, comma: true))): cues must be in order and not overlap")
    }
    guard c.text.utf8.count <= maximumText else { throw CaptionError(line: line, "the cue's text is longer than \(maximumText) bytes") }
    guard cues.count < maximumCues else { throw CaptionError(line: line, "more than \(maximumCues) cues") }
    cues.append(c)
  }

  /// "01:02:03,456" (SRT), "01:02:03.456" (VTT), "02:03.456" or a number of seconds.
  static func time(_ s: String) -> Double? {
    let parts = s.replacing(",", with: ".").split(separator: ":", omittingEmptySubsequences: false)
    guard (1...3).contains(parts.count) else { return nil }
    var total = 0.0
    for (i, p) in parts.enumerated() {
      let last = i == parts.count - 1
      guard !p.isEmpty, p.allSatisfy({ $0.isASCII && ($0.isNumber || (last && $0 == ".")) }), let v = Double(p) else { return nil }
      if !last { guard v == v.rounded() else { return nil } }
      if i > 0 { guard v < 60 else { return nil } }
      total = total * 60 + v
    }
    return total
  }

  /// A WebVTT file of the cues (what is written beside a video and muxed as its track).
  public static func webVTT(_ cues: [Caption], offset: Double = 0) -> String {
    var out = "WEBVTT\n"
    for c in cues {
      let from = c.from - offset, to = c.to - offset
      guard to > 0 else { continue }
      out += "\n" + stamp(max(0, from), comma: false) + " --> " + stamp(to, comma: false) + "\n"
      // A blank line would end the cue; "-->" would be read as times.
      out += c.text.split(separator: "\n").map { $0.replacing("-->", with: "→") }.joined(separator: "\n") + "\n"
    }
    return out
  }

  /// "HH:MM:SS.mmm" (or with a comma, as SRT writes it).
  public static func stamp(_ t: Double, comma: Bool) -> String {
    let ms = t.isFinite ? Int((min(max(t, 0), 3.6e8) * 1000).rounded()) : 0
    func two(_ v: Int) -> String { v < 10 ? "0\(v)" : "\(v)" }
    func three(_ v: Int) -> String { v < 10 ? "00\(v)" : v < 100 ? "0\(v)" : "\(v)" }
    return "\(two(ms / 3_600_000)):\(two(ms / 60_000 % 60)):\(two(ms / 1000 % 60))\(comma ? "," : ".")\(three(ms % 1000))"
  }

  /// The text without `<...>` tags and `{\...}` overrides.
  static func stripTags(_ s: String) -> String {
    var out = ""
    var skipping: Character? = nil
    let chars = Array(s)
    for (i, ch) in chars.enumerated() {
      if let end = skipping { if ch == end { skipping = nil }; continue }
      if ch == "<", chars[(i + 1)...].contains(">") { skipping = ">"; continue }
      if ch == "{", i + 1 < chars.count, chars[i + 1] == "\\" { skipping = "}"; continue }
      out.append(ch)
    }
    return out.replacing("&amp;", with: "&").replacing("&lt;", with: "<").replacing("&gt;", with: ">").replacing("&nbsp;", with: " ")
  }

  static func clip(_ s: String) -> String { s.count > 60 ? String(s.prefix(57)) + "..." : s }
}

extension String {
  fileprivate var trimmed: String {
    var s = Substring(self)
    while let f = s.first, f == " " || f == "\t" { s.removeFirst() }
    while let l = s.last, l == " " || l == "\t" { s.removeLast() }
    return String(s)
  }
}
