import Drawing

/// A value in a preset file.
public enum PresetValue: Sendable, Equatable {
  case number(Double)
  case bool(Bool)
  case string(String)
  /// A list of texts: `scene.fonts`, the font files (resolved when the preset is read).
  case strings([String])
}

/// One key a preset may set: its dotted path, type and documentation.
public struct PresetKey: Sendable {
  public enum Kind: String, Sendable { case number, boolean, color, string, files }
  public var path: String
  public var kind: Kind
  public var bounds: Bounds?
  public var defaultText: String
  public var doc: String
  public init(path: String, kind: Kind, bounds: Bounds? = nil, defaultText: String, doc: String) {
    self.path = path; self.kind = kind; self.bounds = bounds; self.defaultText = defaultText; self.doc = doc
  }

  /// The key of a declared option a preset's section may set (`carousel.itemWidth`).
  init?(section: String, _ o: OptionSpec) {
    guard o.preset else { return nil }
    let kind: Kind
    var bounds: Bounds? = nil
    switch o.kind {
    case .number(let b): kind = .number; bounds = b
    case .boolean: kind = .boolean
    case .color: kind = .color
    case .string: kind = .string
    default: return nil
    }
    // The docs' markdown (`16`) is plain text here.
    let d = (o.defaultText ?? "none").filter { $0 != "`" }
    self.init(path: "\(section).\(o.key)", kind: kind, bounds: bounds, defaultText: d, doc: o.doc)
  }
}

/// A resolved preset: theme colours, chart options and composition settings by dotted key
/// (`colors.background`, `chart.lineWidth`, `cards.scaleStep`).
public struct Preset: Sendable, Equatable {
  public var name: String
  /// Where it came from: "built-in", or the file's path.
  public var origin: String
  public var description: String
  public var values: [String: PresetValue]
  public init(name: String, origin: String, description: String, values: [String: PresetValue]) {
    self.name = name; self.origin = origin; self.description = description; self.values = values
  }

  /// Every key a preset may hold (besides `extends` and `description`).
  public static let schema: [PresetKey] = {
    var keys: [PresetKey] = [
      PresetKey(path: "base", kind: .string, defaultText: "\"day\"", doc: "the built-in theme the colours start from: \"day\" or \"night\""),
    ]
    for (name, _) in Theme.colorKeys {
      keys.append(PresetKey(path: "colors.\(name)", kind: .color, defaultText: Theme.day.color(named: name)!.hexString, doc: "theme colour '\(name)' (day value shown)"))
    }
    keys += [
      PresetKey(path: "scene.background", kind: .color, defaultText: "\"background\"", doc: "the scene's background: a colour or a theme colour's name"),
      PresetKey(path: "scene.locale", kind: .string, defaultText: "\"en\"", doc: "how dates and numbers are written: \"ru\", \"de\", \"ja\", ... (docs/locales.md)"),
      PresetKey(path: "scene.timezone", kind: .string, defaultText: "\"UTC\"", doc: "the IANA time zone dates are shown in, e.g. \"Europe/Oslo\" (docs/locales.md)"),
      PresetKey(path: "scene.fonts", kind: .files, defaultText: "none", doc: "font files next to the preset, after the script's own and in front of the bundled fonts"),
      PresetKey(path: "scene.font", kind: .string, defaultText: "none (Inter)", doc: "the family of every text, unless the script gives `font`"),
    ]
    for table in OptionTable.all {
      guard let section = table.presetSection else { continue }
      keys += table.options.compactMap { PresetKey(section: section, $0) }
    }
    return keys
  }()

  public static func key(_ path: String) -> PresetKey? { schema.first { $0.path == path } }

  /// The theme this preset describes (its base with its colours).
  public var theme: Theme {
    var t = Theme.day
    if case .string(let b)? = values["base"], let base = Theme.builtIn[b] { t = base }
    var changed = false
    for (name, path) in Theme.colorKeys {
      if case .string(let hex)? = values["colors.\(name)"], let c = Color(hex: hex) { t[keyPath: path] = c; changed = true }
    }
    if changed || t.name != name { t.name = name }
    return t
  }

  func number(_ k: String) -> Double? { if case .number(let d)? = values[k] { return d }; return nil }
  func bool(_ k: String) -> Bool? { if case .bool(let b)? = values[k] { return b }; return nil }

