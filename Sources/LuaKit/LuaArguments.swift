import CLua
import CLuaShim

extension LuaState {
  /// Throws Lua's own "bad argument" error unless argument `i` is a table.
  public func checkTable(_ i: Int32, function: String) throws(LuaError) {
    if type(at: i) != .table { throw argumentError(i, function: function, expected: "table") }
  }

  public func checkString(_ i: Int32, function: String) throws(LuaError) -> String {
    // With its length: a Lua string may hold a NUL, and a file name cut there named
    // another file (`cs.data.csv("a\0.csv")` read `a`).
    var len = 0
    guard type(at: i) == .string || type(at: i) == .number, let p = lua_tolstring(L, i, &len) else {
      throw argumentError(i, function: function, expected: "string")
    }
    let s = String(decoding: UnsafeRawBufferPointer(start: p, count: len), as: UTF8.self)
    if let long = tooLong(i) { throw argumentError(i, function: function, long) }
    return s
  }

  /// What is wrong with the string at `i` when it is longer than `maxStringBytes`, or nil.
  func tooLong(_ i: Int32) -> String? {
    guard maxStringBytes > 0, type(at: i) == .string else { return nil }
    let n = Int(lua_rawlen(L, i))
    return n > maxStringBytes ? "a text of at most \(maxStringBytes) bytes expected, got \(n) bytes" : nil
  }

  public func checkNumber(_ i: Int32, function: String) throws(LuaError) -> Double {
    guard let d = toNumber(i) else { throw argumentError(i, function: function, expected: "number") }
    return d
  }

  public func optNumber(_ i: Int32, function: String) throws(LuaError) -> Double? {
    if isNil(i) { return nil }
    return try checkNumber(i, function: function)
  }

  /// `bad argument #i to 'f' (X expected, got Y)`.
  public func argumentError(_ i: Int32, function: String, expected: String) -> LuaError {
    LuaError("bad argument #\(i) to '\(function)' (\(expected) expected, got \(valueTypeName(at: i)))")
  }

  public func argumentError(_ i: Int32, function: String, _ message: String) -> LuaError {
    LuaError("bad argument #\(i) to '\(function)' (\(message))")
  }
}

/// Reads an options table (`cs.chart{ ... }`): every key must be declared, so a typo is an
/// error that names the key and suggests the nearest known one.
public struct LuaOptions {
  public let lua: LuaState
  public let index: Int32
  /// How errors name the table's owner: `cs.chart`.
  public let owner: String
  /// The named keys the table holds.
  public private(set) var presentKeys: Set<String> = []

  /// Sees every options table the bindings read: `(owner, nil, "keys", known)` when one is
  /// opened, `(owner, key, kind, enum values)` for each typed read (`number`, `string`,
  /// `boolean`, `numbers`, `choice`). Only tests set it (the LuaLS definitions are checked
  /// against what the bindings really accept).
  nonisolated(unsafe) public static var observer: ((_ owner: String, _ key: String?, _ kind: String, _ values: [String]) -> Void)?

  /// `listsKeys`: an unknown key's message also lists every known key (for small tables
  /// such as the options of `cs.data.*`).
  public init(_ lua: LuaState, _ index: Int32, owner: String, known: [String], allowsArray: Bool = false, listsKeys: Bool = false) throws(LuaError) {
    LuaOptions.observer?(owner, nil, "keys", known)
    self.lua = lua
    self.index = lua.absIndex(index)
    self.owner = owner
    var problem: LuaError? = nil
    var present: Set<String> = []
    let arrayCount = lua.rawLength(self.index)
    lua.forEach(self.index) {
      if problem != nil { return }
      if let key = lua.toString(-2), lua.type(at: -2) == .string {
        present.insert(key)
        if !known.contains(key) {
          var msg = "unknown key '\(key)' in \(owner)"
          let list = "keys are " + known.map { "'\($0)'" }.joined(separator: ", ")
          if let near = LuaOptions.nearest(key, in: known) {
            msg += " (did you mean '\(near)'?" + (listsKeys ? " " + list : "") + ")"
          } else if listsKeys {
            msg += " (" + list + ")"
          }
          problem = LuaError(msg)
        }
      } else if let n = lua.toNumber(-2), allowsArray, n == n.rounded(), n >= 1, n <= Double(arrayCount) {
        // A child in the array part.
      } else if allowsArray {
        problem = LuaError("unexpected key \(LuaOptions.describeKey(lua)) in \(owner) (children go in the array part 1..n)")
      } else {
        problem = LuaError("unexpected key \(LuaOptions.describeKey(lua)) in \(owner) (it takes named fields only)")
      }
    }
    if let problem { throw problem }
    presentKeys = present
  }

  static func describeKey(_ lua: LuaState) -> String {
    if let n = lua.toNumber(-2) { return "[\(n == n.rounded() && abs(n) < 1e15 ? String(Int64(n)) : String(n))]" }
    return "of type \(lua.typeName(at: -2))"
  }

  /// Number of children in the array part.
  public var arrayCount: Int { lua.rawLength(index) }

  public func has(_ key: String) -> Bool {
    let t = lua.rawGet(index, key)
    lua.pop()
    return t != .nil
  }

  /// Pushes the field, runs `body` with its stack index unless it is nil, and pops it.
  public func with<T>(_ key: String, _ body: (Int32) throws -> T) throws -> T? {
    lua.rawGet(index, key)
    defer { lua.pop() }
    if lua.isNil(-1) { return nil }
    return try body(lua.top)
  }

