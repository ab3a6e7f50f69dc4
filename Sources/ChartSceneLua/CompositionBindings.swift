import ChartModel
import LuaKit
import SceneGraph

/// `cs.cards` (Swift) and the compositions written in Lua (`cs.list`, `cs.carousel`, `cs.tabs`:
/// the tab view that holds them.
enum CompositionBindings {
  static func install(_ lua: LuaState, into cs: Int32, context: BindingContext) {}

  /// The compositions written in Lua (`assets/compositions/NAME.lua`), installed as `cs.NAME`.
  static let builtIn = ["list", "carousel", "tabs", "cards", "race"]

  /// `cs.NAME` calls the function `assets/compositions/NAME.lua` returns (a place inside it is
  /// reported as the script's that called it). Without the assets, `cs.NAME` says so.
  static func installBuiltIns(_ lua: LuaState, into cs: Int32, _ context: BindingContext) {
    for name in builtIn {
      var loaded: Int32?
      // Called through a C function: a script's `return cs.list{...}` (a tail call) keeps its
      // own frame, so errors can still name its line. Loaded on first use.
      lua.setFunction(cs, name) { lua in
        let args = lua.top
        if loaded == nil {
          guard let dir = context.assetsDirectory, let bytes = try? FileReader.read(dir + "/compositions/\(name).lua") else {
            throw LuaError("cs.\(name) was not found (set CHARTSCENE_ASSETS to the folder holding compositions/\(name).lua)")
          }
          try lua.load(bytes, chunkName: "=chartscene/\(name).lua")
          try lua.pcall(nargs: 0, nresults: 1)
          guard lua.type(at: -1) == .function else { throw LuaError("compositions/\(name).lua must return a function") }
          loaded = lua.ref()
        }
        lua.pushRef(loaded!)
        lua.insert(1)
        try lua.pcall(nargs: args, nresults: 1)
        return 1
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
