import CLua
import CLuaShim

/// A Lua-visible Swift class: its name (as Lua errors show it), methods, and readable
/// fields. Every type gets `__index`, `__tostring`, `__eq`, `__name` and a `__metatable`
/// of false (scripts cannot read or change the metatable).
public struct LuaTypeInfo {
  public let name: String
  public var methods: [(String, LuaFunction)]
  /// Reads a field: pushes it and returns true, or returns false when there is none.
  public var field: ((LuaState, AnyObject, String) throws -> Bool)?
  public var describe: ((AnyObject) -> String)?
  public init(name: String, methods: [(String, LuaFunction)] = [], field: ((LuaState, AnyObject, String) throws -> Bool)? = nil,
              describe: ((AnyObject) -> String)? = nil) {
    self.name = name; self.methods = methods; self.field = field; self.describe = describe
  }

  /// A type whose objects are `T`s: each of `fields` pushes the field of its name, and
  /// `describe` says what an object is (for `tostring`).
  public init<T: AnyObject>(name: String, of _: T.Type, methods: [(String, LuaFunction)] = [],
                            fields: [String: (LuaState, T) throws -> Void], describe: @escaping (T) -> String) {
    self.init(
      name: name, methods: methods,
      field: { lua, obj, key in
        guard let object = obj as? T, let push = fields[key] else { return false }
        try push(lua, object)
        return true
      },
      describe: { obj in (obj as? T).map(describe) ?? name })
  }
}

extension LuaState {
  /// Creates the metatable for a type (once per state).
  public func register(_ type: LuaTypeInfo) {
    luaL_newmetatable(L, type.name)
    let mt = top
    push(type.name)
    rawSet(mt, "__name")
    // Methods live in a table; __index looks there first, then at fields.
    newTable()
    let methods = top
    for (name, fn) in type.methods { setFunction(methods, name, fn) }
    let methodsRef = ref()
    let field = type.field
    let typeName = type.name
    push(function: "__index") { lua in
      guard let obj = lua.object(at: 1, typeName) else { throw LuaError("bad self for '\(typeName)' indexing") }
      guard let key = lua.toString(2) else { lua.pushNil(); return 1 }
      lua.pushRef(methodsRef)
      if lua.rawGet(-1, key) != .nil { return 1 }
      lua.pop(2)
      if let field, try field(lua, obj, key) { return 1 }
      lua.pushNil()
      return 1
    }
    rawSet(mt, "__index")
    let describe = type.describe
    push(function: "__tostring") { lua in
      guard let obj = lua.object(at: 1, typeName) else { lua.push(typeName); return 1 }
      lua.push(describe?(obj) ?? typeName)
      return 1
    }
    rawSet(mt, "__tostring")
    push(function: "__newindex") { _ in throw LuaError("\(typeName) fields are read-only (use its methods)") }
    rawSet(mt, "__newindex")
    // Protected: `getmetatable(obj)` gives false, so a script cannot reach the table (to
    // add a `__gc`, which would run for every later object outside any time limit, or to
    // replace `__index`).
    push(false)
    rawSet(mt, "__metatable")
    pop()
  }

  /// Pushes `object` as a userdata of `typeName`. The same object always gives the same
  /// userdata, so Lua's `==` and table keys work on it. A new object counts `footprint`
  /// bytes (what it holds on the Swift side) against the memory limit.
  public func push(object: AnyObject, as typeName: String, footprint: Int = 1024) {
    let id = ObjectIdentifier(object)
    if let r = objectRefs[id] { pushRef(r); return }
    charge(footprint)
    let index = objects.count
    objects.append(object)
    let p = cs_newuserdata(L, MemoryLayout<Int>.size)!
    p.storeBytes(of: index, as: Int.self)
    luaL_setmetatable(L, typeName)
    pushValue(-1)
    objectRefs[id] = ref()
  }

  /// Lets go of an object pushed for one call (a canvas's recorder): Lua's userdata for it
  /// stays but no longer reaches it, and its footprint is no longer counted.
  public func forget(object: AnyObject, footprint: Int = 1024) {
    let id = ObjectIdentifier(object)
    guard let r = objectRefs.removeValue(forKey: id) else { return }
    pushRef(r)
    if let p = lua_touserdata(L, -1) {
      let k = p.load(as: Int.self)
      if k >= 0 && k < objects.count { objects[k] = Forgotten.shared }
    }
    pop()
    unref(r)
    limits.pointee.used -= min(limits.pointee.used, max(0, footprint))
  }

  /// The object of `typeName` at stack index `i`, or nil when the value is something else.
  public func object(at i: Int32, _ typeName: String) -> AnyObject? {
    guard let p = luaL_testudata(L, i, typeName) else { return nil }
    let index = p.load(as: Int.self)
    return index >= 0 && index < objects.count ? objects[index] : nil
  }

  /// The type name Lua errors should show for the value at `i` (a userdata's `__name`).
  public func valueTypeName(at i: Int32) -> String {
    if type(at: i) == .userdata, LuaType(luaL_getmetafield(L, i, "__name")) == .string {
      let n = toString(-1) ?? "userdata"
      pop()
      return n
    }
    return typeName(at: i)
  }
}

/// What a forgotten object's userdata points at.
final class Forgotten: @unchecked Sendable {
  static let shared = Forgotten()
}
