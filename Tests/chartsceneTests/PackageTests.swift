import Foundation
import XCTest

/// `scripts/package` builds a .deb whose binary needs no Swift, and `scripts/check-deb` installs
/// it with apt on a clean Debian root (no Swift there) and renders the main example.
final class PackageTests: TempFolderCase {
  func testTheDebInstallsOnACleanRootWithoutSwift() throws {
    let repo = EndToEndTests.repo
    let scratch = repo.appendingPathComponent(".build-package")
    let made = try CLI.run([repo.appendingPathComponent("scripts/package").path, tmp.path], env: ["CHARTSCENE_SCRATCH": scratch.path],
                           executable: URL(fileURLWithPath: "/bin/bash"))
    XCTAssertEqual(made.status, 0, made.stderr)
    let path = made.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    let version = try String(contentsOf: repo.appendingPathComponent("VERSION"), encoding: .utf8)
      .replacingOccurrences(of: "version:", with: "").trimmingCharacters(in: .whitespacesAndNewlines)
    XCTAssertTrue(path.hasSuffix("/chartscene_\(version)_amd64.deb") || path.hasSuffix("/chartscene_\(version)_arm64.deb"), path)
    let control = try CLI.run(["-f", path], executable: URL(fileURLWithPath: "/usr/bin/dpkg-deb"))
    XCTAssertTrue(control.stdout.contains("Depends: ") && control.stdout.contains("liblua5.4-0") && control.stdout.contains("libcairo2"), control.stdout)
    XCTAssertFalse(control.stdout.lowercased().contains("swift"), control.stdout)
    let files = try CLI.run(["-c", path], executable: URL(fileURLWithPath: "/usr/bin/dpkg-deb")).stdout
    for f in ["./usr/bin/chartscene", "./usr/share/man/man1/chartscene.1.gz", "./usr/share/bash-completion/completions/chartscene",
              "./usr/share/chartscene/assets/presets/cards.lua"] {
      XCTAssertTrue(files.contains(f), "\(f) is not in the package")
    }
    let needed = try CLI.run(["-p", scratch.appendingPathComponent("release/chartscene").path], executable: URL(fileURLWithPath: "/usr/bin/objdump"))
    XCTAssertTrue(needed.stdout.contains("NEEDED"), needed.stderr)
    XCTAssertFalse(needed.stdout.contains("libswift"), "the packaged binary needs Swift's runtime")

    let check = try CLI.run([repo.appendingPathComponent("scripts/check-deb").path, path], executable: URL(fileURLWithPath: "/bin/bash"))
    if check.status == 2 { throw XCTSkip(check.stderr.trimmingCharacters(in: .newlines)) }
    XCTAssertEqual(check.status, 0, check.stderr)
    XCTAssertTrue(check.stdout.contains("ok: "), check.stdout)
  }
}
