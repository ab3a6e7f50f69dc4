import CLua
import CLuaShim
import Dispatch
import LuaKit
import XCTest

/// The time limit costs nothing per instruction in the main thread: Lua 5.4 runs every
/// instruction through its hook dispatcher while a count hook is set (a plain loop takes 2.2
/// times as long), so the main thread has none until its deadline, when the interrupter
/// thread's signal sets one (shim.c, "Deadlines"). Coroutines keep theirs.
final class DeadlineHookTests: XCTestCase {
  static func run(_ lua: LuaState, _ code: String, results: Int32 = 0) throws(LuaError) {
    try lua.load(Array(code.utf8), chunkName: "=t.lua")
    try lua.pcall(nargs: 0, nresults: results)
  }

  func testTheMainThreadRunsWithoutAHookAndCoroutinesWithOne() throws {
    let lua = LuaState()
    lua.timeLimit = 30
    try Self.run(lua, """
      local s = 0
      for i = 1, 100000 do s = s + i % 7 end
      return coroutine.create(function() end), coroutine.wrap(function() end)
      """, results: 2)
    XCTAssertNil(lua_gethook(lua.L), "the main thread ran with a hook")
    let created = lua_tothread(lua.L, -2)
    XCTAssertNotNil(created.flatMap { lua_gethook($0) }, "coroutine.create made a coroutine without the hook")
    XCTAssertEqual(created.map { lua_gethookcount($0) }, CS_HOOK_INTERVAL)
    XCTAssertNotNil(lua_getupvalue(lua.L, -1, 1), "coroutine.wrap's function holds no coroutine")
    let wrapped = lua_tothread(lua.L, -1)
    XCTAssertNotNil(wrapped.flatMap { lua_gethook($0) }, "coroutine.wrap made a coroutine without the hook")
    lua_settop(lua.L, 0)
  }

  /// libdispatch's worker threads block asynchronous signals; a call made on one (as batch
  /// jobs are) is stopped all the same.
  func testAStopIsRaisedOnADispatchWorkerThread() throws {
    let done = DispatchSemaphore(value: 0)
    nonisolated(unsafe) var message = ""
    DispatchQueue.global().async {
      let lua = LuaState()
      lua.timeLimit = 0.2
      do { try Self.run(lua, "while true do end") } catch { message = "\(error)" }
      done.signal()
    }
    XCTAssertEqual(done.wait(timeout: .now() + 10), .success, "the loop on a worker thread was not stopped")
    XCTAssertTrue(message.contains("t.lua:1: script ran for too long (over 0.2 s)"), message)
  }

  func testAStopIsRaisedInTheMainThreadAndInACoroutineAndLiftedAfterwards() throws {
    let lua = LuaState()
    lua.timeLimit = 0.2
    for code in ["while true do end", "local n = 0\nwhile true do n = n + 1 end",
                 "coroutine.wrap(function() while true do end end)()",
                 "local co = coroutine.create(function() while true do end end)\nwhile true do coroutine.resume(co) end",
                 "while true do pcall(function() while true do end end) end"] {
      let start = cs_now()
      XCTAssertThrowsError(try Self.run(lua, code), code) { e in
        XCTAssertTrue("\(e)".contains("t.lua:") && "\(e)".contains("script ran for too long (over 0.2 s)"), "\(code): \(e)")
      }
      XCTAssertLessThan(cs_now() - start, 5, code)  // stopped, not run on (generous: a shared machine)
      // The next call runs hook-free again, and to its end.
      try Self.run(lua, "local s = 0\nfor i = 1, 1000 do s = s + i end")
      XCTAssertNil(lua_gethook(lua.L), "\(code): the stop's hook stayed on")
    }
  }
}