  public func fieldError(_ key: String, expected: String) -> LuaError {
    lua.rawGet(index, key)
    let got = lua.valueTypeName(at: -1)
    lua.pop()
    return LuaError("bad field '\(key)' in \(owner) (\(expected) expected, got \(got))")
  }

  public func number(_ key: String) throws(LuaError) -> Double? {
    LuaOptions.observer?(owner, key, "number", [])
    lua.rawGet(index, key)
    defer { lua.pop() }
    if lua.isNil(-1) { return nil }
    guard let d = lua.toNumber(-1), d.isFinite else {
      if lua.toNumber(-1) != nil { throw LuaError("bad field '\(key)' in \(owner) (finite number expected)") }
      throw fieldError(key, expected: "number")
    }
    return d
  }

  /// A number as a message shows it: `8`, `0.5`, `1e+30`.
  public static func text(_ d: Double) -> String {
    if d == d.rounded(), abs(d) < 1e15 { return String(Int(d)) }
    return "\(d)"
  }

  public func string(_ key: String) throws(LuaError) -> String? {
    LuaOptions.observer?(owner, key, "string", [])
    lua.rawGet(index, key)
    defer { lua.pop() }
    if lua.isNil(-1) { return nil }
    if let long = lua.tooLong(-1) { throw LuaError("bad field '\(key)' in \(owner) (\(long))") }
    guard let s = lua.toString(-1) else { throw fieldError(key, expected: "string") }
    return s
  }

  public func bool(_ key: String) throws(LuaError) -> Bool? {
    LuaOptions.observer?(owner, key, "boolean", [])
    lua.rawGet(index, key)
    defer { lua.pop() }
    if lua.isNil(-1) { return nil }
    guard let b = lua.toBool(-1) else { throw fieldError(key, expected: "boolean") }
    return b
  }

  /// A string that must be one of `E`'s raw values.
  public func choice<E: RawRepresentable & CaseIterable>(_ key: String, _ type: E.Type, name: String? = nil) throws(LuaError) -> E?
  where E.RawValue == String {
    LuaOptions.observer?(owner, key, "choice", E.allCases.map(\.rawValue))
    guard let s = try string(key) else { return nil }
    guard let v = E(rawValue: s) else {
      throw LuaError("invalid \(name ?? key) '\(s)' in \(owner), expected one of: " + E.allCases.map { "'\($0.rawValue)'" }.joined(separator: ", "))
    }
    return v
  }

  /// A string that must be one of `values`.
  public func choice(_ key: String, _ values: [String]) throws(LuaError) -> String? {
    LuaOptions.observer?(owner, key, "choice", values)
    guard let s = try string(key) else { return nil }
    guard values.contains(s) else {
      throw LuaError("invalid \(key) '\(s)' in \(owner), expected one of: " + values.map { "'\($0)'" }.joined(separator: ", "))
    }
    return s
  }

  /// `d` as an Int when it is a whole number an Int holds, else nil. Every Lua number that
  /// becomes an Int goes through this (`Int(d)` traps on 1e300, inf and NaN).
  public static func integer(_ d: Double) -> Int? {
    guard d == d.rounded(), abs(d) < 9.0e15 else { return nil }
    return Int(d)
  }

  /// An array of numbers (`{x, y}`); `count` checks the length when given.
  public func numbers(_ key: String, count: Int? = nil) throws(LuaError) -> [Double]? {
    LuaOptions.observer?(owner, key, "numbers", [])
    lua.rawGet(index, key)
    defer { lua.pop() }
    if lua.isNil(-1) { return nil }
    guard lua.type(at: -1) == .table else { throw fieldError(key, expected: "table") }
    let n = lua.rawLength(-1)
    if let count, n != count { throw LuaError("bad field '\(key)' in \(owner) (\(count) numbers expected, got \(n))") }
    var out: [Double] = []
    out.reserveCapacity(n)
    for i in 1...max(1, n) where n > 0 {
      lua.rawGet(-1, index: i)
      defer { lua.pop() }
      guard let d = lua.toNumber(-1) else {
        throw LuaError("bad field '\(key)' in \(owner) (number expected at [\(i)], got \(lua.valueTypeName(at: -1)))")
      }
      out.append(d)
    }
    return out
  }

  /// The known key closest to a typo, when it is close enough to be a likely mistake.
  public static func nearest(_ key: String, in known: [String]) -> String? {
    var best: (String, Int)? = nil
    for k in known {
      let d = editDistance(key.lowercased(), k.lowercased())
      if d <= max(1, min(3, k.count / 3)), best == nil || d < best!.1 { best = (k, d) }
    }
    return best?.0
  }

  /// Optimal-string-alignment distance: insertions, deletions, substitutions and swaps of
  /// two neighbouring letters (`titel`, `widht`) cost 1 each.
  public static func editDistance(_ a: String, _ b: String) -> Int {
    let a = Array(a), b = Array(b)
    if a.isEmpty { return b.count }
    if b.isEmpty { return a.count }
    var before = [Int](repeating: 0, count: b.count + 1)
    var prev = Array(0...b.count)
    var cur = [Int](repeating: 0, count: b.count + 1)
    for i in 1...a.count {
      cur[0] = i
      for j in 1...b.count {
        cur[j] = min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
        if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] { cur[j] = min(cur[j], before[j - 2] + 1) }
      }
      (before, prev, cur) = (prev, cur, before)
    }
    return prev[b.count]
  }
}
