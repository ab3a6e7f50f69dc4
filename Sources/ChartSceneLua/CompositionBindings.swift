import ChartModel
import LuaKit
import SceneGraph

/// The built-in compositions, all written in Lua on `cs.view` (`cs.list`, `cs.carousel`,
/// `cs.cards`, `cs.tabs`, `cs.race`).
enum CompositionBindings {
  /// The compositions written in Lua (`assets/compositions/NAME.lua`), installed as `cs.NAME`.
  static let builtIn = ["list", "carousel", "tabs", "cards", "race", "follow"]

  /// `cs.NAME` calls the function `assets/compositions/NAME.lua` returns (a place inside it is
  /// reported as the script's that called it). Without the assets, `cs.NAME` says so.
  static func installBuiltIns(_ lua: LuaState, into cs: Int32, _ context: BindingContext) {
    for name in builtIn {
      var loaded: Int32?
      // Called through a C function: a script's `return cs.list{...}` (a tail call) keeps its
      // own frame, so errors can still name its line. Loaded on first use.
      lua.setFunction(cs, name) { lua in
        let args = lua.top
        let ref: Int32
        if let known = loaded {
          ref = known
        } else {
          guard let dir = context.assetsDirectory, let bytes = try? FileReader.read(dir + "/compositions/\(name).lua") else {
            throw LuaError("cs.\(name) was not found (set CHARTSCENE_ASSETS to the folder holding compositions/\(name).lua)")
          }
          try lua.load(bytes, chunkName: "=chartscene/\(name).lua")
          try lua.pcall(nargs: 0, nresults: 1)
          guard lua.type(at: -1) == .function else { throw LuaError("compositions/\(name).lua must return a function") }
          ref = lua.ref()
          loaded = ref
        }
        lua.pushRef(ref)
        lua.insert(1)
        try lua.pcall(nargs: args, nresults: 1)
        return 1
      }
    }
  }
}
