import Drawing
import ChartModel
import Glibc
import LuaKit
import SceneGraph
import Platform

/// A problem in a preset file, with its place.
public struct PresetError: Error, CustomStringConvertible {
  public var message: String
  /// True when the message names its own FILE:LINE (a place in a preset file).
  public var located = true
  public var description: String { message }
}

/// Finds, loads and resolves presets: data-only Lua files (no functions, no globals, no
/// I/O), `extends` chains, and a schema that names unknown keys with their line.
public struct PresetLoader {
  /// Folders searched in order after a path: next to the script, the user's, built-ins.
  public let scriptDirectory: String
  public let assetsDirectory: String?
  /// Told of every preset file read (for `--watch`).
  public var onRead: ((String) -> Void)?
  /// The families of a font file, nil when it is not a font (`scene.fonts` is checked with
  /// it), and the bundled families (`scene.font` may name one); set by the host.
  public var fontFamilies: ((String) -> [String]?)?
  public var bundledFamilies: [String] = []

  public init(scriptDirectory: String, assetsDirectory: String?) {
    self.scriptDirectory = scriptDirectory
    self.assetsDirectory = assetsDirectory
  }

  public var userDirectory: String? { SharedFolders.user("presets") }

  public var builtInDirectory: String? { assetsDirectory.map { $0 + "/presets" } }

  /// Where a name or path leads, with its origin: "path", "script", "user" or "built-in".
  public func locate(_ ref: String, from dir: String? = nil) -> (path: String, origin: String)? {
    if ref.hasSuffix(".lua") || ref.contains("/") {
      let base = dir ?? scriptDirectory
      let p = ref.hasPrefix("/") || base.isEmpty || base == "." ? ref : base + "/" + ref
      return exists(p) ? (p, "path") : nil
    }
    var candidates: [(String, String)] = [
      (scriptDirectory + "/presets/\(ref).lua", "script"), (scriptDirectory + "/\(ref).preset.lua", "script"),
    ]
    if let u = userDirectory { candidates.append((u + "/\(ref).lua", "user")) }
    if let b = builtInDirectory { candidates.append((b + "/\(ref).lua", "built-in")) }
    return candidates.first { exists($0.0) }
  }

  func exists(_ p: String) -> Bool {
    var st = stat()
    return stat(p, &st) == 0 && (st.st_mode & S_IFMT) == S_IFREG
  }

  /// Every preset that can be found, by name (the first found wins, as in lookup).
  public func all() -> [(name: String, path: String, origin: String)] {
    var dirs: [(String, String)] = [(scriptDirectory + "/presets", "script")]
    if let u = userDirectory { dirs.append((u, "user")) }
    if let b = builtInDirectory { dirs.append((b, "built-in")) }
    return SharedFolders.luaFiles(in: dirs)
  }

  /// Loads and resolves a preset by name or path.
  public func load(_ ref: String, from dir: String? = nil) throws(PresetError) -> Preset {
    guard let (path, origin) = locate(ref, from: dir) else {
      throw PresetError(message: "preset '\(ref)' not found (looked for a path, then in the script's presets/, the user's presets and the built-ins)", located: false)
    }
    var chain: [String] = []
    var values = try resolve(path: path, chain: &chain)
    try checkFamily(values, chain: chain)
    let description: String
    if case .string(let d)? = values.removeValue(forKey: "description") { description = d } else { description = "" }
    let name = ref.hasSuffix(".lua") || ref.contains("/") ? CSVDecoder.baseName(path) : ref
    return Preset(name: name, origin: origin, description: description, values: values)
  }

  /// The values of a file merged over those of what it extends.
  func resolve(path: String, chain: inout [String]) throws(PresetError) -> [String: PresetValue] {
    if chain.contains(path) {
      throw PresetError(message: "\(path):1: preset extends itself (\((chain + [path]).map(CSVDecoder.baseName).joined(separator: " → ")))")
    }
    chain.append(path)
    let (own, extends, text) = try read(path)
    var values: [String: PresetValue] = [:]
    if let extends {
      let dir = Paths.directory(of: path)
      guard let (base, _) = locate(extends, from: dir) else {
        throw PresetError(message: "\(path):\(PresetLoader.line(of: "extends", in: text)): preset '\(extends)' not found (in extends)")
      }
      values = try resolve(path: base, chain: &chain)
    }
    for (k, v) in own { values[k] = v }
    return values
  }

