import LuaKit
import SceneGraph

/// Reading an options table through its declaration (`OptionTable`): the one validation path
/// of the Swift bindings and of `cs.options` (the compositions written in Lua), so an option
/// gives the same message whoever checks it.
extension LuaOptions {
  /// Opens a declared table: its keys (and the common view keys when it takes them) are the
  /// known ones; children in the array part when it has them.
  /// `allowsArray` overrides the table's (`cs.options` lets a view's array part pass).
  init(_ lua: LuaState, _ index: Int32, _ table: OptionTable, owner: String? = nil, allowsArray: Bool? = nil) throws(LuaError) {
    try self.init(lua, index, owner: owner ?? table.owner, known: (table.viewKeys ? ViewBindings.common : []) + table.keys,
                  allowsArray: allowsArray ?? (table.arrayOf != nil), listsKeys: table.listsKeys)
  }

  /// A declared number option, checked against its bounds.
  func number(_ spec: OptionSpec) throws(LuaError) -> Double? {
    guard let d = try number(spec.key) else { return nil }
    if let problem = spec.problem(d) { throw LuaError("bad field '\(spec.key)' in \(owner) (\(problem))") }
    return d
  }

  /// Checks one declared option by its kind (what the binding makes of it is its own affair).
  func check(_ spec: OptionSpec) throws {
    let key = spec.key
    switch spec.kind {
    case .number: _ = try number(spec)
    case .string: _ = try string(key)
    case .boolean: _ = try bool(key)
    case .color: _ = try ViewBindings.color(self, key)
    case .choice(let values): _ = try choice(key, values)
    case .table, .function:
      let type = spec.kind == .table ? "table" : "function"
      _ = try with(key) { idx throws in
        guard lua.typeName(at: idx) == type else { throw fieldError(key, expected: type) }
      }
    case .view:
      _ = try with(key) { idx throws in
        guard lua.object(at: idx, ViewBindings.typeName) is Node else { throw fieldError(key, expected: "view") }
      }
    case .any: break
    }
  }

  /// Checks every option of a declared table.
  func check(_ table: OptionTable) throws {
    for spec in table.options { try check(spec) }
  }
}

extension OptionTable {
  /// A declared option of this table (a key not declared is a mistake in the bindings).
  func spec(_ key: String) -> OptionSpec {
    guard let s = self[key] else { preconditionFailure("'\(key)' is not declared in \(owner)") }
    return s
  }

  /// The table a composition's `cs.options(owner, t, schema)` describes in Lua:
  /// `key → "number" | {"number", lo, hi} | "string" | "boolean" | {"choice", ...} | "table" |
  /// "function" | "view" | "any"`.
  static func fromLua(_ lua: LuaState, schema: Int32, owner: String, viewKeys: Bool) throws(LuaError) -> OptionTable {
    let s = lua.absIndex(schema)
    var names: [String] = []
    lua.forEach(s) { if let k = lua.toString(-2) { names.append(k) } }
    var specs: [OptionSpec] = []
    for key in names.sorted() {
      lua.rawGet(s, key)
      defer { lua.pop() }
      var type = lua.toString(-1) ?? ""
      var bounds: Bounds?
      var choices: [String] = []
      if lua.type(at: -1) == .table {
        lua.rawGet(-1, index: 1); type = lua.toString(-1) ?? ""; lua.pop()
        if type == "number" {
          lua.rawGet(-1, index: 2); let lo = lua.toNumber(-1); lua.pop()
          lua.rawGet(-1, index: 3); let hi = lua.toNumber(-1); lua.pop()
          if let lo, let hi, lo <= hi { bounds = .closed(lo...hi) }
        } else if type == "choice" {
          for k in 2...max(2, lua.rawLength(-1)) { lua.rawGet(-1, index: k); if let c = lua.toString(-1) { choices.append(c) }; lua.pop() }
        }
      }
      let kind: OptionSpec.Kind
      switch type {
      case "number": kind = .number(bounds)
      case "string": kind = .string
      case "boolean": kind = .boolean
      case "choice": kind = .choice(choices)
      case "table": kind = .table
      case "function": kind = .function
      case "view": kind = .view
      case "any": kind = .any
      default: throw LuaError("bad schema for '\(key)' in cs.options ('number', {'number', lo, hi}, 'string', 'boolean', {'choice', ...}, 'table', 'function', 'view' or 'any')")
      }
      specs.append(OptionSpec(key, type, kind, ""))
    }
    return OptionTable(owner, "", "", viewKeys: viewKeys, arrayOf: viewKeys ? "cs.View" : nil, specs)
  }
}
