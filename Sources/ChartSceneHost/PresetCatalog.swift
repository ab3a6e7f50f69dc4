import ChartSceneLua
import SceneGraph

/// `chartscene preset list | show NAME | export NAME`.
public enum PresetCatalog {
  static func loader() -> PresetLoader {
    PresetLoader(scriptDirectory: ".", assetsDirectory: AssetLocator.assetsDirectory())
  }

  /// One line per preset: name, origin, description.
  public static func list() throws(HostError) -> String {
    let l = loader()
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
    do { p = try loader().load(ref, from: ".") } catch { throw HostError(error.message) }
    let header = export
      ? "-- chartscene preset '\(p.name)', exported with every value resolved (no extends).\n-- Save as NAME.lua in ~/.config/chartscene/presets/ or in a presets/ folder next to a script.\n"
      : "-- \(p.name) (\(p.origin))\n"
    return p.luaSource(header: header)
  }
}

extension String {
  func padded(to n: Int) -> String { count >= n ? self : self + String(repeating: " ", count: n - count) }
}
