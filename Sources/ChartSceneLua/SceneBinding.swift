import ChartModel
import Drawing
import LuaKit
import SceneGraph

/// `cs.scene{}`: the value a script returns.
enum SceneBinding {
  static let typeName = "Scene"

  static func register(_ lua: LuaState) {
    lua.register(LuaTypeInfo(
      name: typeName, of: Scene.self,
      fields: [
        "width": { lua, s in lua.push(s.width) },
        "height": { lua, s in lua.push(s.height) },
        "fps": { lua, s in lua.push(s.fps) },
        "duration": { lua, s in lua.push(s.duration) },
        "theme": { lua, s in lua.push(s.theme.name) },
        "locale": { lua, s in lua.push(s.format.locale.id) },
        "timezone": { lua, s in lua.push(s.format.zone.id) },
        "root": { lua, s in lua.push(object: s.root, as: ViewBindings.typeName) },
      ],
      describe: { "Scene \(Int($0.width))x\(Int($0.height))" }))
  }

  static func install(_ lua: LuaState, into cs: Int32, context: BindingContext) {
    lua.setFunction(cs, "scene") { lua in
      try lua.checkTable(1, function: "scene")
      let o = try LuaOptions(lua, 1, .scene)
      func bounded(_ key: String, _ def: Double) throws(LuaError) -> Double { try o.number(OptionTable.scene.spec(key)) ?? def }
      let width = try bounded("width", 720)
      let height = try bounded("height", 1280)
      let fps = try bounded("fps", 60)
      let duration = try bounded("duration", 0)
      let theme = try themeField(lua, o)
      let root: Node? = try o.with("root") { idx throws -> Node in
        guard let n = lua.object(at: idx, ViewBindings.typeName) as? Node else { throw o.fieldError("root", expected: "view") }
        return n
      }
      guard let root else { throw LuaError("missing field 'root' in cs.scene (the view to draw, e.g. cs.chart{...})") }
      guard context.adopt(root) else { throw LuaError("the root view of cs.scene is already used elsewhere") }
      let scene = Scene(width: width, height: height, theme: theme, background: try ViewBindings.color(o, "background"), fps: fps, duration: duration, root: root)
      scene.presentation = context.presentation
      scene.localeName = try o.string("locale")
      scene.timezoneName = try o.string("timezone")
      scene.title = try o.string("title")
      scene.description = try o.string("description")
      context.scene = scene
      scene.timeline = try TimelineBindings.timeline(lua, o)
      scene.narration = try NarrationBinding.read(lua, o, context: context, duration: duration)
      if let ref: Int32 = try o.with("update", { idx throws -> Int32 in
        guard lua.type(at: idx) == .function else { throw o.fieldError("update", expected: "function") }
        lua.pushValue(idx)
        return lua.ref()
      }) {
        // Weak: the state owns the scene (a strong capture would keep both alive forever,
        // one leaked session per --watch or --live reload).
        scene.update = { [weak lua] t, dt in
          guard let lua else { return }
          lua.pushRef(ref)
          lua.push(t)
          lua.push(dt)
          try lua.pcall(nargs: 2, nresults: 0)
        }
      }
      do { try scene.assignIDs() } catch { throw LuaError(String(describing: error)) }
      if let name = try o.string("preset") {
        let preset: Preset
        do { preset = try context.presets.load(name) } catch let e as PresetError { throw LuaError(e.message, wantsLocation: !e.located) }
        preset.apply(to: scene, keepTheme: o.has("theme"))
      }
      // After the preset: the script's fonts go in front of its, and `font` may name one of its.
      try FontsOption.read(lua, o, into: scene, context: context, resolve: { try context.confined($0) })
      // Presets given on views win inside their subtree (inner ones last).
      root.walk { n in n.preset?.apply(to: n) }
      try resolveFormat(scene, context)
      lua.push(object: scene, as: typeName)
      return 1
    }
  }

  /// `locale = "ru"`, `timezone = "Europe/Oslo"` (the script's, else its preset's): how
  /// every chart writes dates and numbers (docs/locales.md).
  static func resolveFormat(_ scene: Scene, _ context: BindingContext) throws {
    guard scene.localeName != nil || scene.timezoneName != nil else { return }
    do {
      scene.format = try DisplayFormat.resolve(locale: scene.localeName, timezone: scene.timezoneName, localesDirectory: (context.assetsDirectory ?? ".") + "/locales")
    } catch {
      throw LuaError("\(error.message) in cs.scene")
    }
  }

  /// `theme = "day" | "night" | { base = "night", background = "#..." , ... }`.
  static func themeField(_ lua: LuaState, _ o: LuaOptions) throws -> Theme {
    let value: Theme? = try o.with("theme") { idx -> Theme in
      if let name = lua.toString(idx) { return try named(name, owner: o.owner) }
      guard lua.type(at: idx) == .table else { throw o.fieldError("theme", expected: "string or table") }
      let keys = ["base"] + Theme.colorKeys.map(\.0)
      let t = try LuaOptions(lua, idx, owner: "theme", known: keys)
      var theme = try named(try t.string("base") ?? "day", owner: "theme")
      for (key, path) in Theme.colorKeys {
        if let s = try t.string(key) {
          guard let c = Color(hex: s) else { throw LuaError("bad colour '\(s)' for '\(key)' in theme (expected '#RRGGBB' or '#RRGGBBAA')") }
          theme[keyPath: path] = c
        }
      }
      theme.name = "custom"
      return theme
    }
    return value ?? .day
  }

  static func named(_ name: String, owner: String) throws(LuaError) -> Theme {
    guard let t = Theme.builtIn[name] else { throw LuaError("invalid theme '\(name)' in \(owner), expected one of: 'day', 'night'") }
    return t
  }
}
