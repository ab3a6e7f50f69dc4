import Foundation
import XCTest

/// Issue 37, item 6: turning an error value into the report is script work, under the same
/// limits. An error object whose `__tostring` returned 900 MB ran 67 s past a 10 s limit at
/// 2.65 GB under a 1 GiB cap (the message handler called it with the memory cap lifted), and
/// every message, however long, was kept and printed whole.
extension LimitTests {
  func testAnErrorObjectsToStringRunsUnderTheMemoryLimit() throws {
    let s = try write("huge.lua", """
      local big = setmetatable({}, { __tostring = function() return string.rep("x", 900 * 1024 * 1024) end })
      error(big)
      """)
    let r = try run([s, "-o", "out.png", "--max-memory", "256M", "--max-time", "5"])
    assertOneError(r, "script needs more memory than the 256 MiB allowed (--max-memory)")
    XCTAssertLessThan(r.seconds, 7, "ran past its limit")
    XCTAssertLessThan(r.peakMB, 256 + 400)
  }

  func testAnErrorObjectsToStringRunsUnderTheTimeLimit() throws {
    let s = try write("endless.lua", """
      local e = setmetatable({}, { __tostring = function()
        local n = 0
        while true do n = n + 1 end
      end })
      error(e)
      """)
    let r = try run([s, "-o", "out.png", "--max-time", "1"])
    assertOneError(r, "endless.lua:3: script ran for too long (over 1 s; --max-time)")
    XCTAssertLessThan(r.seconds, 4, "ran past its limit (1 s and the watchdog's grace; wall time on a loaded machine)")
    // The same from a handler, under the callback budget (a tenth of --max-time).
    let h = try write("handler.lua", """
      local e = setmetatable({}, { __tostring = function() while true do end end })
      return cs.scene { width = 100, height = 100, duration = 0.5, fps = 10, root = cs.view { id = "v",
        on = { tap = function() error(e) end }, cs.spacer {} },
        timeline = { cs.tap { at = 0.1, target = "v" } } }
      """)
    let rh = try run([h, "-o", "out.png", "--at", "0.4", "--max-time", "2"])
    // (Stopped by the hook, or on a loaded machine by the watchdog half a second later: one
    // line either way.)
    assertOneError(rh, "script ran for too long (over 0.2 s; --max-time)")
    XCTAssertTrue(rh.stderr.contains("handler.lua:"), rh.stderr)
    XCTAssertLessThan(rh.seconds, 4, "ran past its limit")
  }

  /// A message is one line of bounded length (CS_MAX_ERROR_MESSAGE bytes, then "...").
  func testALongErrorMessageIsCut() throws {
    let s = try write("long.lua", "error(string.rep('é', 25 * 1024 * 1024))")
    let r = try run([s, "-o", "out.png"])
    assertOneError(r, "long.lua:1: éééé")
    XCTAssertLessThan(r.stderr.utf8.count, 2100 + s.utf8.count, "the message was kept whole")
    let t = try write("tostring.lua", "error(setmetatable({}, { __tostring = function() return string.rep('y', 1000000) end }))")
    let rt = try run([t, "-o", "out.png"])
    XCTAssertEqual(rt.status, 1)
    XCTAssertLessThan(rt.stderr.utf8.count, 2100 + t.utf8.count, "the message was kept whole")
    XCTAssertTrue(rt.stderr.hasPrefix("error: ") && rt.stderr.contains("tostring.lua: yyyy"), String(rt.stderr.prefix(100)))
  }
}
