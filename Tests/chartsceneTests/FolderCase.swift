import Foundation
import XCTest

/// A test case that runs the real executable in a fresh folder of its own (its working
/// folder, HOME and config folder all inside it, with an earlier `out.png`), and can tell
/// whether a run changed anything in it. SafetyTests and HardeningTests build on it.
class FolderCase: XCTestCase {
  var dir: URL!

  override func setUpWithError() throws {
    try super.setUpWithError()
    dir = FileManager.default.temporaryDirectory.appendingPathComponent("chartscene-\(type(of: self))-" + UUID().uuidString)
    try FileManager.default.createDirectory(at: dir.appendingPathComponent("home"), withIntermediateDirectories: true)
    try Data("earlier".utf8).write(to: dir.appendingPathComponent("out.png"))
  }
  override func tearDownWithError() throws { try? FileManager.default.removeItem(at: dir) }

  @discardableResult
  func write(_ name: String, _ text: String) throws -> String {
    let u = dir.appendingPathComponent(name)
    try FileManager.default.createDirectory(at: u.deletingLastPathComponent(), withIntermediateDirectories: true)
    try text.write(to: u, atomically: true, encoding: .utf8)
    return name
  }

  /// A case that must fail: exactly one `error:` line containing `expected`, the status,
  /// within `seconds`, nothing on stdout, the folder unchanged (the earlier out.png kept).
  func fails(_ args: [String], _ expected: String, status: Int32 = 1, seconds: Double = 30, executable: URL? = nil,
             file: StaticString = #filePath, line: UInt = #line) throws {
    let before = try snapshot()
    let r = try run(args.contains("-o") || args.contains("--inspect") || args.contains("--live") ? args : args + ["-o", "out.png"], executable: executable)
    XCTAssertEqual(r.status, status, "\(args): \(r.stderr)", file: file, line: line)
    XCTAssertEqual(r.stderr.split(separator: "\n", omittingEmptySubsequences: false).count, 2, "\(args): \(r.stderr)", file: file, line: line)
    XCTAssertTrue(r.stderr.hasPrefix("error: "), r.stderr, file: file, line: line)
    XCTAssertTrue(r.stderr.contains(expected), "\(args): '\(r.stderr)' lacks '\(expected)'", file: file, line: line)
    XCTAssertEqual(r.stdout, "", file: file, line: line)
    XCTAssertLessThan(r.seconds, seconds, "\(args) took \(r.seconds) s", file: file, line: line)
    XCTAssertEqual(try snapshot(), before, "\(args) changed the folder", file: file, line: line)
  }

  /// What is in the folder: every entry by name, a file with its whole contents (a rewrite of
  /// the same length is a change).
  enum Entry: Equatable, CustomStringConvertible {
    case folder, other
    case file(Data)
    var description: String {
      switch self {
      case .folder: "folder"
      case .other: "other"
      case .file(let d): "file of \(d.count) bytes"
      }
    }
  }

  func snapshot() throws -> [String: Entry] {
    var out: [String: Entry] = [:]
    let e = FileManager.default.enumerator(atPath: dir.path)!
    while let name = e.nextObject() as? String {
      let u = dir.appendingPathComponent(name)
      var isDir: ObjCBool = false
      _ = FileManager.default.fileExists(atPath: u.path, isDirectory: &isDir)
      let regular = (try? FileManager.default.attributesOfItem(atPath: u.path)[.type] as? FileAttributeType) == .typeRegular
      out[name] = isDir.boolValue ? .folder : regular ? .file(try Data(contentsOf: u)) : .other
    }
    return out
  }

  func run(_ args: [String], executable: URL? = nil) throws -> CLI.Result {
    let home = dir.appendingPathComponent("home").path
    return try CLI.run(args, cwd: dir, env: ["HOME": home, "XDG_CONFIG_HOME": home + "/.config"], executable: executable)
  }
}
