import ChartSceneHost
import Foundation
import LuaKit
import XCTest

/// The sandbox's wrappers of the standard library keep Lua 5.4 as its manual says (issue 37,
/// items 9 to 12). LuaConformanceTests compares whole scripts with plain lua5.4; these are
/// the findings of the issue, each on its own.
final class StandardLuaTests: XCTestCase {
  let dir = ScriptFolder()

  /// Runs `code` (a chunk named s.lua returning a string) in a sandboxed state.
  func result(_ code: String) throws -> String {
    let lua = LuaState()
    lua.timeLimit = 10
    try lua.load(Array(code.utf8), chunkName: "@s.lua")
    try lua.pcall(nargs: 0, nresults: 1)
    defer { lua.pop() }
    return lua.toString(-1) ?? "(not a string: \(lua.typeName(at: -1)))"
  }

  /// Item 9: xpcall, like pcall, lets the function it calls yield (manual §4.5, §6.1).
  func testXpcallAndPcallAreYieldable() throws {
    let r = try result("""
      local co = coroutine.wrap(function()
        local a = table.pack(xpcall(function(x) return coroutine.yield(x) + 1 end, debugHandler or error, 10))
        local b = table.pack(pcall(function() return coroutine.yield("p") end))
        local c = table.pack(xpcall(function() coroutine.yield("e"); error("after") end, function(m) return "handled " .. m end))
        return table.concat({ tostring(a[1]), tostring(a[2]), tostring(b[1]), tostring(b[2]), tostring(c[1]), c[2] }, ",")
      end)
      local out = { co(), co(41), co("q"), co() }
      return table.concat(out, ";")
      """)
    XCTAssertEqual(r, "10;p;e;true,42,true,q,false,handled s.lua:4: after")
  }

  /// Item 10: errors raised through the wrapped functions name the script's line and the
  /// function, and error levels count as in plain Lua.
  func testErrorsThroughTheWrappersNameTheLineAndTheFunction() {
    let cases: [(String, String)] = [
      ("setmetatable(1, {})", "s.lua:1: bad argument #1 to 'setmetatable' (table expected, got number)"),
      ("\nsetmetatable({}, 1)", "s.lua:2: bad argument #2 to 'setmetatable' (nil or table expected, got number)"),
      ("pcall()", "s.lua:1: bad argument #1 to 'pcall' (value expected)"),
      ("xpcall(print)", "s.lua:1: bad argument #2 to 'xpcall' (function expected, got no value)"),
      ("load({})", "s.lua:1: bad argument #1 to 'load' (function expected, got table)"),
      ("load()", "s.lua:1: bad argument #1 to 'load' (function expected, got no value)"),
      ("coroutine.create()", "s.lua:1: bad argument #1 to 'create' (function expected, got no value)"),
      ("coroutine.wrap(1)", "s.lua:1: bad argument #1 to 'wrap' (function expected, got number)"),
      ("coroutine.resume(1)", "s.lua:1: bad argument #1 to 'resume' (thread expected, got number)"),
      ("coroutine.close(1)", "s.lua:1: bad argument #1 to 'close' (thread expected, got number)"),
      ("local ok, e = pcall(error, 'two', 2)\nerror(e, 0)", "s.lua:1: two"),
      ("local function f() error('up', 2) end\nlocal ok, e = xpcall(function()\n f()\nend, function(m) return m end)\nerror(e, 0)", "s.lua:3: up"),
      ("local ok, e = pcall(setmetatable, 1)\nerror(e, 0)", "s.lua: bad argument #1 to 'setmetatable' (table expected, got number)"),
    ]
    for (code, expected) in cases {
      XCTAssertEqual(dir.error(code), expected, code)
    }
  }

  /// Item 11: load's modes as the manual says; binary chunks are refused with nil and a
  /// message (never loaded).
  func testLoadModes() throws {
    let r = try result("""
      local out = {}
      local function add(...) local t = table.pack(...); for i = 1, t.n do t[i] = tostring(t[i]) end; out[#out + 1] = table.concat(t, ",") end
      add(load("return 1", "n", "bt")())
      add(load("return 2", "n", "tb")())
      add(load("return 3", "n", "t")())
      add(load("return 4", "n", "b"))
      add(load("return 5", "n", "q"))
      add(load("\\27Lua\\84\\0", "bin", "b"))
      add(load("\\27Lua\\84\\0", "bin"))
      add(load("\\27Lua\\84\\0", "bin", "t"))
      local i = 0
      add(load(function() i = i + 1; if i == 1 then return "\\27Lua" end end, "=reader", "bt"))
      add(pcall(load))
      return table.concat(out, "\\n")
      """)
    XCTAssertEqual(r.split(separator: "\n").map(String.init), [
      "1", "2", "3",
      "nil,attempt to load a text chunk (mode is 'b')",
      "nil,attempt to load a text chunk (mode is 'q')",
      "nil,attempt to load a binary chunk (chartscene scripts load text chunks only)",
      "nil,attempt to load a binary chunk (chartscene scripts load text chunks only)",
      "nil,attempt to load a binary chunk (mode is 't')",
      "nil,attempt to load a binary chunk (chartscene scripts load text chunks only)",
      "false,bad argument #1 to 'load' (function expected, got no value)",
    ])
  }

  /// Item 12: require of a standard library's name gives that library (never a file of that
  /// name next to the script); the libraries the sandbox leaves out are refused.
  func testRequireGivesTheStandardLibraries() throws {
    for name in ["string", "utf8", "math", "table", "coroutine", "os", "_G"] {
      dir.write(name + ".lua", "error('the file " + name + ".lua was loaded')")
    }
    let script = """
      for _, pair in ipairs({ { "string", string }, { "utf8", utf8 }, { "math", math }, { "table", table },
                              { "coroutine", coroutine }, { "os", os }, { "_G", _G } }) do
        assert(require(pair[1]) == pair[2], "require('" .. pair[1] .. "') is not the library")
      end
      assert(coroutine.wrap(function() return require("utf8") == utf8 end)(), "require in a coroutine")
      local s = string
      string = nil
      assert(require("string") == s, "require('string') after the global was cleared")
      string = s
      return cs.scene { width = 100, height = 100, root = cs.spacer {} }
      """
    _ = try dir.session(script).displayList(at: 0)
    XCTAssertEqual(dir.error("require('io')"), "s.lua:1: module 'io' is not available in chartscene scripts")
    XCTAssertEqual(dir.error("\nrequire('debug')"), "s.lua:2: module 'debug' is not available in chartscene scripts")
  }
}
