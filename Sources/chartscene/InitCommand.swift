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
    abstract: "Print the LuaLS definitions of the cs API (what assets/types/chartscene.lua holds).")

  func run() throws { print(StarterProject.definitions, terminator: "") }
}
