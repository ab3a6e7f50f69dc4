import ChartSceneHost
import Drawing
import Foundation
import SceneGraph
import XCTest

/// A test case with a fresh temporary folder, `tmp` (`dir`, its path), removed after each
/// test (as chartsceneTests' TempFolderCase; the two test targets share no code).
class TempFolderCase: XCTestCase {
  var tmp: URL!
  var dir: String { tmp.path }
  override func setUpWithError() throws {
    try super.setUpWithError()
    tmp = FileManager.default.temporaryDirectory.appendingPathComponent("chartscene-\(type(of: self))-" + UUID().uuidString)
    try FileManager.default.createDirectory(at: tmp, withIntermediateDirectories: true)
  }
  override func tearDownWithError() throws { try? FileManager.default.removeItem(at: tmp) }
}

extension Session {
  /// The axes of chart `id` as drawn at t (its frame's display list made first, so the
  /// presentation holds that frame's state), its plot and how far its window is at rest.
  func chartAxes(_ id: String = "c", at t: Double) throws -> (axes: ChartAxes, plot: Rect, rest: Double) {
    _ = try displayList(at: t)
    guard let node = scene.node(id: id), let spec = node.chart else { throw XCTSkip("no chart '\(id)'") }
    let p = scene.presentation
    let parts = ChartParts.make(spec: spec, card: false, frame: node.contentFrame, measurer: text, window: p.window(spec.data, at: t))
    let snap = ChartSnapshot(spec: spec, plot: parts.plot, presentation: p, key: ChartKey(node.identity), t: t)
    let axes = ChartAxes(spec: spec, parts: parts, snap: snap, measurer: text, presentation: p, key: ChartKey(node.identity), t: t)
    return (axes, parts.plot, ChartAxes.rest(spec: spec, presentation: p, t: t))
  }
}

/// What a program prints on its standard output (`args[0]` found on PATH), after it exits
/// with status 0 (a test failure otherwise): ffmpeg's and ffprobe's views of an output.
func toolOutput(_ args: [String], file: StaticString = #filePath, line: UInt = #line) throws -> Data {
  let p = Process()
  p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
  p.arguments = args
  let out = Pipe()
  p.standardOutput = out
  try p.run()
  let data = out.fileHandleForReading.readDataToEndOfFile()
  p.waitUntilExit()
  XCTAssertEqual(p.terminationStatus, 0, "\(args.joined(separator: " "))", file: file, line: line)
  return data
}
