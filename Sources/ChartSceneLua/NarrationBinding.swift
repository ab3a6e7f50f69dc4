import ChartModel
import Glibc
import LuaKit
import SceneGraph

/// `audio = ...` and `captions = ...` on `cs.scene` (SceneGraph/Narration.swift).
enum NarrationBinding {
  static func read(_ lua: LuaState, _ o: LuaOptions, context: BindingContext, duration: Double) throws -> Narration {
    var n = Narration()
    if let clips = try o.with("audio", { idx throws -> [AudioClip] in try audio(lua, idx, context: context, duration: duration) }) { n.audio = clips }
    if let cues = try o.with("captions", { idx throws -> [Caption] in try captions(lua, idx, context: context) }) { n.captions = cues }
    return n
  }

  /// `"voice.wav"`, `{ file = "voice.wav", at = 2, gain = 0.8 }` or a list of those.
  static func audio(_ lua: LuaState, _ idx: Int32, context: BindingContext, duration: Double) throws(LuaError) -> [AudioClip] {
    if lua.type(at: idx) == .string { return [try clip(lua, idx, context: context, duration: duration, what: "audio")] }
    guard lua.type(at: idx) == .table else { throw LuaError("bad field 'audio' in cs.scene (a file name, a clip { file = , at = , gain = } or a list of clips expected, got \(lua.valueTypeName(at: idx)))") }
    let list = try LuaOptions(lua, idx, .audioClip, allowsArray: true)
    if list.has("file") { return [try clip(lua, idx, context: context, duration: duration, what: "audio")] }
    let count = list.arrayCount
    guard count > 0 else { throw LuaError("missing field 'file' in audio (a clip is { file = \"voice.wav\", at = seconds, gain = 1 })") }
    guard count <= 1000 else { throw LuaError("bad field 'audio' in cs.scene (at most 1000 clips, got \(count))") }
    var out: [AudioClip] = []
    for k in 1...count {
      lua.rawGet(idx, index: k)
      defer { lua.pop() }
      out.append(try clip(lua, lua.top, context: context, duration: duration, what: "audio[\(k)]"))
    }
    return out
  }

  static func clip(_ lua: LuaState, _ idx: Int32, context: BindingContext, duration: Double, what: String) throws(LuaError) -> AudioClip {
    let file: String
    var at = 0.0, gain = 1.0
    if let s = lua.toString(idx), lua.type(at: idx) == .string {
      file = s
    } else {
      guard lua.type(at: idx) == .table else { throw LuaError("bad \(what) in cs.scene (a file name or { file = , at = , gain = } expected, got \(lua.valueTypeName(at: idx)))") }
      let table = OptionTable.audioClip
      let c = try LuaOptions(lua, idx, table)
      guard let f = try c.string("file") else { throw LuaError("missing field 'file' in \(what) (the sound file, e.g. \"voice.wav\")") }
      file = f
      at = try c.number(table.spec("at")) ?? 0
      gain = try c.number(table.spec("gain")) ?? 1
    }
    if duration > 0, at >= duration {
      throw LuaError("\(what) '\(file)' starts at \(LuaOptions.text(at)) s, after the scene ends (duration \(LuaOptions.text(duration)) s)")
    }
    let path = try context.confined(file)
    try checkSound(path, shown: file)
    context.files.insert(path)
    return AudioClip(path: BindingContext.realPath(path) ?? path, shown: file, at: at, gain: gain)
  }