  /// Reads one file: its own values (flattened, checked against the schema) and `extends`.
  func read(_ path: String) throws(PresetError) -> ([String: PresetValue], String?, [UInt8]) {
    onRead?(path)
    let bytes: [UInt8]
    do { bytes = try FileReader.read(path, limit: 1 << 20) } catch { throw PresetError(message: "\(path): \(error.description)") }
    let lua = LuaState(bare: true)
    do {
      try lua.loadData(bytes, chunkName: "@" + path)
      // A preset is data: a second and 64 MiB are far more than any needs.
      lua.timeLimit = 1
      lua.memoryLimit = 64 << 20
      try lua.pcall(nargs: 0, nresults: 1)
    } catch {
      throw PresetError(message: error.restoringPath([path]))
    }
    guard lua.type(at: -1) == .table else {
      throw PresetError(message: "\(path):1: a preset must return a table (it returned \(lua.valueTypeName(at: -1)))")
    }
    var values: [String: PresetValue] = [:]
    var extends: String? = nil
    var problem: PresetError? = nil
    func fail(_ key: String, _ message: String) {
      if problem == nil { problem = PresetError(message: "\(path):\(PresetLoader.line(of: key, in: bytes)): \(message)") }
    }
    func value(_ key: String, _ full: String) -> PresetValue? {
      switch lua.type(at: -1) {
      case .boolean: return .bool(lua.toBool(-1) ?? false)
      case .number: return .number(lua.toNumber(-1) ?? 0)
      case .string:
        // The same limit as a script's texts: a preset's string is shaped, drawn or looked
        // up (a time zone's nearest names) like one.
        let s = lua.toString(-1) ?? ""
        guard s.utf8.count <= TextLimits.maxBytes else {
          fail(key, "bad value for '\(full)' in preset (a text of at most \(TextLimits.maxBytes) bytes expected, got \(s.utf8.count) bytes)")
          return nil
        }
        return .string(s)
      default:
        fail(key, "bad value for '\(full)' in preset (\(lua.valueTypeName(at: -1)) is not allowed; presets hold data only)")
        return nil
      }
    }
    let sections = Set(Preset.schema.compactMap { $0.path.split(separator: ".").count == 2 ? String($0.path.split(separator: ".")[0]) : nil })
    lua.forEach(-1) {
      guard problem == nil else { return }
      guard let key = lua.toString(-2), lua.type(at: -2) == .string else { fail("", "preset keys must be names (found a \(lua.typeName(at: -2)) key)"); return }
      if key == "extends" || key == "description" {
        guard let s = lua.toString(-1), lua.type(at: -1) == .string else { fail(key, "bad value for '\(key)' in preset (string expected, got \(lua.valueTypeName(at: -1)))"); return }
        if key == "extends" { extends = s } else { values[key] = .string(s) }
        return
      }
      if sections.contains(key) {
        guard lua.type(at: -1) == .table else { fail(key, "bad value for '\(key)' in preset (table expected, got \(lua.valueTypeName(at: -1)))"); return }
        lua.forEach(-1) {
          guard problem == nil else { return }
          guard let sub = lua.toString(-2), lua.type(at: -2) == .string else { fail(key, "keys in '\(key)' must be names"); return }
          let full = key + "." + sub
          guard let schema = Preset.key(full) else {
            let known = Preset.schema.filter { $0.path.hasPrefix(key + ".") }.map { String($0.path.dropFirst(key.count + 1)) }
            var msg = "unknown key '\(sub)' in preset section '\(key)'"
            if let near = LuaOptions.nearest(sub, in: known) { msg += " (did you mean '\(near)'?)" }
            fail(sub, msg)
            return
          }
          if schema.kind == .files {
            if let files = fontFiles(lua, preset: path, fail: { fail(sub, $0) }) { values[full] = .strings(files) }
            return
          }
          if let v = value(sub, full), let checked = check(v, schema, sub, fail) { values[full] = checked }
        }
        return
      }
      guard let schema = Preset.key(key) else {
        var msg = "unknown key '\(key)' in preset"
        let names = ["extends", "description"] + Preset.schema.map { String($0.path.split(separator: ".")[0]) }
        let near = LuaOptions.nearest(key, in: Array(Set(names)).sorted())
        // A table under another name is the options of a composition of that kind
        // (`coverflow = { angle = 30 }` fills a `cs.view{ kind = "coverflow" }`'s options);
        // a name close to a known one is a typo.
        if near == nil, lua.type(at: -1) == .table, key.count <= 64, key.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" || $0 == "-" }) {
          lua.forEach(-1) {
            guard problem == nil else { return }
            guard let sub = lua.toString(-2), lua.type(at: -2) == .string else { fail(key, "keys in '\(key)' must be names"); return }
            if let v = value(sub, key + "." + sub) { values[key + "." + sub] = v }
          }
          return
        }
        if let near { msg += " (did you mean '\(near)'?)" }
        fail(key, msg)
        return
      }
      if let v = value(key, key), let checked = check(v, schema, key, fail) { values[key] = checked }
    }
    if let problem { throw problem }
    return (values, extends, bytes)
  }

  func check(_ v: PresetValue, _ key: PresetKey, _ name: String, _ fail: (String, String) -> Void) -> PresetValue? {
    switch (key.kind, v) {
    case (.number, .number(let d)):
      // The rule and the message of the option the key sets (`OptionSpec`), as from Lua.
      if let problem = key.bounds?.problem(d) {
        fail(name, "bad value for '\(key.path)' in preset (\(problem))")
        return nil
      }
      return v
    case (.boolean, .bool): return v
    case (.color, .string(let s)):
      // Theme colour names are allowed where the theme is known (the scene's background).
      let named = key.path == "scene.background" && ColorRef(s) != nil
      if !named && Color(hex: s) == nil { fail(name, "bad colour '\(s)' for '\(key.path)' in preset (expected '#RRGGBB' or '#RRGGBBAA')"); return nil }
      return v
    case (.string, .string(let s)):
      if key.path == "base", Theme.builtIn[s] == nil { fail(name, "invalid base '\(s)' in preset, expected one of: 'day', 'night'"); return nil }
      if key.path == "scene.locale" || key.path == "scene.timezone" {
        do { _ = try DisplayFormat.resolve(locale: key.path == "scene.locale" ? s : nil, timezone: key.path == "scene.timezone" ? s : nil, localesDirectory: nil) }
        catch { fail(name, "\(error.message) for '\(key.path)' in preset"); return nil }
      }
      return v
    default:
      fail(name, "bad value for '\(key.path)' in preset (\(key.kind.rawValue) expected, got \(Preset.literal(v)))")
      return nil
    }
  }

  /// `scene.fonts = { "fonts/Brand.ttf", ... }` (the value on top of the stack): each path
  /// relative to the preset's folder and inside it, an existing font file. Nil after `fail`.
  func fontFiles(_ lua: LuaState, preset path: String, fail: (String) -> Void) -> [String]? {
    guard lua.type(at: -1) == .table else {
      fail("bad value for 'scene.fonts' in preset (list of font files expected, got \(lua.valueTypeName(at: -1)))")
      return nil
    }
    let dir = Paths.directory(of: path)
    let n = lua.rawLength(-1)
    guard n <= 32 else { fail("bad value for 'scene.fonts' in preset (at most 32 files, got \(n))"); return nil }
    var out: [String] = []
    for i in 0..<n {
      lua.rawGet(-1, index: i + 1)
      defer { lua.pop() }
      guard let name = lua.toString(-1), lua.type(at: -1) == .string else {
        fail("bad scene.fonts[\(i + 1)] in preset (file name expected, got \(lua.valueTypeName(at: -1)))")
        return nil
      }
      let full = name.hasPrefix("/") ? name : dir + "/" + name
      guard exists(full), let real = BindingContext.realPath(full), let root = BindingContext.realPath(dir) else {
        fail("cannot read font '\(name)' in preset: no such file")
        return nil
      }
      // Read under the rules of data: inside the preset's own folder.
      guard real.hasPrefix(root == "/" ? "/" : root + "/") else {
        fail("cannot read '\(name)': it is outside the preset's folder")
        return nil
      }
      if let families = fontFamilies, families(full) == nil {
        fail("'\(name)' in preset is not a font file fontconfig can read (expected .ttf, .otf or .ttc)")
        return nil
      }
      onRead?(real)
      if !out.contains(real) { out.append(real) }
    }
    return out
  }

  /// `scene.font` must name a family of the preset's fonts or a bundled one.
  func checkFamily(_ values: [String: PresetValue], chain: [String]) throws(PresetError) {
    guard case .string(let family)? = values["scene.font"], let families = fontFamilies else { return }
    var known = bundledFamilies
    if case .strings(let files)? = values["scene.fonts"] { for f in files { known += families(f) ?? [] } }
    guard !known.contains(where: { $0.lowercased() == family.lowercased() }) else { return }
    // The file that set it: the last of the chain that writes `font`.
    var place = chain.last ?? "preset", line = 1
    for file in chain.reversed() {
      guard let bytes = try? FileReader.read(file, limit: 1 << 20) else { continue }
      let l = PresetLoader.line(of: "font", in: bytes)
      if l > 1 || bytes.starts(with: Array("font".utf8)) { place = file; line = l; break }
    }
    var msg = "\(place):\(line): unknown font family '\(family)' in preset"
    if let near = LuaOptions.nearest(family, in: known) { msg += " (did you mean '\(near)'?)" }
    throw PresetError(message: msg)
  }

  /// The line where `key` is first written as `key =` (Lua tables keep no line numbers, so
  /// the text is searched); 1 when not found.
  static func line(of key: String, in bytes: [UInt8]) -> Int {
    guard !key.isEmpty else { return 1 }
    let k = Array(key.utf8)
    var line = 1, i = 0
    func isIdent(_ b: UInt8) -> Bool { (b >= 48 && b <= 57) || (b >= 65 && b <= 90) || (b >= 97 && b <= 122) || b == 95 }
    while i < bytes.count {
      if bytes[i] == 10 { line += 1 }
      if i + k.count <= bytes.count, Array(bytes[i..<i + k.count]) == k, i == 0 || !isIdent(bytes[i - 1]),
        i + k.count == bytes.count || !isIdent(bytes[i + k.count])
      {
        var j = i + k.count
        while j < bytes.count, bytes[j] == 32 || bytes[j] == 9 || bytes[j] == 34 || bytes[j] == 39 || bytes[j] == 93 { j += 1 }
        if j < bytes.count, bytes[j] == 61 { return line }
      }
      i += 1
    }
    return 1
  }
}


