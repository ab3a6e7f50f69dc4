import Foundation
import XCTest

/// Every shell and Lua block of README.md and docs/*.md runs as written, in a scratch folder
/// holding a copy of examples/ (plus `my.lua`, a copy of chart.lua, and `deck.lua`, of
/// cards.lua: the names the docs use for "your script"; and examples/ and assets/data/ again,
/// for paths written from the repository's root), with the built chartscene on PATH
/// and a private HOME. The blocks of a page run in order in one folder.
///
/// A comment on the line before a block says how to take it:
///   `<!-- not run: REASON -->`  the block is not run (REASON says why: a build, a cluster, a window...)
///   `<!-- file: PATH -->`       the block is saved as PATH for the blocks after it (a preset, a timeline)
/// Otherwise a shell block runs with `bash -euo pipefail` and must exit 0; a Lua block is a
/// scene script, rendered to a PNG.
final class DocBlocksTests: TempFolderCase {
  struct Block { var page: String; var line: Int; var language: String; var body: String; var directive: String? }

  static func blocks(in page: String, text: String) -> [Block] {
    var out: [Block] = []
    let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    var i = 0
    while i < lines.count {
      let l = lines[i]
      if l.hasPrefix("```") {
        let language = String(l.dropFirst(3)).trimmingCharacters(in: .whitespaces)
        var j = i + 1
        var body: [String] = []
        while j < lines.count, !lines[j].hasPrefix("```") { body.append(lines[j]); j += 1 }
        var directive: String?
        if i > 0 {
          let before = lines[i - 1].trimmingCharacters(in: .whitespaces)
          if before.hasPrefix("<!--"), before.hasSuffix("-->") {
            directive = String(before.dropFirst(4).dropLast(3)).trimmingCharacters(in: .whitespaces)
          }
        }
        if ["sh", "bash", "lua"].contains(language) {
          out.append(Block(page: page, line: i + 1, language: language, body: body.joined(separator: "\n") + "\n", directive: directive))
        }
        i = j + 1
      } else {
        i += 1
      }
    }
    return out
  }

  func pages() throws -> [String] {
    let docs = try FileManager.default.contentsOfDirectory(atPath: EndToEndTests.repo.appendingPathComponent("docs").path)
    return ["README.md"] + docs.filter { $0.hasSuffix(".md") }.sorted().map { "docs/" + $0 }
  }

  static func scratch(for page: String, in tmp: URL) throws -> URL {
    let fm = FileManager.default
    let dir = tmp.appendingPathComponent(page.replacingOccurrences(of: "/", with: "_"))
    try fm.copyItem(at: EndToEndTests.repo.appendingPathComponent("examples"), to: dir)
    for f in try fm.contentsOfDirectory(atPath: dir.path) where f.hasSuffix(".png") || f.hasSuffix(".mp4") {
      try fm.removeItem(at: dir.appendingPathComponent(f))
    }
    try fm.copyItem(at: dir.appendingPathComponent("chart.lua"), to: dir.appendingPathComponent("my.lua"))
    try fm.copyItem(at: dir.appendingPathComponent("cards.lua"), to: dir.appendingPathComponent("deck.lua"))
    try fm.createDirectory(at: dir.appendingPathComponent("home"), withIntermediateDirectories: true)
    // Paths written from the repository's root work too: examples/..., assets/data/...
    try fm.copyItem(at: EndToEndTests.repo.appendingPathComponent("examples"), to: dir.appendingPathComponent("examples"))
    try fm.createDirectory(at: dir.appendingPathComponent("assets"), withIntermediateDirectories: true)
    try fm.copyItem(at: EndToEndTests.repo.appendingPathComponent("assets/data"), to: dir.appendingPathComponent("assets/data"))
    return dir
  }

  /// What one page's blocks gave, checked on the test's thread.
  struct PageRun {
    /// Skipped blocks: their place and the reason given.
    var skipped: [(place: String, reason: String)] = []
    /// Run blocks: their place, body, directive and result.
    var ran: [(place: String, body: String, directive: String?, result: CLI.Result)] = []
    var error: String?
  }

  /// Runs the blocks of one page, in order, in its own scratch folder.
  static func run(page: String, in tmp: URL) -> PageRun {
    var out = PageRun()
    do {
      let text = try String(contentsOf: EndToEndTests.repo.appendingPathComponent(page), encoding: .utf8)
      let blocks = Self.blocks(in: page, text: text)
      guard !blocks.isEmpty else { return out }
      let dir = try scratch(for: page, in: tmp)
      let env = ["PATH": CLI.binary.deletingLastPathComponent().path + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"),
                 "HOME": dir.appendingPathComponent("home").path, "XDG_CONFIG_HOME": ""]
      for (n, b) in blocks.enumerated() {
        let place = "\(b.page):\(b.line)"
        if let d = b.directive, d.hasPrefix("not run:") {
          out.skipped.append((place, d.dropFirst(8).trimmingCharacters(in: .whitespaces)))
          continue
        }
        if let d = b.directive, d.hasPrefix("file:") {
          let path = dir.appendingPathComponent(d.dropFirst(5).trimmingCharacters(in: .whitespaces))
          try FileManager.default.createDirectory(at: path.deletingLastPathComponent(), withIntermediateDirectories: true)
          try b.body.write(to: path, atomically: true, encoding: .utf8)
          continue
        }
        let r: CLI.Result
        if b.language == "lua" {
          let script = "doc-block-\(n).lua"
          try b.body.write(to: dir.appendingPathComponent(script), atomically: true, encoding: .utf8)
          r = try CLI.run([script, "-o", "doc-block-\(n).png"], cwd: dir, env: env)
        } else {
          r = try CLI.run(["timeout", "300", "bash", "-euo", "pipefail", "-c", b.body], cwd: dir, env: env,
                          executable: URL(fileURLWithPath: "/usr/bin/env"))
        }
        out.ran.append((place, b.body, b.directive, r))
      }
    } catch {
      out.error = "\(page): \(error)"
    }
    return out
  }

  func testEveryBlockOfTheDocsRunsAsWritten() throws {
    // The pages are independent (a folder each): two at a time; the blocks of a page in order.
    let pages = try pages()
    let tmp = self.tmp!
    let runs = CLI.inParallel(pages.count) { k in Self.run(page: pages[k], in: tmp) }
    var ran = 0, skipped = 0
    for page in runs {
      if let e = page.error { XCTFail(e) }
      for (place, reason) in page.skipped {
        XCTAssertGreaterThan(reason.count, 5, "\(place): say why the block is not run")
        skipped += 1
      }
      for (place, body, directive, r) in page.ran {
        XCTAssertNil(directive, "\(place): unknown directive '\(directive ?? "")' (not run: REASON, or file: PATH)")
        ran += 1
        XCTAssertEqual(r.status, 0, "\(place): the block failed:\n\(body)\(r.stdout.suffix(1500))\n\(r.stderr.suffix(1500))")
      }
    }
    XCTAssertGreaterThan(ran, 12, "the docs' blocks were not found")
    print("doc blocks: \(ran) run, \(skipped) marked not run")
  }
}
