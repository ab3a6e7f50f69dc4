import CLua
import CLuaShim
import Dispatch
import LuaKit
import XCTest

/// The time limit costs nothing per instruction, in the main thread and in coroutines: Lua
/// 5.4 runs every instruction through its hook dispatcher while a count hook is set (a plain
/// loop takes 2.2 times as long), so no thread has one until its deadline, when the
/// interrupter thread's signal sets one on the Lua thread running then (shim.c, "Deadlines").
final class DeadlineHookTests: XCTestCase {
  static func run(_ lua: LuaState, _ code: String, results: Int32 = 0) throws(LuaError) {
    try lua.load(Array(code.utf8), chunkName: "=t.lua")
    try lua.pcall(nargs: 0, nresults: results)
  }

  func testNoThreadRunsWithAHook() throws {
    let lua = LuaState()
    lua.timeLimit = 30
    try Self.run(lua, """
      local s = 0
      for i = 1, 100000 do s = s + i % 7 end
      local co = coroutine.create(function() for i = 1, 100000 do s = s + i % 7 end; coroutine.yield() end)
      coroutine.resume(co)
      return co, coroutine.wrap(function() end)
      """, results: 2)
    XCTAssertNil(lua_gethook(lua.L), "the main thread ran with a hook")
    let created = lua_tothread(lua.L, -2)
    XCTAssertNotNil(created)
    XCTAssertNil(created.flatMap { lua_gethook($0) }, "coroutine.create made a coroutine with a hook")
    XCTAssertNotNil(lua_getupvalue(lua.L, -1, 1), "coroutine.wrap's function holds no coroutine")
    let wrapped = lua_tothread(lua.L, -1)
    XCTAssertNotNil(wrapped)
    XCTAssertNil(wrapped.flatMap { lua_gethook($0) }, "coroutine.wrap made a coroutine with a hook")
    lua_settop(lua.L, 0)
  }

  /// Issue 37, item 13: coroutines ran 2 to 2.6 times slower than the main thread (a count
  /// hook every 10,000 instructions makes Lua check every instruction). The goal is 1.3
  /// times at most: the bound here, 1.6, is what a shared 2-core machine keeps reliably, and
  /// still fails with the hook. CPU time (os.clock) of the best of five, in one state.
  func testCoroutinesRunAsFastAsTheMainThread() throws {
    let lua = LuaState()
    lua.timeLimit = 60
    try Self.run(lua, """
      local function loop() local s = 0; for i = 1, 5000000 do s = s + i % 7 end; return s end
      local function fib(n) if n < 2 then return n end; return fib(n - 1) + fib(n - 2) end
      local function timed(f, ...) local t = os.clock(); f(...); return os.clock() - t end
      local best = { mainLoop = math.huge, coLoop = math.huge, mainFib = math.huge, coFib = math.huge }
      for _ = 1, 5 do
        best.mainLoop = math.min(best.mainLoop, timed(loop))
        best.coLoop = math.min(best.coLoop, timed(coroutine.wrap(loop)))
        best.mainFib = math.min(best.mainFib, timed(fib, 27))
        best.coFib = math.min(best.coFib, timed(coroutine.wrap(fib), 27))
      end
      return best.mainLoop, best.coLoop, best.mainFib, best.coFib
      """, results: 4)
    let t = (1...4).map { lua.toNumber(Int32($0) - 5) ?? 0 }
    lua.pop(4)
    let loopRatio = t[1] / max(t[0], 1e-6), fibRatio = t[3] / max(t[2], 1e-6)
    print(String(format: "coroutine/main CPU: loop %.3f/%.3f s = %.2fx, fib(27) %.3f/%.3f s = %.2fx", t[1], t[0], loopRatio, t[3], t[2], fibRatio))
    XCTAssertGreaterThan(t[0], 0.005, "the loop took no time: not measured")
    XCTAssertLessThan(loopRatio, 1.6, "a loop in a coroutine took \(loopRatio) times the main thread's CPU")
    XCTAssertLessThan(fibRatio, 1.6, "a recursive function in a coroutine took \(fibRatio) times the main thread's CPU")
  }

  /// Endless loops in coroutines are stopped wherever they run: nested coroutines, a
  /// coroutine inside pcall and xpcall, one resumed after a yield, one whose stop is caught by
  /// a pcall inside it, one in a metamethod, one feeding a for loop, one after an error left
  /// a coroutine behind.
  func testAStopReachesEveryCoroutine() throws {
    let lua = LuaState()
    lua.timeLimit = 0.2
    for code in ["coroutine.wrap(function() coroutine.wrap(function() while true do end end)() end)()",
                 "local co = coroutine.wrap(function() coroutine.yield(); while true do end end)\nco()\nco()",
                 "pcall(coroutine.wrap(function() pcall(function() while true do end end) end))",
                 "xpcall(coroutine.wrap(function() xpcall(function() while true do end end, error) end), error)",
                 "coroutine.wrap(function() while true do pcall(function() while true do end end) end end)()",
                 "local co = coroutine.create(function() local t = setmetatable({}, { __index = function() while true do end end }); return t.x end)\nprint(coroutine.resume(co))\nwhile true do end",
                 "for _ in coroutine.wrap(function() while true do coroutine.yield(1) end end) do end",
                 "local ok = pcall(coroutine.wrap(function() error('x') end))\ncoroutine.wrap(function() while true do end end)()"] {
      let start = cs_now()
      XCTAssertThrowsError(try Self.run(lua, code), code) { e in
        XCTAssertTrue("\(e)".contains("script ran for too long (over 0.2 s)"), "\(code): \(e)")
      }
      XCTAssertLessThan(cs_now() - start, 5, code)
      try Self.run(lua, "local s = 0\nfor i = 1, 1000 do s = s + i end")
    }
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
