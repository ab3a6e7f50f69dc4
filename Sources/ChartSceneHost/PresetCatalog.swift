import ChartModel
import ChartSceneLua
import Encoding
import Glibc
import SceneGraph

/// `chartscene preset list | show NAME | export NAME`.
public enum PresetCatalog {
  static func loader() throws(HostError) -> PresetLoader {
    PresetLoader(scriptDirectory: ".", assetsDirectory: try AssetLocator.locate())
  }

  /// One line per preset: name, origin, description.
  public static func list() throws(HostError) -> String {
    let l = try loader()
    var rows: [(String, String, String)] = []
    for entry in l.all() {
      do {
        let p = try l.load(entry.path)
        rows.append((entry.name, entry.origin == "built-in" ? "built-in" : entry.path, p.description))
      } catch {
        rows.append((entry.name, entry.path, "(broken: \(error.message))"))
      }
    }
    // Names, paths and descriptions come from shared files: printed escaped, one line each.
    rows = rows.map { (OneLine.clean($0.0, limit: 100), OneLine.clean($0.1, limit: 200), OneLine.clean($0.2)) }
    let w1 = rows.map(\.0.count).max() ?? 0, w2 = rows.map(\.1.count).max() ?? 0
    return rows.map { r in
      r.0.padded(to: w1 + 2) + r.1.padded(to: w2 + 2) + r.2
    }.joined(separator: "\n") + "\n"
  }

  /// The names of the presets found from here (for shell completion; nothing is loaded).
  public static func names() -> [String] {
    guard let l = try? loader() else { return [] }
    return Array(Set(l.all().map(\.name))).sorted()
  }

  /// Every key a preset may set, as a Markdown table (docs/presets.md is made from it).
  public static func keysTable() -> String {
    var out = "| key | type | default | what it sets |\n|---|---|---|---|\n"
    out += "| `extends` | string | — | a preset (name or path) whose values this one starts from |\n"
    out += "| `description` | string | — | one line shown by `chartscene preset list` |\n"
    for k in Preset.schema {
      var type = k.kind.rawValue
      if let b = k.bounds { type += " " + b.shortText }
      out += "| `\(k.path)` | \(type) | `\(k.defaultText)` | \(k.doc) |\n"
    }
    return out
  }

  /// The fully resolved preset as Lua source.
  public static func show(_ ref: String, export: Bool) throws(HostError) -> String {
    let p: Preset
    let l = try loader()
    do { p = try l.load(ref, from: ".") } catch { throw HostError(error.message) }
    if export {
      return p.exportedLuaSource(header: "-- chartscene preset '\(p.name)', exported with every value resolved (no extends).\n-- Edit any value; save as NAME.lua in ~/.config/chartscene/presets/ or in a presets/ folder\n-- next to a script, and use it with preset = \"NAME\" or --preset NAME.\n")
    }
    return p.luaSource(header: "-- \(p.name) (\(p.origin))\n")
  }
}

extension String {
  func padded(to n: Int) -> String { count >= n ? self : self + String(repeating: " ", count: n - count) }
}

