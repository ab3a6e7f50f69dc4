/// `chartscene preset export NAME`: a preset with every value resolved — each theme colour,
/// each chart and composition setting — as a Lua table someone can edit and share.
extension PresetKey {
  /// The value used when a preset does not set this key, or nil when it depends on the
  /// scene (`list.rowHeight` is 80 % of the width): such keys are exported as comments.
  public var defaultValue: PresetValue? {
    if defaultText == "true" { return .bool(true) }
    if defaultText == "false" { return .bool(false) }
    if defaultText.count >= 2, defaultText.hasPrefix("\""), defaultText.hasSuffix("\"") {
      return .string(String(defaultText.dropFirst().dropLast()))
    }
    if kind == .color, defaultText.hasPrefix("#") { return .string(defaultText) }
    if kind == .number, let d = Double(defaultText) { return .number(d) }
    return nil
  }
}

extension Preset {
  /// What each section of a preset sets, for the comment above it.
  static let sectionComments: [(String, String)] = [
    ("colors", "Theme colours: \"#RRGGBB\" or \"#RRGGBBAA\""),
    ("scene", "The scene"),
    ("chart", "Every chart and card (cs.chart, cs.card)"),
    ("list", "cs.list"),
    ("carousel", "cs.carousel"),
    ("cards", "cs.cards"),
  ]

  /// Every key of the schema with the value this preset gives it: its own, its theme's
  /// colour, or the default. Nil for a key whose default depends on the scene.
  public func resolvedValue(_ key: PresetKey) -> PresetValue? {
    if let v = values[key.path] { return v }
    if key.kind == .color, key.path.hasPrefix("colors."), let c = theme.color(named: String(key.path.dropFirst(7))) {
      return .string(c.hexString)
    }
    return key.defaultValue
  }

  /// The preset as Lua source with every value resolved, grouped by section with a comment
  /// per group. Loading it gives the same theme and settings as the preset itself.
  public func exportedLuaSource(header: String) -> String {
    var out = header + "return {\n"
    if !description.isEmpty { out += "  description = \(Preset.quote(description)),\n" }
    var sections: [String: [(PresetKey, PresetValue?)]] = [:]
    var order: [String] = []
    for key in Preset.schema {
      let parts = key.path.split(separator: ".", maxSplits: 1).map(String.init)
      if parts.count == 1 {
        if let v = resolvedValue(key) { out += "  \(key.path) = \(Preset.literal(v)),  -- \(key.doc)\n" }
        continue
      }
      if sections[parts[0]] == nil { order.append(parts[0]) }
      sections[parts[0], default: []].append((key, resolvedValue(key)))
    }
    for section in order {
      guard let entries = sections[section] else { continue }
      let comment = Preset.sectionComments.first { $0.0 == section }?.1 ?? section
      out += "  -- \(comment)\n  \(section) = {\n"
      for (key, value) in entries {
        let name = String(key.path.split(separator: ".", maxSplits: 1)[1])
        if let value {
          out += "    \(name) = \(Preset.literal(value)),\n"
        } else {
          out += "    -- \(name): \(key.defaultText) unless set (\(key.doc))\n"
        }
      }
      out += "  },\n"
    }
    return out + "}\n"
  }
}
