import Foundation
import XCTest

/// Under `--size`, a timeline gesture on a chart part that gave way to the plot at that size
/// does nothing; at the script's own size (or for a part the chart never draws) it is an error.
final class GaveWayTests: TempFolderCase {

  func script(width: Int, height: Int, target: String) throws -> String {
    let url = tmp.appendingPathComponent("s\(width)x\(height)-\(target.replacingOccurrences(of: ".", with: "_")).lua")
    try """
    local cs = require("chartscene")
    local set = cs.data.sample()[1]
    return cs.scene{ width = \(width), height = \(height), fps = 10, duration = 1,
      root = cs.vstack{ cs.chart{ id = "c", data = set }, cs.card{ id = "k", data = set } },
      timeline = {
        cs.tap{ at = 0.2, target = "\(target)" },
      } }
    """.write(to: url, atomically: true, encoding: .utf8)
    return url.path
  }

  func testAPartThatGaveWayUnderSizeDoesNothing() throws {
    // At 720x1280 the chart has check marks and a mini-map; at 320x240 both give way.
    for target in ["c.legend.y0", "c.minimap.window"] {
      let path = try script(width: 720, height: 1280, target: target)
      var r = try CLI.run([path, "--inspect", "--at", "0.5"])
      XCTAssertEqual(r.status, 0, r.stderr)
      r = try CLI.run([path, "--inspect", "--at", "0.5", "--size", "320x240"])
      XCTAssertEqual(r.status, 0, r.stderr)
      XCTAssertEqual(r.stderr, "")
      XCTAssertFalse(r.stdout.contains("\"legend.y0\""), "the check marks should give way at 320x240")
      r = try CLI.run(["lint", path, "--size", "320x240"])
      XCTAssertEqual(r.status, 0, r.stdout + r.stderr)
    }
  }

  func testAtTheScriptsOwnSizeItIsAnError() throws {
    let path = try script(width: 320, height: 240, target: "c.legend.y0")
    let r = try CLI.run([path, "--inspect", "--at", "0.5"])
    XCTAssertEqual(r.status, 1)
    XCTAssertEqual(r.stderr, "error: \(path):6: cs.tap at 0.2 s: no node or part 'c.legend.y0' in the scene\n")
    // Also when --size names the script's own size.
    XCTAssertEqual(try CLI.run([path, "--inspect", "--at", "0.5", "--size", "320x240"]).stderr, r.stderr)
  }

  func testAPartTheChartNeverDrawsStaysAnError() throws {
    // A card has no mini-map at any size.
    let path = try script(width: 720, height: 1280, target: "k.minimap.window")
    let r = try CLI.run([path, "--inspect", "--at", "0.5", "--size", "320x240"])
    XCTAssertEqual(r.status, 1)
    XCTAssertEqual(r.stderr.split(separator: "\n").count, 1)
    XCTAssertTrue(r.stderr.hasPrefix("error: \(path):"), r.stderr)
  }
}
