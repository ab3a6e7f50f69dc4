import Foundation
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
