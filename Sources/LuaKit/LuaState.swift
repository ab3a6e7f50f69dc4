import CLua
import CLuaShim

/// An error from Lua or from a Swift function called by Lua. `message` already carries
/// `FILE:LINE:` when the place is known.
public struct LuaError: Error, Sendable, CustomStringConvertible {
  public var message: String
  /// False when the message must be used as it is (it already names its place).
  public var wantsLocation: Bool
  public init(_ message: String, wantsLocation: Bool = true) { self.message = message; self.wantsLocation = wantsLocation }
  public var description: String { message }

  /// The message with Lua's shortened chunk name ("...tail:LINE:") replaced by the full
  /// path among `paths` that ends with that tail.
  public func restoringPath(_ paths: [String]) -> String {
    guard message.hasPrefix("..."), let colon = message.firstIndex(of: ":") else { return message }
    let tail = message[message.index(message.startIndex, offsetBy: 3)..<colon]
    guard let full = paths.first(where: { $0.hasSuffix(tail) }) else { return message }
    return full + message[colon...]
  }
}

/// A Swift function callable from Lua: reads its arguments from the stack, pushes its
/// results and returns how many. It throws instead of raising; the C trampoline raises
/// the Lua error after this function has returned.
public typealias LuaFunction = (LuaState) throws -> Int32

final class FunctionBox {
  let fn: LuaFunction
  unowned let state: LuaState
  let name: String
  init(_ fn: @escaping LuaFunction, state: LuaState, name: String) { self.fn = fn; self.state = state; self.name = name }
}

private let dispatch: cs_swift_function = { L, box in
  guard let box, let L else { return -1 }
  let b = Unmanaged<FunctionBox>.fromOpaque(box).takeUnretainedValue()
  do {
    return try b.fn(b.state)
  } catch let e as LuaError {
    let msg = e.wantsLocation ? b.state.where(level: 1) + " " + e.message : e.message
    lua_pushstring(L, msg.hasPrefix(" ") ? String(msg.dropFirst()) : msg)
    return -1
  } catch {
    lua_pushstring(L, (b.state.where(level: 1) + " " + String(describing: error)).trimmingLeadingSpace)
    return -1
  }
}

extension String {
  var trimmingLeadingSpace: String { hasPrefix(" ") ? String(dropFirst()) : self }
}

/// Owns a `lua_State` opened with the sandboxed standard library. Confined to one thread.
public final class LuaState {
  public let L: OpaquePointer
  private var boxes: [Unmanaged<FunctionBox>] = []
  var objects: [AnyObject] = []
  /// Instructions any one protected call may run before it is stopped (0: no limit). A
  /// script's evaluation and each callback (draw, update, timeline calls) get this budget.
  public var callBudget: Int32 = 0
  var depth = 0
  var objectRefs: [ObjectIdentifier: Int32] = [:]

  /// A state with the sandboxed standard library; `bare` opens no library at all (for
  /// data-only files).
  public init(bare: Bool = false) {
    L = luaL_newstate()
    if !bare { cs_opensandbox(L) }
  }

  deinit {
    lua_close(L)
    for b in boxes { b.release() }
  }

  /// `FILE:LINE:` of the Lua code at `level` (1 = the caller of the running C function).
  public func `where`(level: Int32) -> String {
    var buf = [CChar](repeating: 0, count: 1024)
    cs_where(L, level, &buf, buf.count)
    return String(cString: buf)
  }

  // MARK: - Stack

  public var top: Int32 { lua_gettop(L) }
  public func setTop(_ n: Int32) { lua_settop(L, n) }
  public func pop(_ n: Int32 = 1) { cs_pop(L, n) }
  public func type(at i: Int32) -> Int32 { lua_type(L, i) }
  public func typeName(at i: Int32) -> String {
    let t = lua_type(L, i)
    return t == LUA_TNONE ? "no value" : String(cString: lua_typename(L, t))
  }
  public func isNil(_ i: Int32) -> Bool { cs_isnoneornil(L, i) != 0 }
  public func absIndex(_ i: Int32) -> Int32 { lua_absindex(L, i) }

  public func push(_ s: String) { lua_pushstring(L, s) }
  public func push(_ d: Double) { lua_pushnumber(L, d) }
  public func push(_ i: Int) { lua_pushinteger(L, lua_Integer(i)) }
  public func push(_ b: Bool) { lua_pushboolean(L, b ? 1 : 0) }
  public func pushNil() { lua_pushnil(L) }
  public func pushValue(_ i: Int32) { lua_pushvalue(L, i) }
  public func newTable(array: Int32 = 0, hash: Int32 = 0) { lua_createtable(L, array, hash) }

