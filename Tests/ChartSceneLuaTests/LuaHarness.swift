import ChartSceneHost
import Foundation
import XCTest

/// Writes scripts into a fresh temporary folder and loads them through the host.
final class ScriptFolder {
  let path: String
  init() {
    path = NSTemporaryDirectory() + "chartscene-tests-" + UUID().uuidString
    try! FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
  }
  deinit { try? FileManager.default.removeItem(atPath: path) }

  @discardableResult
  func write(_ name: String, _ text: String) -> String {
    let p = path + "/" + name
    try! FileManager.default.createDirectory(atPath: (p as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
    try! text.write(toFile: p, atomically: true, encoding: .utf8)
    return p
  }

  func session(_ script: String, name: String = "s.lua", overrides: Session.Overrides = Session.Overrides()) throws -> Session {
    try Session(scriptPath: write(name, script), overrides: overrides, quiet: true)
  }

  /// The error message a script produces (fails the test when it loads). Scripts get a
  /// second (callbacks a tenth of it), not the default ten, so endless loops end soon.
  func error(_ script: String, name: String = "s.lua", maxMemory: Int = 1 << 30, maxTime: Double = 1, file: StaticString = #filePath, line: UInt = #line) -> String {
    do {
      var limits = Session.Overrides()
      limits.maxTime = maxTime
      limits.maxMemory = maxMemory
      let s = try session(script, name: name, overrides: limits)
      _ = try s.displayList(at: 0)
      XCTFail("script loaded without error", file: file, line: line)
      return ""
    } catch let e as HostError {
      return e.message.replacingOccurrences(of: path + "/", with: "")
    } catch {
      XCTFail("unexpected error \(error)", file: file, line: line)
      return ""
    }
  }
}

let chartScene = "return cs.scene{ width = 400, height = 300, root = %@ }"
func scene(_ root: String) -> String { chartScene.replacingOccurrences(of: "%@", with: root) }