  /// Refuses a file that is missing, unreadable or not a sound file ffmpeg reads (by its
  /// first bytes: WAV, AIFF, FLAC, Ogg, MP3, MP4/M4A, WebM/Matroska, CAF).
  static func checkSound(_ path: String, shown: String) throws(LuaError) {
    let fd: Int32, size: Int
    do { (fd, size) = try FileReader.openRegular(path) } catch { throw LuaError("cannot read '\(shown)': \(error.reason)") }
    defer { close(fd) }
    var head = [UInt8](repeating: 0, count: 16)
    let n = head.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress!, 16) }
    guard n >= 4, size > 0 else { throw LuaError("cannot use '\(shown)' as audio: the file is empty") }
    let known = AudioClip.isSound(head: Array(head[0..<n]))
    guard known else {
      throw LuaError("cannot use '\(shown)' as audio: it is not a sound file (WAV, FLAC, Ogg, MP3, M4A, WebM or AIFF)")
    }
  }

  /// `"story.srt"` (or `.vtt`), or a list of `{ from, to, text }` (positional or named).
  static func captions(_ lua: LuaState, _ idx: Int32, context: BindingContext) throws(LuaError) -> [Caption] {
    if let name = lua.toString(idx), lua.type(at: idx) == .string {
      let path = try context.confined(name)
      let bytes: [UInt8]
      do { bytes = try FileReader.read(path, limit: 16 << 20) } catch { throw LuaError(error.description.replacing(path, with: name)) }
      context.files.insert(path)
      guard !bytes.contains(0) else { throw LuaError("cannot use '\(name)' as captions: it is not a text file (SubRip .srt or WebVTT .vtt)") }
      do { return try Captions.parse(bytes) } catch { throw LuaError("\(name):\(error.line): \(error.message)", wantsLocation: false) }
    }
    guard lua.type(at: idx) == .table else {
      throw LuaError("bad field 'captions' in cs.scene (a .srt or .vtt file name or a list of { from, to, text } expected, got \(lua.valueTypeName(at: idx)))")
    }
    let count = lua.rawLength(idx)
    var stray = false
    lua.forEach(idx) {
      if let n = lua.toNumber(-2), lua.type(at: -2) == .number, n == n.rounded(), n >= 1, n <= Double(count) { return }
      stray = true
    }
    if stray { throw LuaError("bad field 'captions' in cs.scene (a list of { from, to, text } expected: it has keys other than 1..n)") }
    guard count <= Captions.maximumCues else { throw LuaError("bad field 'captions' in cs.scene (at most \(Captions.maximumCues) cues)") }
    var cues: [Caption] = []
    for k in 0..<count {
      lua.rawGet(idx, index: k + 1)
      defer { lua.pop() }
      let what = "captions[\(k + 1)]"
      guard lua.type(at: -1) == .table else { throw LuaError("bad \(what) in cs.scene ({ from, to, text } expected, got \(lua.valueTypeName(at: -1)))") }
      let c = try LuaOptions(lua, -1, .caption)
      func field(_ key: String, _ pos: Int) throws(LuaError) -> Int32? {
        lua.rawGet(c.index, key)
        if !lua.isNil(-1) { return lua.top }
        lua.pop()
        lua.rawGet(c.index, index: pos)
        if !lua.isNil(-1) { return lua.top }
        lua.pop()
        return nil
      }
      func number(_ key: String, _ pos: Int) throws(LuaError) -> Double {
        guard let i = try field(key, pos) else { throw LuaError("missing '\(key)' in \(what) (a cue is { from, to, text }, times in seconds)") }
        defer { lua.pop() }
        guard lua.type(at: i) == .number, let v = lua.toNumber(i), v.isFinite else { throw LuaError("bad '\(key)' in \(what) (number of seconds expected, got \(lua.valueTypeName(at: i)))") }
        return v
      }
      let from = try number("from", 1), to = try number("to", 2)
      guard let ti = try field("text", 3) else { throw LuaError("missing 'text' in \(what) (a cue is { from, to, text })") }
      defer { lua.pop() }
      guard lua.type(at: ti) == .string, let text = lua.toString(ti) else { throw LuaError("bad 'text' in \(what) (string expected, got \(lua.valueTypeName(at: ti)))") }
      do { try Captions.add(&cues, Caption(from: from, to: to, text: text), line: k + 1) } catch { throw LuaError("bad \(what) in cs.scene: \(error.message)") }
    }
    return cues
  }
}