  /// Applies this preset's view settings to a subtree: every option the script did not set
  /// itself (`Node.explicitKeys`) takes the preset's value.
  public func apply(to root: Node) {
    root.walk { n in
      func set<T>(_ key: String, _ section: String, _ value: T?, _ assign: (T) -> Void) {
        if let value, !n.explicitKeys.contains(key) { assign(value) }
        _ = section
      }
      switch n.kind {
      case .chart(var spec), .card(var spec):
        let isCard: Bool = { if case .card = n.kind { return true }; return false }()
        set("lineWidth", "chart", number("chart.lineWidth")) { spec.lineWidth = $0 }
        set("xAxis", "chart", bool("chart.xAxis")) { spec.xAxis = $0 }
        set("yAxis", "chart", bool("chart.yAxis")) { spec.yAxis = $0 }
        if !isCard {
          set("minimap", "chart", bool("chart.minimap")) { spec.minimap = $0 }
          set("legend", "chart", bool("chart.legend")) { spec.legend = $0 }
          set("indicator", "chart", bool("chart.indicator")) { spec.indicator = $0 }
          n.kind = .chart(spec)
        } else {
          n.kind = .card(spec)
        }
      case .view(var spec):
        // A composition's options: the preset's section named after it (`list.spacing`).
        let prefix = spec.name + "."
        for (key, value) in values where key.hasPrefix(prefix) {
          let option = String(key.dropFirst(prefix.count))
          if !spec.explicitOptions.contains(option) { spec.options[option] = value }
        }
        n.kind = .view(spec)
      default: break
      }
    }
  }

  /// Applies the preset to a whole scene: theme, background, then every view.
  public func apply(to scene: Scene, keepTheme: Bool = false) {
    if !keepTheme { scene.theme = theme }
    if scene.background == nil, case .string(let s)? = values["scene.background"], let c = ColorRef(s) { scene.background = c }
    if scene.localeName == nil, case .string(let s)? = values["scene.locale"] { scene.localeName = s }
    if scene.timezoneName == nil, case .string(let s)? = values["scene.timezone"] { scene.timezoneName = s }
    if case .strings(let files)? = values["scene.fonts"] { scene.fonts += files.filter { !scene.fonts.contains($0) } }
    if scene.font == nil, case .string(let family)? = values["scene.font"] { scene.font = family }
    apply(to: scene.root)
  }

  /// The preset as Lua source that loads back to the same values.
  public func luaSource(header: String? = nil) -> String {
    var out = ""
    if let header { out += header }
    out += "return {\n"
    if !description.isEmpty { out += "  description = \(Preset.quote(description)),\n" }
    var sections: [String: [(String, PresetValue)]] = [:]
    var top: [(String, PresetValue)] = []
    for (k, v) in values {
      let parts = k.split(separator: ".", maxSplits: 1).map(String.init)
      if parts.count == 2 { sections[parts[0], default: []].append((parts[1], v)) } else { top.append((k, v)) }
    }
    for (k, v) in top.sorted(by: { $0.0 < $1.0 }) { out += "  \(k) = \(Preset.literal(v)),\n" }
    let known = ["colors", "scene", "chart", "list", "carousel", "cards"]
    for section in known + sections.keys.filter({ !known.contains($0) }).sorted() {
      guard let entries = sections[section] else { continue }
      out += "  \(section) = {\n"
      for (k, v) in entries.sorted(by: { $0.0 < $1.0 }) { out += "    \(k) = \(Preset.literal(v)),\n" }
      out += "  },\n"
    }
    return out + "}\n"
  }

  public static func literal(_ v: PresetValue) -> String {
    switch v {
    case .bool(let b): return b ? "true" : "false"
    case .string(let s): return quote(s)
    case .number(let d): return d == d.rounded() && abs(d) < 1e15 ? String(Int64(d)) : String(d)
    case .strings(let list): return "{ " + list.map(quote).joined(separator: ", ") + " }"
    }
  }

  /// `s` as a Lua string literal, every control character escaped (`\n`, `\027`), so a
  /// text from a shared file prints as one line and reads back as it was.
  public static func quote(_ s: String) -> String {
    var out = "\""
    for ch in s.unicodeScalars {
      switch ch {
      case "\"": out += "\\\""
      case "\\": out += "\\\\"
      case "\n": out += "\\n"
      case _ where ch.value < 0x20 || ch.value == 0x7f:
        // Three digits always: `\0012` would otherwise read as one escape.
        let d = String(ch.value)
        out += "\\" + String(repeating: "0", count: 3 - d.count) + d
      default: out.unicodeScalars.append(ch)
      }
    }
    return out + "\""
  }
}
