import Foundation
import XCTest

/// `--watch` through the built executable: edits of the script, its module and its data
/// reload it; a broken save keeps the last good output.
final class WatchTests: XCTestCase {
  var tmp: URL!
  override func setUpWithError() throws {
    tmp = FileManager.default.temporaryDirectory.appendingPathComponent("chartscene-watch-" + UUID().uuidString)
    try FileManager.default.createDirectory(at: tmp, withIntermediateDirectories: true)
  }
  override func tearDownWithError() throws { try? FileManager.default.removeItem(at: tmp) }

  func write(_ name: String, _ text: String, viaRename: Bool = false) throws {
    let url = tmp.appendingPathComponent(name)
    if viaRename {
      // As editors do: write a new file, then rename it over the old one.
      let temp = tmp.appendingPathComponent("." + name + ".swp")
      try text.write(to: temp, atomically: false, encoding: .utf8)
      _ = rename(temp.path, url.path)
    } else {
      try text.write(to: url, atomically: false, encoding: .utf8)
    }
  }

  func modified(_ url: URL) -> Date? { (try? FileManager.default.attributesOfItem(atPath: url.path))?[.modificationDate] as? Date }

  /// Waits until `condition` holds (polling), up to `timeout` seconds; returns the time it took.
  @discardableResult
  func wait(_ timeout: Double, _ condition: () -> Bool) -> Double? {
    let start = Date()
    while Date().timeIntervalSince(start) < timeout {
      if condition() { return Date().timeIntervalSince(start) }
      usleep(5_000)
    }
    return nil
  }

  func testReloadsOnSavesOfScriptModuleAndDataAndKeepsTheLastGoodOutput() throws {
    try write("data.csv", "date,Visits\n2019-01-01,10\n2019-01-02,20\n2019-01-03,15\n")
    try write("title.lua", "return 'First'")
    let scene = { (title: String) in
      "local t = require('title')\nreturn cs.scene{ width = 300, height = 200, root = cs.chart{ data = cs.data.csv('data.csv'), title = t .. '\(title)' } }"
    }
    try write("s.lua", scene(""))
    let out = tmp.appendingPathComponent("s.png")
    let p = Process()
    p.executableURL = CLI.binary
    p.arguments = [tmp.appendingPathComponent("s.lua").path, "-o", out.path, "--watch"]
    let err = Pipe()
    p.standardError = err
    p.standardOutput = FileHandle.nullDevice
    try p.run()
    defer { p.terminate(); p.waitUntilExit() }
    XCTAssertNotNil(wait(20) { FileManager.default.fileExists(atPath: out.path) }, "no first render")
    usleep(100_000)

    func expectReload(_ what: String, _ edit: () throws -> Void) throws -> Double? {
      let before = try Data(contentsOf: out)
      try edit()
      let took = wait(10) { (try? Data(contentsOf: out)) != before }
      XCTAssertNotNil(took, "\(what) did not re-render")
      usleep(60_000)
      return took
    }
    let latency = try expectReload("script save") { try write("s.lua", scene(" again"), viaRename: true) }
    _ = try expectReload("module save") { try write("title.lua", "return 'Second'") }
    _ = try expectReload("data save") { try write("data.csv", "date,Visits\n2019-01-01,10\n2019-01-02,90\n2019-01-03,15\n") }
    // A broken save: the output stays, the error is printed, the next good save recovers.
    let good = try Data(contentsOf: out)
    try write("s.lua", "return cs.scene{ root = ", viaRename: true)
    usleep(600_000)
    XCTAssertEqual(try Data(contentsOf: out), good)
    _ = try expectReload("fixed save") { try write("s.lua", scene(" fixed")) }
    p.terminate()
    p.waitUntilExit()
    let log = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    XCTAssertTrue(log.contains("error: \(tmp.path)/s.lua:1: unexpected symbol near <eof>"), log)
    XCTAssertTrue(log.contains("reloaded"), log)
    // Save → new PNG, measured from the save to the file appearing (debug build; release is faster).
    // Printed, not judged: on a shared machine a debug build's time says little. The bound
    // only catches a reload that never came or waited on something (a poll of seconds).
    if let latency { print("watch latency: \(Int(latency * 1000)) ms (save to new PNG, debug build)") }
    XCTAssertLessThan(latency ?? 99, 8)
  }
}
