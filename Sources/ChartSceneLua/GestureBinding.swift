import LuaKit
import SceneGraph

/// `on = { tap = function(self, e) end, longpress = ..., drag = ... }` on any view: the
/// script's handlers, called with the view and a table of the event (`GestureEvent`).
enum GestureBinding {
  static let key = "on"

  /// Reads `on` from a view's options into `node.handlers`.
  static func read(_ lua: LuaState, _ o: LuaOptions, into node: Node) throws {
    let refs: [(GestureKind, Int32)]? = try o.with(key) { idx throws -> [(GestureKind, Int32)] in
      guard lua.type(at: idx) == .table else { throw o.fieldError(key, expected: "table of handlers") }
      let h = try LuaOptions(lua, idx, .handlers, owner: "\(o.owner) on")
      var out: [(GestureKind, Int32)] = []
      for kind in GestureKind.allCases {
        _ = try h.with(kind.rawValue) { f throws in
          guard lua.type(at: f) == .function else { throw h.fieldError(kind.rawValue, expected: "function") }
          lua.pushValue(f)
          out.append((kind, lua.ref()))
        }
      }
      return out
    }
    guard let refs, !refs.isEmpty else { return }
    let byKind = Dictionary(uniqueKeysWithValues: refs)
    // Weak: the state owns the scene and its views (see scene.update).
    node.handlers = GestureHandlers(kinds: Set(byKind.keys)) { [weak lua, weak node] e in
      guard let lua, let node, let ref = byKind[e.kind] else { return }
      lua.pushRef(ref)
      ViewBindings.pushExisting(lua, node)
      push(lua, e, padding: node.style.padding)
      do { try lua.pcall(nargs: 2, nresults: 0) } catch let error as LuaError {
        throw LuaError(placed(error.message, "in \(e.kind.rawValue) handler at \(seconds(e.time)) s"), wantsLocation: false)
      }
    }
  }

  /// The event's table; `contentX`, `contentY` are `x`, `y` inside the view's `padding` (the
  /// coordinates of its layout and draw).
  static func push(_ lua: LuaState, _ e: GestureEvent, padding: Insets) {
    lua.newTable(hash: 14)
    func set(_ k: String, _ v: Double) { lua.push(v); lua.rawSet(-2, k) }
    lua.push(e.kind.rawValue); lua.rawSet(-2, "kind")
    set("x", e.x); set("y", e.y); set("time", e.time)
    set("contentX", e.x - padding.left); set("contentY", e.y - padding.top)
    if let c = e.child { lua.push(c); lua.rawSet(-2, "child") }
    if e.kind == .scroll { set("dx", e.dx); set("dy", e.dy) }
    if e.sheet { lua.push(true); lua.rawSet(-2, "sheet"); lua.push(e.inside); lua.rawSet(-2, "inside") }
    if let phase = e.phase {
      lua.push(phase.rawValue); lua.rawSet(-2, "phase")
      set("dx", e.dx); set("dy", e.dy); set("vx", e.vx); set("vy", e.vy)
      lua.push(e.held); lua.rawSet(-2, "held")
    }
  }

  /// `deck.lua:14: boom` as `deck.lua:14: in drag handler at 1.2 s: boom` (the place stays first).
  static func placed(_ message: String, _ what: String) -> String {
    let parts = message.split(separator: ":", maxSplits: 3, omittingEmptySubsequences: false)
    for i in 1..<min(3, parts.count) where !parts[i].isEmpty && parts[i].allSatisfy(\.isNumber) && i + 1 < parts.count {
      let place = parts[...i].joined(separator: ":")
      let rest = parts[(i + 1)...].joined(separator: ":").drop { $0 == " " }
      return place + ": " + what + ": " + rest
    }
    return what + ": " + message
  }

  /// `1.2`, `0`, `3.47`.
  static func seconds(_ t: Double) -> String {
    let r = (t * 100).rounded() / 100
    return r == r.rounded() ? String(Int(r)) : String(r)
  }
}
