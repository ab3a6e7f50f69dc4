import Foundation
import XCTest

/// `scripts/wheel` builds a manylinux wheel of the release binary (the one the end-to-end tests
/// run: `.build/release/chartscene` under scripts/test), and `scripts/check-wheel` installs it
/// in a fresh venv on a clean Debian root without the project's packages, where the command,
/// the Python API, docs/python.md's Python blocks and a notebook in a real Jupyter kernel
/// (nbclient) must all work (issue 40).
final class WheelTests: TempFolderCase {
  func testTheWheelInstallsAndRendersOnACleanRoot() throws {
    let repo = EndToEndTests.repo
    let made = try CLI.run([repo.appendingPathComponent("scripts/wheel").path, tmp.path], env: ["CHARTSCENE_BIN": CLI.binary.path],
                           executable: URL(fileURLWithPath: "/bin/bash"))
    XCTAssertEqual(made.status, 0, made.stderr)
    let path = made.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    let version = try String(contentsOf: repo.appendingPathComponent("VERSION"), encoding: .utf8)
      .replacingOccurrences(of: "version:", with: "").trimmingCharacters(in: .whitespacesAndNewlines)
    let name = URL(fileURLWithPath: path).lastPathComponent
    let tag = try XCTUnwrap(name.firstMatch(of: /^chartscene-([0-9.]+)-py3-none-manylinux_2_([0-9]+)_x86_64\.whl$/), name)
    XCTAssertEqual(String(tag.1), version)
    // The floor the README and docs/python.md state is the tag auditwheel found.
    let floor = "manylinux_2_\(tag.2)_x86_64"
    for page in ["README.md", "docs/python.md"] {
      let text = try String(contentsOf: repo.appendingPathComponent(page), encoding: .utf8)
      XCTAssertTrue(text.contains(floor) && text.contains("glibc 2.\(tag.2)"), "\(page) does not state the wheel's floor, \(floor) (glibc 2.\(tag.2))")
    }

    let list = try CLI.run(["-Z1", path], executable: URL(fileURLWithPath: "/usr/bin/unzip"))
    XCTAssertEqual(list.status, 0, list.stderr)
    let files = Set(list.stdout.split(separator: "\n").map(String.init))
    for f in ["chartscene/bin/chartscene", "chartscene/__init__.py", "chartscene/__main__.py", "chartscene/_magic.py",
              "chartscene/share/chartscene/assets/fonts/Inter-Regular.otf", "chartscene/share/chartscene/assets/presets/cards.lua",
              "chartscene/lib/libglib-2.0.so.0", "chartscene/lib/libexpat.so.1", "chartscene-\(version).dist-info/RECORD"] {
      XCTAssertTrue(files.contains(f), "\(f) is not in the wheel")
    }
    XCTAssertTrue(files.contains { $0.hasPrefix("chartscene/lib/libx264.so.") }, "libx264 (dlopen'd for MP4) is not in the wheel")
    for lib in ["libcairo-", "libpango-1", "liblua5", "libharfbuzz-", "libfontconfig-"] {
      XCTAssertTrue(files.contains { $0.hasPrefix("chartscene.libs/" + lib) }, "auditwheel vendored no \(lib)*")
    }
    let entry = try CLI.run(["-p", path, "chartscene-\(version).dist-info/entry_points.txt"], executable: URL(fileURLWithPath: "/usr/bin/unzip"))
    XCTAssertTrue(entry.stdout.contains("chartscene = chartscene.__main__:main"), entry.stdout)
    // The binary finds its libraries in the wheel: a DT_RPATH (also searched for what they
    // load, and by dlopen) naming both folders relative to itself.
    let bin = tmp.appendingPathComponent("chartscene-from-wheel")
    XCTAssertEqual(try CLI.run(["-c", "unzip -p \"$0\" chartscene/bin/chartscene > \"$1\"", path, bin.path], executable: URL(fileURLWithPath: "/bin/sh")).status, 0)
    let dynamic = try CLI.run(["-d", bin.path], executable: URL(fileURLWithPath: "/usr/bin/readelf")).stdout
    XCTAssertTrue(dynamic.contains("(RPATH)") && dynamic.contains("[$ORIGIN/../lib:$ORIGIN/../../chartscene.libs]"), dynamic)
    XCTAssertFalse(dynamic.contains("libswift"), "the wheel's binary needs Swift's runtime")

    let check = try CLI.run([repo.appendingPathComponent("scripts/check-wheel").path, path], executable: URL(fileURLWithPath: "/bin/bash"))
    if check.status == 2 { throw XCTSkip(check.stderr.trimmingCharacters(in: .newlines)) }
    XCTAssertEqual(check.status, 0, check.stdout.suffix(3000) + "\n" + check.stderr.suffix(3000))
    for line in ["ok: a still scene", "ok: an animated scene", "ok: WebM without ffmpeg: error: ", "ok: args and data",
                 "ok: Lua text; errors carry", "ok: python -m chartscene", "python blocks ran", "ok: the notebook ran in a real kernel",
                 "ok: \(name) installed in a fresh venv"] {
      XCTAssertTrue(check.stdout.contains(line), "check-wheel did not say '\(line)':\n\(check.stdout.suffix(3000))")
    }
    print(check.stdout.split(separator: "\n").filter { $0.hasPrefix("ok:") || $0.hasPrefix("time:") }.joined(separator: "\n"))
  }
}