  public func toString(_ i: Int32) -> String? {
    guard lua_type(L, i) == LUA_TSTRING else { return nil }
    var len = 0
    guard let p = lua_tolstring(L, i, &len) else { return nil }
    return String(decoding: UnsafeRawBufferPointer(start: p, count: len), as: UTF8.self)
  }
  public func toNumber(_ i: Int32) -> Double? {
    guard lua_type(L, i) == LUA_TNUMBER else { return nil }
    return lua_tonumberx(L, i, nil)
  }
  public func toBool(_ i: Int32) -> Bool? {
    guard lua_type(L, i) == LUA_TBOOLEAN else { return nil }
    return lua_toboolean(L, i) != 0
  }

  /// t[key] = top of stack (raw, never runs metamethods); pops the value.
  public func rawSet(_ t: Int32, _ key: String) {
    let t = absIndex(t)
    push(key)
    lua_rotate(L, -2, 1)
    lua_rawset(L, t)
  }
  /// t[i] = top of stack (raw); pops the value.
  public func rawSet(_ t: Int32, index: Int) { lua_rawseti(L, t, lua_Integer(index)) }
  /// Pushes t[key] (raw) and returns its type.
  @discardableResult public func rawGet(_ t: Int32, _ key: String) -> Int32 {
    let t = absIndex(t)
    push(key)
    return lua_rawget(L, t)
  }
  @discardableResult public func rawGet(_ t: Int32, index: Int) -> Int32 { lua_rawgeti(L, t, lua_Integer(index)) }
  public func rawLength(_ t: Int32) -> Int { Int(lua_rawlen(L, t)) }

  /// Calls `body` for each key of the table at `t` with the key at -2 and the value at -1.
  public func forEach(_ t: Int32, _ body: () throws -> Void) rethrows {
    let t = absIndex(t)
    lua_pushnil(L)
    while lua_next(L, t) != 0 {
      try body()
      pop()
    }
  }

  public func setGlobal(_ name: String) { lua_setglobal(L, name) }
  public func getGlobal(_ name: String) { _ = lua_getglobal(L, name) }

  // MARK: - Functions

  /// Pushes a Swift function as a Lua function.
  public func push(function name: String, _ fn: @escaping LuaFunction) {
    let box = Unmanaged.passRetained(FunctionBox(fn, state: self, name: name))
    boxes.append(box)
    cs_pushswiftfunction(L, dispatch, box.toOpaque())
  }

  /// Sets `t[name]` to a Swift function.
  public func setFunction(_ t: Int32, _ name: String, _ fn: @escaping LuaFunction) {
    let t = absIndex(t)
    push(function: name, fn)
    rawSet(t, name)
  }

  // MARK: - Loading and calling

  /// Loads a text chunk (binary chunks are refused) and leaves the function on the stack.
  public func load(_ bytes: [UInt8], chunkName: String) throws(LuaError) {
    let rc = bytes.withUnsafeBufferPointer { p in
      p.baseAddress!.withMemoryRebound(to: CChar.self, capacity: max(1, p.count)) { cs_loadtext(L, $0, p.count, chunkName) }
    }
    if rc != LUA_OK {
      let msg = toString(-1) ?? "cannot load the chunk"
      pop()
      throw LuaError(msg, wantsLocation: false)
    }
  }

  /// Loads a text chunk whose globals are an empty table (no functions, no libraries): for
  /// data files such as presets. Leaves the function on the stack.
  public func loadData(_ bytes: [UInt8], chunkName: String) throws(LuaError) {
    try load(bytes, chunkName: chunkName)
    newTable()
    _ = lua_setupvalue(L, -2, 1)
  }

  /// Calls the function below `nargs` arguments under a protected call; errors become
  /// `LuaError` with their message (which names FILE:LINE).
  public func pcall(nargs: Int32, nresults: Int32) throws(LuaError) {
    let base = top - nargs
    lua_pushcclosure(L, cs_msgh, 0)
    lua_rotate(L, base, 1)
    // The outermost call arms the budget; calls made inside it share what is left.
    depth += 1
    if depth == 1 && callBudget > 0 { cs_setbudget(L, callBudget) }
    let rc = cs_pcall(L, nargs, nresults, base)
    depth -= 1
    if depth == 0 && callBudget > 0 { cs_setbudget(L, 0) }
    cs_remove(L, base)
    if rc != LUA_OK {
      let msg = toString(-1) ?? "unknown error"
      pop(1)
      throw LuaError(msg, wantsLocation: false)
    }
  }

  /// Arms (or with 0, disarms) the instruction budget for code run from now on.
  public func setInstructionBudget(_ count: Int32) { cs_setbudget(L, count) }

  // MARK: - References

  /// Stores the value at the top in the registry and pops it.
  public func ref() -> Int32 { luaL_ref(L, CS_LUA_REGISTRYINDEX) }
  public func pushRef(_ r: Int32) { lua_rawgeti(L, CS_LUA_REGISTRYINDEX, lua_Integer(r)) }
  public func unref(_ r: Int32) { luaL_unref(L, CS_LUA_REGISTRYINDEX, r) }
}
