import ChartModel
import LuaKit
import SceneGraph

/// `cs.cards` (Swift) and the compositions written in Lua (`cs.list`, `cs.carousel`, `cs.tabs`:
/// the tab view that holds them.
enum CompositionBindings {
  static func install(_ lua: LuaState, into cs: Int32, context: BindingContext) {
    let common = ViewBindings.common
    lua.setFunction(cs, "cards") { lua in
      try lua.checkTable(1, function: "cards")
      let o = try LuaOptions(lua, 1, owner: "cs.cards", known: common + ["scaleStep", "offsetStep", "order", "modal"], allowsArray: true)
      var spec = CardsSpec()
      if let step = try o.number("scaleStep") {
        guard step >= 0, step < 0.5 else { throw LuaError("bad field 'scaleStep' in cs.cards (must be at least 0 and below 0.5)") }
        spec.scaleStep = step
      }
      spec.offsetStep = try schema(o, "offsetStep", "cards.offsetStep") ?? spec.offsetStep
      let children = try ViewBindings.children(lua, o, context)
      let ids = children.compactMap { $0.explicitID ? $0.id : nil }
      if let order = try strings(lua, o, "order") {
        for id in order where !ids.contains(id) {
          throw LuaError("bad field 'order' in cs.cards (no card with id '\(id)'; cards are " + ids.map { "'\($0)'" }.joined(separator: ", ") + ")")
        }
        guard Set(order).count == order.count else { throw LuaError("bad field 'order' in cs.cards (an id appears twice)") }
        spec.order = order
      }
      if let modal = try o.string("modal") {
        guard let card = children.first(where: { $0.explicitID && $0.id == modal }) else {
          throw LuaError("bad field 'modal' in cs.cards (no card with id '\(modal)')")
        }
        guard card.chart != nil else { throw LuaError("bad field 'modal' in cs.cards ('\(modal)' is not a chart or card)") }
        spec.modal = modal
      }
      return ViewBindings.push(lua, try ViewBindings.finish(Node(id: try o.string("id"), kind: .cards(spec), style: try ViewBindings.style(o), children: children), o, context))
    }
  }

  /// The compositions written in Lua (`assets/compositions/NAME.lua`), installed as `cs.NAME`.
  static let builtIn = ["list", "carousel", "tabs"]

  /// `cs.NAME` calls the function `assets/compositions/NAME.lua` returns (a place inside it is
  /// reported as the script's that called it). Without the assets, `cs.NAME` says so.
  static func installBuiltIns(_ lua: LuaState, into cs: Int32, _ context: BindingContext) {
    for name in builtIn {
      do {
        guard let dir = context.assetsDirectory, let bytes = try? FileReader.read(dir + "/compositions/\(name).lua") else {
          throw LuaError("cs.\(name) was not found (set CHARTSCENE_ASSETS to the folder holding compositions/\(name).lua)", wantsLocation: false)
        }
        try lua.load(bytes, chunkName: "=chartscene/\(name).lua")
        try lua.pcall(nargs: 0, nresults: 1)
        guard lua.type(at: -1) == .function else { lua.pop(); throw LuaError("compositions/\(name).lua must return a function", wantsLocation: false) }
        // Called through a C function: a script's `return cs.list{...}` (a tail call) keeps
        // its own frame, so errors can still name its line.
        let ref = lua.ref()
        lua.setFunction(cs, name) { lua in
          let args = lua.top
          lua.pushRef(ref)
          lua.insert(1)
          try lua.pcall(nargs: args, nresults: 1)
          return 1
        }
      } catch {
        let message = (error as? LuaError)?.message ?? "\(error)"
        lua.setFunction(cs, name) { _ in throw LuaError(message) }
      }
    }
  }

  /// A number option whose range is the preset schema's for the same setting, so a script
  /// and a preset accept the same values.
  static func schema(_ o: LuaOptions, _ key: String, _ path: String) throws(LuaError) -> Double? {
    guard let range = Preset.key(path)?.range else { return try o.number(key) }
    return try o.number(key, in: range)
  }

  /// How far a list may be scrolled: its rows can be no longer than a scene side each.
  static let scrolls: ClosedRange<Double> = -Double(Node.maxViews) * Scene.maximumSide...Double(Node.maxViews) * Scene.maximumSide

  static func strings(_ lua: LuaState, _ o: LuaOptions, _ key: String) throws -> [String]? {
    try o.with(key) { idx throws -> [String] in
      guard lua.type(at: idx) == .table else { throw o.fieldError(key, expected: "table of ids") }
      var out: [String] = []
      for i in 0..<lua.rawLength(idx) {
        lua.rawGet(idx, index: i + 1)
        defer { lua.pop() }
        guard let s = lua.toString(-1) else { throw LuaError("bad field '\(key)' in \(o.owner) (string expected at [\(i + 1)], got \(lua.valueTypeName(at: -1)))") }
        out.append(s)
      }
      return out
    }
  }
}
