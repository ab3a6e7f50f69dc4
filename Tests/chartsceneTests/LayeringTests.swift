import Foundation
import XCTest

/// Package.swift and the sources agree: each target depends on exactly the targets its
/// Swift files import, and only on targets of lower layers (docs/architecture.md).
final class LayeringTests: XCTestCase {
  /// The layers, lowest first; a Swift target may import only targets before it.
  static let order = ["Platform", "Drawing", "ChartModel", "Motion", "Gestures", "SceneGraph", "Render", "RenderCairo", "Encoding", "LiveWindow",
                      "LuaKit", "ChartSceneLua", "ChartSceneHost", "Studio", "chartscene"]
  /// Modules of the system and toolchain, not targets.
  static let system: Set<String> = ["Glibc", "Dispatch", "Foundation", "Synchronization", "ArgumentParser", "XCTest"]

  /// The web server's modules (packages Hummingbird, hummingbird-websocket, swift-log,
  /// swift-nio): only `Studio` may import them, so nothing else in the program touches the
  /// network.
  static let web: Set<String> = ["Hummingbird", "HummingbirdCore", "HummingbirdWebSocket", "Logging", "NIOCore", "NIOHTTP1"]

  /// name → declared dependencies, for every `.target` and `.executableTarget`.
  static func declared(_ manifest: String) throws -> [String: Set<String>] {
    let target = try NSRegularExpression(pattern: #"\.(?:target|executableTarget)\(\s*name:\s*"(\w+)"(?:\s*,\s*dependencies:\s*\[([^\]]*)\])?"#)
    let quoted = try NSRegularExpression(pattern: #""(\w+)""#)
    var out: [String: Set<String>] = [:]
    let ns = manifest as NSString
    for m in target.matches(in: manifest, range: NSRange(location: 0, length: ns.length)) {
      let name = ns.substring(with: m.range(at: 1))
      var deps: Set<String> = []
      if m.range(at: 2).location != NSNotFound {
        // A product's package name is not a module (`package: "hummingbird"`).
        let list = ns.substring(with: m.range(at: 2)).replacingOccurrences(of: #"package:\s*"[^"]*""#, with: "", options: .regularExpression)
        for q in quoted.matches(in: list, range: NSRange(location: 0, length: (list as NSString).length)) {
          deps.insert((list as NSString).substring(with: q.range(at: 1)))
        }
      }
      out[name] = deps.subtracting(system).subtracting(web)
    }
    return out
  }

  /// The modules the Swift files of a source folder (and the folders inside it) import.
  static func imports(_ folder: URL) throws -> Set<String>? {
    guard let walk = FileManager.default.enumerator(atPath: folder.path) else { return nil }
    let files = walk.compactMap { $0 as? String }.filter { $0.hasSuffix(".swift") }
    if files.isEmpty { return nil }
    let line = try NSRegularExpression(pattern: #"^\s*(?:@\w+\s+)*import\s+(?:(?:struct|class|enum|func|protocol|typealias|var|let)\s+)?(\w+)"#, options: .anchorsMatchLines)
    var out: Set<String> = []
    for f in files {
      let text = try String(contentsOf: folder.appendingPathComponent(f), encoding: .utf8)
      let ns = text as NSString
      for m in line.matches(in: text, range: NSRange(location: 0, length: ns.length)) { out.insert(ns.substring(with: m.range(at: 1))) }
    }
    return out.subtracting(system)
  }

  /// Only the studio imports the web server's modules.
  func testOnlyTheStudioImportsTheWebServer() throws {
    let sources = EndToEndTests.repo.appendingPathComponent("Sources")
    for name in try FileManager.default.contentsOfDirectory(atPath: sources.path).sorted() {
      guard let imported = try LayeringTests.imports(sources.appendingPathComponent(name)) else { continue }
      if name == "Studio" {
        XCTAssertEqual(imported.intersection(LayeringTests.web), LayeringTests.web, "the studio serves with Hummingbird")
      } else {
        XCTAssertEqual(imported.intersection(LayeringTests.web).sorted(), [], "\(name) imports the web server's modules")
      }
    }
  }

  func testDependenciesAreExactlyTheImportsAndFollowTheLayers() throws {
    let repo = EndToEndTests.repo
    let manifest = try String(contentsOf: repo.appendingPathComponent("Package.swift"), encoding: .utf8)
    let targets = try LayeringTests.declared(manifest)
    XCTAssertGreaterThan(targets.count, 15, "Package.swift's targets were not found")
    var checked = 0
    for (name, deps) in targets.sorted(by: { $0.key < $1.key }) {
      guard let imported = try LayeringTests.imports(repo.appendingPathComponent("Sources/\(name)"))?.subtracting(LayeringTests.web) else { continue }
      checked += 1
      XCTAssertEqual(imported.subtracting(deps).sorted(), [], "\(name) imports targets Package.swift does not declare for it")
      XCTAssertEqual(deps.subtracting(imported).sorted(), [], "\(name) declares targets it never imports")
      guard let rank = LayeringTests.order.firstIndex(of: name) else {
        XCTFail("\(name) is not in the layer order (docs/architecture.md, LayeringTests.order)")
        continue
      }
      for d in imported {
        if d.hasPrefix("C") && !LayeringTests.order.contains(d) { continue }  // a C library or shim
        if d == "LuaKit" {
          XCTAssertTrue(["ChartSceneLua", "ChartSceneHost"].contains(name), "only the bindings and the host may use Lua; \(name) imports LuaKit")
          continue
        }
        guard let r = LayeringTests.order.firstIndex(of: d) else { XCTFail("\(name) imports \(d), which is in no layer"); continue }
        XCTAssertLessThan(r, rank, "\(name) imports \(d), a layer above it")
      }
    }
    XCTAssertEqual(checked, LayeringTests.order.count, "every Swift target was checked")
  }

  /// The checker itself finds drift.
  func testTheCheckSeesAnUndeclaredImport() throws {
    let deps = try LayeringTests.declared(#".target(name: "A", dependencies: ["B", .product(name: "ArgumentParser", package: "swift-argument-parser")]), .target(name: "C")"#)
    XCTAssertEqual(deps["A"], ["B"])
    XCTAssertEqual(deps["C"], [])
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("layering-" + UUID().uuidString)
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    try "import B\n@preconcurrency import D\nimport Glibc\n// import E\n".write(to: folder.appendingPathComponent("a.swift"), atomically: true, encoding: .utf8)
    XCTAssertEqual(try LayeringTests.imports(folder), ["B", "D"])
  }
}
