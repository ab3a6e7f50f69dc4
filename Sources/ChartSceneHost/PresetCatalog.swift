import ChartSceneLua
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
      if let r = k.range { type += " \(Preset.literal(.number(r.lowerBound)))…\(Preset.literal(.number(r.upperBound)))" }
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
