import Foundation
import XCTest

/// The documentation stays true: every command-line flag and subcommand the program has is
/// documented in docs/lua-api.md, every flag the docs show on a `chartscene` command line
/// exists, every option key of the cs API (from the LuaLS definitions) is documented, and the
/// generated tables and files are current.
final class DocsTests: XCTestCase {
  let repo = EndToEndTests.repo

  func read(_ path: String) throws -> String { try String(contentsOf: repo.appendingPathComponent(path), encoding: .utf8) }

  /// Subcommand names from the root help, and every long flag of every subcommand.
  func cli() throws -> (subcommands: [String], flags: Set<String>) {
    let root = try CLI.run(["--help"]).stdout
    var subcommands: [String] = []
    var inList = false
    for line in root.split(separator: "\n", omittingEmptySubsequences: false) {
      if line.hasPrefix("SUBCOMMANDS:") { inList = true; continue }
      if inList, line.hasPrefix("  "), !line.hasPrefix("   "), let name = line.split(separator: " ").first { subcommands.append(String(name)) }
      if inList, line.isEmpty { inList = false }
    }
    var flags: Set<String> = []
    for sub in subcommands {
      let help = try CLI.run(["help", sub]).stdout
      flags.formUnion(Self.flags(in: help))
    }
    flags.remove("--help")
    return (subcommands, flags)
  }

  static func flags(in text: String) -> Set<String> {
    var out: Set<String> = []
    let chars = Array(text)
    var i = 0
    while i < chars.count - 2 {
      if chars[i] == "-", chars[i + 1] == "-", chars[i + 2].isLetter, i == 0 || !(chars[i - 1].isLetter || chars[i - 1] == "-") {
        var j = i + 2
        while j < chars.count, chars[j].isLetter || chars[j].isNumber || chars[j] == "-" { j += 1 }
        out.insert(String(chars[i..<j]))
        i = j
      } else { i += 1 }
    }
    return out
  }

  func testEveryFlagAndSubcommandIsDocumentedAndEveryDocumentedFlagExists() throws {
    let (subcommands, flags) = try cli()
    XCTAssertTrue(subcommands.contains("render") && subcommands.contains("preset") && subcommands.contains("init"), "\(subcommands)")
    XCTAssertTrue(flags.contains("--output") || flags.contains("--at"), "\(flags)")
    let api = try read("docs/lua-api.md")
    for flag in flags.sorted() where !api.contains("`\(flag)") && !api.contains(" \(flag) ") && !api.contains(" \(flag)=") {
      XCTFail("the flag \(flag) is not documented in docs/lua-api.md")
    }
    for sub in subcommands where sub != "render" && !api.contains("chartscene \(sub)") {
      XCTFail("the subcommand 'chartscene \(sub)' is not documented in docs/lua-api.md")
    }
    // Flags shown on chartscene command lines in the docs and the README exist.
    var pages = ["README.md"]
    pages += try FileManager.default.contentsOfDirectory(atPath: repo.appendingPathComponent("docs").path).filter { $0.hasSuffix(".md") }.map { "docs/" + $0 }
    for page in pages {
      for line in try read(page).split(separator: "\n") {
        let l = line.trimmingCharacters(in: .whitespaces)
        guard l.hasPrefix("chartscene ") || l.hasPrefix("$ chartscene ") || l.hasPrefix("`chartscene ") else { continue }
        let command = l.split(separator: "#").first.map(String.init) ?? l
        for flag in Self.flags(in: command) where !flags.contains(flag) && flag != "--help" {
          XCTFail("\(page) shows '\(flag)', which chartscene does not have: \(l)")
        }
      }
    }
  }

  func testEveryOptionKeyOfTheAPIIsDocumented() throws {
    let api = try read("docs/lua-api.md")
    let defs = try read("assets/types/chartscene.lua")
    var owner = ""
    for line in defs.split(separator: "\n") {
      if line.hasPrefix("---@class ") { owner = String(line.dropFirst(10).split(separator: ":")[0]); continue }
      guard line.hasPrefix("---@field "), owner.hasSuffix("Options") || owner == "cs.Tab" || owner == "cs.SeriesLine" else { continue }
      let key = String(line.dropFirst(10).split(separator: " ")[0]).replacingOccurrences(of: "?", with: "")
      if !api.contains("`\(key)`") && !api.contains("\(key) =") && !api.contains("\(key)=") {
        XCTFail("\(owner).\(key) is not documented in docs/lua-api.md")
      }
    }
  }

  func testGeneratedDocsAreCurrent() throws {
    let keys = try CLI.run(["preset", "keys"])
    XCTAssertEqual(keys.status, 0)
    XCTAssertTrue(try read("docs/presets.md").contains(keys.stdout), "docs/presets.md's keys table is stale: run scripts/docs")
    let defs = try CLI.run(["definitions"])
    XCTAssertEqual(defs.stdout, try read("assets/types/chartscene.lua"), "assets/types/chartscene.lua is stale: run scripts/docs")
  }
}
