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

extension LuaError {
  /// An error that passed through `coroutine.wrap` (or code that re-raises with a place)
  /// reads "a.lua:9: a.lua:3: message"; this keeps the innermost place only.
  public static func innermostPlace(_ message: String) -> String {
    var rest = Substring(message)
    var last: Substring? = nil
    while let place = leadingPlace(rest) {
      last = rest[..<place]
      rest = rest[place...]
    }
    guard let last else { return message }
    return String(last) + rest
  }

  /// The end of a leading "chunk:LINE: " in s, if s starts with one.
  static func leadingPlace(_ s: Substring) -> Substring.Index? {
    guard let colon = s.firstIndex(of: ":"), colon > s.startIndex else { return nil }
    var i = s.index(after: colon)
    let digits = i
    while i < s.endIndex, s[i].isASCII, s[i].isNumber { i = s.index(after: i) }
    guard i > digits, i < s.endIndex, s[i] == ":" else { return nil }
    i = s.index(after: i)
    guard i < s.endIndex, s[i] == " " else { return nil }
    return s.index(after: i)
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
  // The function reads its arguments from, and pushes its results on, the stack of the
  // thread that called it (a coroutine's, not the main thread's).
  let state = b.state
  let caller = state.L
  state.L = L
  defer { state.L = caller }
  do {
    return try b.fn(state)
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
  /// The thread whose stack every method reads and writes: the main thread, or while a
  /// Swift function runs, the thread (coroutine) that called it.
  public internal(set) var L: OpaquePointer
  /// The state's main thread.
  public let mainThread: OpaquePointer
  private var boxes: [Unmanaged<FunctionBox>] = []
  var objects: [AnyObject] = []
  /// Seconds the next outermost protected call may run before it is stopped with
  /// "script ran for too long" (0: no limit). Calls made inside it share its deadline.
  public var timeLimit: Double = 0
  /// Bytes the Lua heap may hold (0: no limit). Only code run under `pcall` is refused
  /// memory; it then fails with "script needs more memory than … allowed".
  public var memoryLimit: Int {
    get { limits.pointee.limit }
    set { limits.pointee.limit = max(0, newValue) }
  }
  /// The options that set the limits, named when a limit stops a script.
  public func nameLimitOptions(time: String, memory: String) {
    withUnsafeMutableBytes(of: &limits.pointee.timeflag) { b in time.utf8CString.prefix(b.count - 1).withUnsafeBytes { b.copyMemory(from: $0) } }
    withUnsafeMutableBytes(of: &limits.pointee.memoryflag) { b in memory.utf8CString.prefix(b.count - 1).withUnsafeBytes { b.copyMemory(from: $0) } }
  }
  let limits: UnsafeMutablePointer<cs_limits>

  /// Counts `bytes` held on the Swift side for the script (its objects, decoded data)
  /// against the memory limit; a Swift function that goes over it fails when it returns.
  public func charge(_ bytes: Int) { limits.pointee.used += max(0, bytes) }
  /// Bytes counted against the memory limit now (the Lua heap and what was charged).
  public var memoryUsed: Int { limits.pointee.used }
  /// The longest string (in bytes) `checkString` and `LuaOptions.string` accept (0: any):
  /// a host keeps, lays out and draws what it takes, so a huge string costs far more there
  /// than in Lua.
  public var maxStringBytes = 0
  var depth = 0
  var objectRefs: [ObjectIdentifier: Int32] = [:]

  /// A state with the sandboxed standard library; `bare` opens no library at all (for
  /// data-only files).
  public init(bare: Bool = false) {
    limits = .allocate(capacity: 1)
    mainThread = cs_newstate(limits)
    L = mainThread
    if !bare { cs_opensandbox(L) }
  }

  deinit {
    // Bounded: the watchdog ends the process if closing runs past a second and its grace
    // (only a finalizer could make it take long). The limits are freed only once the
    // watchdog can no longer reach them.
    cs_closestate(mainThread, 1)
    limits.deallocate()
    for b in boxes { b.release() }
  }

  /// `FILE:LINE:` of the Lua code at `level` (1 = the caller of the running C function).
  public func `where`(level: Int32) -> String {
    var buf = [CChar](repeating: 0, count: 1024)
    cs_where(L, level, &buf, buf.count)
    return String(decoding: buf.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
  }

  /// True when the Lua code at `level` is a built-in composition's (a chunk `=chartscene/...`).
  public func isBuiltIn(level: Int32) -> Bool { cs_isbuiltin(L, level) != 0 }

  // MARK: - Stack

  public var top: Int32 { lua_gettop(L) }
  public func pop(_ n: Int32 = 1) { cs_pop(L, n) }
  public func type(at i: Int32) -> LuaType { LuaType(lua_type(L, i)) }
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
  /// Moves the top value to `i`, moving the ones above it up.
  public func insert(_ i: Int32) { lua_rotate(L, i, 1) }
  /// Removes the value at `i`, moving the ones above it down.
  public func remove(_ i: Int32) { lua_rotate(L, i, -1); cs_pop(L, 1) }
  public func newTable(array: Int32 = 0, hash: Int32 = 0) { lua_createtable(L, array, hash) }
  /// Pops a table and makes it the metatable of the value at `i`.
  public func setMetatable(_ i: Int32) { lua_setmetatable(L, i) }

  public func toString(_ i: Int32) -> String? {
    guard lua_type(L, i) == LUA_TSTRING else { return nil }
    var len = 0
    guard let p = lua_tolstring(L, i, &len) else { return nil }
    return String(decoding: UnsafeRawBufferPointer(start: p, count: len), as: UTF8.self)
  }
  /// True for a number of Lua's integer subtype.
  public func isInteger(_ i: Int32) -> Bool { lua_isinteger(L, i) != 0 }
  /// The integer at `i` (nil for a float, even a whole one, or any other type).
  public func toInteger(_ i: Int32) -> Int? { lua_isinteger(L, i) != 0 ? Int(lua_tointegerx(L, i, nil)) : nil }
  /// The address of a table, function, thread or userdata at `i` (0 for other values): its
  /// identity while it lives.
  public func address(at i: Int32) -> UInt { UInt(bitPattern: lua_topointer(L, i)) }
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
  @discardableResult public func rawGet(_ t: Int32, _ key: String) -> LuaType {
    let t = absIndex(t)
    push(key)
    return LuaType(lua_rawget(L, t))
  }
  @discardableResult public func rawGet(_ t: Int32, index: Int) -> LuaType { LuaType(lua_rawgeti(L, t, lua_Integer(index))) }
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
  /// Pushes the table of globals.
  public func pushGlobalTable() { lua_rawgeti(L, CS_LUA_REGISTRYINDEX, lua_Integer(LUA_RIDX_GLOBALS)) }
  /// Pushes the global `name` without metamethods (the globals' `__index` is not asked) and
  /// returns its type.
  @discardableResult public func rawGetGlobal(_ name: String) -> LuaType {
    lua_rawgeti(L, CS_LUA_REGISTRYINDEX, lua_Integer(LUA_RIDX_GLOBALS))
    let t = rawGet(-1, name)
    remove(-2)
    return t
  }

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
    // The outermost call sets the deadline; calls made inside it (from a Swift function,
    // where memory is never refused) share it and may be refused memory again.
    depth += 1
    let outerRefusable = limits.pointee.refusable
    if depth == 1 { cs_beginlimited(L, base + 1, timeLimit) } else { limits.pointee.refusable = 1 }
    let rc = cs_pcall(L, nargs, nresults, base)
    depth -= 1
    if depth == 0 { cs_endlimited(L) } else { limits.pointee.refusable = outerRefusable }
    cs_remove(L, base)
    if rc != LUA_OK {
      let refused = rc == LUA_ERRMEM && limits.pointee.refused != 0
      var buf = [CChar](repeating: 0, count: 768)
      let msg = refused ? String(cString: cs_memorymessage(L, 0, &buf, buf.count)) : LuaError.innermostPlace(toString(-1) ?? "unknown error")
      pop(1)
      throw LuaError(msg, wantsLocation: false)
    }
  }

  // MARK: - References

  /// Stores the value at the top in the registry and pops it.
  public func ref() -> Int32 { luaL_ref(L, CS_LUA_REGISTRYINDEX) }
  public func pushRef(_ r: Int32) { lua_rawgeti(L, CS_LUA_REGISTRYINDEX, lua_Integer(r)) }
  public func unref(_ r: Int32) { luaL_unref(L, CS_LUA_REGISTRYINDEX, r) }
}
