import ChartSceneHost
import Foundation
import XCTest

/// Issue 19, item 16: `--watch` held 17,001 inotify watches for a script that read (or
/// tried to read) files in that many folders, and never gave one back. It watches at most
/// `FileWatcher.maximumFolders` folders, and a reload releases the ones no longer needed.
final class FileWatcherTests: XCTestCase {
  func testFoldersAreBoundedAndReleased() throws {
    let root = FileManager.default.temporaryDirectory.appendingPathComponent("chartscene-watch-" + UUID().uuidString)
    defer { try? FileManager.default.removeItem(at: root) }
    var files: [String] = []
    for k in 0..<(FileWatcher.maximumFolders + 44) {
      let d = root.appendingPathComponent("d\(k)")
      try FileManager.default.createDirectory(at: d, withIntermediateDirectories: true)
      files.append(d.appendingPathComponent("x.csv").path)
    }
    let w = FileWatcher()
    XCTAssertEqual(w.watch(files), 44)
    XCTAssertEqual(w.watchedFolders, FileWatcher.maximumFolders)
    // The next load reads three files in two folders: the others are given back.
    XCTAssertEqual(w.watch([files[0], files[1], root.appendingPathComponent("d0/y.csv").path]), 0)
    XCTAssertEqual(w.watchedFolders, 2)
    // And a change to one of those is still seen.
    try "a".write(toFile: files[1], atomically: false, encoding: .utf8)
    XCTAssertTrue(w.changed(timeoutMs: 1000))
  }
}