/// `chartscene preset install FILE|DIR [--force]` and `preset remove NAME`: sharing presets.
/// A preset is validated where it is (its `extends` resolved from its own folder) before it is
/// copied into the user's folder, and again from there; a name that would hide a built-in needs
/// `--force`, as does replacing an installed preset of the same name.
extension PresetCatalog {
  /// Installs the preset file, or every `*.lua` preset of the folder; returns one line per
  /// preset installed.
  public static func install(_ source: String, force: Bool) throws(HostError) -> [String] {
    let l = try loader()
    guard let user = l.userDirectory else { throw HostError("cannot install a preset: neither XDG_CONFIG_HOME nor HOME is set") }
    var files: [String] = []
    if AssetLocator.isDirectory(source) {
      guard let d = opendir(source) else { throw HostError("cannot read the folder '\(source)': \(AssetLocator.errorText())") }
      while let e = readdir(d) {
        let name = withUnsafePointer(to: e.pointee.d_name) { String(cString: UnsafeRawPointer($0).assumingMemoryBound(to: CChar.self)) }
        if name.hasSuffix(".lua"), !name.hasPrefix("."), AssetLocator.isFile(source + "/" + name) { files.append(source + "/" + name) }
      }
      closedir(d)
      files.sort()
      guard !files.isEmpty else { throw HostError("no presets (*.lua) in the folder '\(source)'") }
    } else if AssetLocator.isFile(source) {
      guard source.hasSuffix(".lua") else { throw HostError("'\(source)' is not a preset (a .lua file)") }
      files = [source]
    } else {
      throw HostError("cannot install '\(source)': no such file or folder")
    }
    // Every file is checked before any is copied: a folder installs whole or not at all.
    for file in files {
      do { _ = try l.load(file, from: ".") } catch { throw HostError(error.located ? error.message : "\(file): \(error.message)") }
    }
    var plan: [(name: String, bytes: [UInt8], target: String)] = []
    for file in files {
      let name = String(file.split(separator: "/").last!.dropLast(4))
      guard !name.isEmpty, name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" || $0 == "." }) else {
        throw HostError("cannot install '\(file)': a preset name holds letters, digits, '-', '_' and '.' only")
      }
      if let b = l.builtInDirectory, AssetLocator.isFile(b + "/\(name).lua"), !force {
        throw HostError("cannot install '\(file)': '\(name)' is a built-in preset, which it would hide (--force installs it anyway)")
      }
      let target = user + "/\(name).lua"
      if AssetLocator.isFile(target), !force {
        throw HostError("cannot install '\(file)': a preset '\(name)' is installed already (\(target); --force replaces it)")
      }
      let bytes: [UInt8]
      do { bytes = try FileReader.read(file, limit: 1 << 20) } catch { throw HostError(error.description) }
      plan.append((name, bytes, target))
    }
    try makeFolders(user)
    var lines: [String] = []
    for p in plan {
      do { try AtomicOutput.write(p.bytes, to: p.target) } catch { throw HostError(error.description) }
      lines.append("installed \(p.name) → \(p.target)")
    }
    // From its new home: an `extends` that only worked from where it came from is caught here.
    for p in plan {
      do { _ = try l.load(p.target, from: ".") } catch {
        for q in plan { unlink(q.target) }
        throw HostError("\(error.message) (once installed in \(user); nothing was installed)")
      }
    }
    return lines
  }

  /// Removes an installed preset (built-ins and presets next to a script are not removed).
  public static func remove(_ name: String) throws(HostError) -> String {
    let l = try loader()
    guard let user = l.userDirectory else { throw HostError("cannot remove a preset: neither XDG_CONFIG_HOME nor HOME is set") }
    let target = user + "/\(name).lua"
    guard !name.contains("/"), AssetLocator.isFile(target) else {
      let builtIn = l.builtInDirectory.map { AssetLocator.isFile($0 + "/\(name).lua") } ?? false
      throw HostError("'\(name)' is not an installed preset (in \(user))\(builtIn ? "; built-in presets cannot be removed" : "")")
    }
    guard unlink(target) == 0 else { throw HostError("cannot remove '\(target)': \(AssetLocator.errorText())") }
    return "removed \(name) (\(target))"
  }

  /// mkdir -p, for the user's preset folder.
  static func makeFolders(_ path: String) throws(HostError) {
    var sofar = path.hasPrefix("/") ? "" : "."
    for part in path.split(separator: "/") {
      sofar += "/" + part
      if !AssetLocator.isDirectory(sofar) && mkdir(sofar, 0o755) != 0 && errno != EEXIST {
        throw HostError("cannot create the folder '\(sofar)': \(AssetLocator.errorText())")
      }
    }
  }
}
