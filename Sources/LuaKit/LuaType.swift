import CLua

/// The type of a Lua value (`lua_type`), so callers compare names, not Lua's numbers.
public enum LuaType: Int32, Sendable {
  /// An index with no value on the stack.
  case none = -1  // LUA_TNONE
  case `nil` = 0  // LUA_TNIL
  case boolean = 1
  case lightUserdata = 2
  case number = 3
  case string = 4
  case table = 5
  case function = 6
  case userdata = 7
  case thread = 8

  init(_ raw: Int32) { self = LuaType(rawValue: raw) ?? .none }
}
