import ArgumentParser
import ChartSceneHost

/// `chartscene init [DIR]`: a starter scene with editor settings.
struct InitCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "init",
    abstract: "Write a starter scene.lua, a .luarc.json (LuaLS completion and checks) and a .luacheckrc into DIR.",
    discussion: "Never overwrites a file. The .luarc.json points workspace.library at the definition file shipped with chartscene's assets.")

  @Argument(help: "The folder (created when missing; default: the current folder).", completion: .directory)
  var dir: String = "."

  func run() throws {
    for path in try StarterProject.create(in: dir) { print("wrote \(path)") }
  }
}

/// `chartscene definitions`: the LuaLS definition file of the cs API, on standard output.
struct DefinitionsCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "definitions",
    abstract: "Print the LuaLS definitions of the cs API (what assets/types/chartscene.lua holds).",
    discussion: "With --docs FILE: print FILE (docs/lua-api.md) with its option tables made afresh from the declared options.")

  @Option(help: "A Markdown file whose option tables (between '<!-- options: OWNER -->' and '<!-- /options -->') to print regenerated.",
          completion: .file(extensions: ["md"]))
  var docs: String?

  func run() throws {
    guard let docs else { return print(StarterProject.definitions, terminator: "") }
    print(try StarterProject.optionTables(in: docs), terminator: "")
  }
}
