import Foundation
import XCTest
@testable import ChartSceneHost

/// The assets embedded in the executable are exactly the files of assets/.
final class AssetTests: XCTestCase {
  static let assets = URL(fileURLWithPath: "\(#filePath)").deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("assets")

  func testEveryFileOfAssetsIsEmbeddedAndCurrent() throws {
    var onDisk: [String] = []
    let e = FileManager.default.enumerator(at: Self.assets, includingPropertiesForKeys: [.isRegularFileKey])!
    for case let url as URL in e where try url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile == true {
      onDisk.append(String(url.path.dropFirst(Self.assets.path.count + 1)))
    }
    let embedded = AssetLocator.embedded()
    XCTAssertEqual(embedded.map(\.path).sorted(), onDisk.sorted(),
                   "every file under assets/ must be listed in Sources/CAssets/assets.c (and nothing else)")
    for file in embedded {
      let disk = try Data(contentsOf: Self.assets.appendingPathComponent(file.path))
      XCTAssertTrue(disk.elementsEqual(file.bytes),
                    "the embedded \(file.path) is stale: touch Sources/CAssets/assets.c and build again")
    }
  }
}
