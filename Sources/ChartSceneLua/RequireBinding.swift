import ChartModel
import Glibc
import LuaKit

/// `require`: `"chartscene"` gives the module, the names of the standard libraries the
/// sandbox opens (`string`, `table`, `math`, `utf8`, `coroutine`, `os`, `_G`) give those
/// libraries as the script's state opened them (as Lua's `package.loaded` does); `io`,
/// `debug` and `package` are refused; other names load `NAME.lua` (dots become folders) from
/// the script's folder, else a shared composition (CompositionLocator), as text, once.
enum RequireBinding {
  /// The standard libraries `require` gives by name (never a file of that name).
  static let standardLibraries = ["_G", "string", "table", "math", "utf8", "coroutine", "os"]
  /// The standard libraries the sandbox leaves out (docs/security.md).
  static let absentLibraries: Set<String> = ["io", "debug", "package"]

  static func install(_ lua: LuaState, module cs: Int32, context: BindingContext) {
    lua.newTable()
    lua.pushValue(cs)
    lua.rawSet(-2, "chartscene")
    for library in standardLibraries {
      if library == "_G" { lua.pushGlobalTable() } else if lua.rawGetGlobal(library) != .table { lua.pop(); continue }
      lua.rawSet(-2, library)
    }
    let loadedRef = lua.ref()
    lua.push(function: "require") { lua in
      let name = try lua.checkString(1, function: "require")
      lua.pushRef(loadedRef)
      if lua.rawGet(-1, name) != .nil { return 1 }
      lua.pop(2)
      if absentLibraries.contains(name) {
        throw LuaError("module '\(name)' is not available in chartscene scripts")
      }
      let parts = name.split(separator: ".", omittingEmptySubsequences: false)
      guard !parts.isEmpty, parts.allSatisfy({ !$0.isEmpty && !$0.contains("/") && $0 != ".." && !$0.utf8.contains(0) }) else {
        throw LuaError("module '\(FileReader.shownPath(name))' not found (module names are like 'helpers' or 'lib.colors')")
      }
      let relative = parts.joined(separator: "/") + ".lua"
      // Modules come from the script's folder only: a symbolic link out of it is refused.
      let root = BindingContext.realPath(context.scriptDirectory.isEmpty ? "." : context.scriptDirectory).map { [$0] } ?? []
      let locator = CompositionLocator(scriptDirectory: context.scriptDirectory, assetsDirectory: context.assetsDirectory)
      var path = context.resolve(relative)
      var bytes: [UInt8]? = nil
      var st = stat()
      if stat(path, &st) != 0, let shared = locator.locate(relative) {
        // Not next to the script: a shared composition (its compositions/, the user's, the
        // built-ins), read only where it lies — links resolved — inside the folders a script
        // may read (or, for the user's and the built-ins, inside that folder).
        path = shared.path
        try confineShared(shared, name: name, locator: locator, context: context)
        if locator.hidesBuiltIn(shared, relative: relative) {
          context.warn(CompositionLocator.hidingWarning(name: name, path: shared.path))
        }
        bytes = try? FileReader.read(path)
      } else {
        // Modules next to the script: a symbolic link out of its folder is refused.
        path = try context.confined(relative, roots: root, what: "the script's folder (modules are found there only)")
        bytes = try? FileReader.read(path)
      }
      context.files.insert(path)
      guard let bytes else {
        throw LuaError("module '\(name)' not found (looked for '\(path)' next to the script, then in compositions/, the user's compositions and the built-ins)")
      }
      context.chunks.append(path)
      try lua.load(bytes, chunkName: "@" + path)
      lua.push(name)
      try lua.pcall(nargs: 1, nresults: 1)
      if lua.isNil(-1) { lua.pop(); lua.push(true) }
      lua.pushRef(loadedRef)
      lua.pushValue(-2)
      lua.rawSet(-2, name)
      lua.pop()
      return 1
    }
    lua.setGlobal("require")
  }

  /// Refuses a shared module whose file (links followed) lies outside every folder it may
  /// come from (issue 37: `compositions/cfg.lua -> /etc/os-release` was loaded).
  static func confineShared(_ shared: (path: String, origin: String), name: String, locator: CompositionLocator, context: BindingContext) throws(LuaError) {
    guard !context.readableRoots.isEmpty || shared.origin != "script" else { return }
    let roots = context.readableRoots + locator.ownRoots(origin: shared.origin)
    guard let real = BindingContext.realPath(shared.path) else { return }
    guard roots.contains(where: { real == $0 || real.hasPrefix($0 == "/" ? "/" : $0 + "/") }) else {
      throw LuaError("cannot read '\(shared.path)' (module '\(name)'): it is outside the folders a script may read (the script's, the current one; \(BindingContext.widen))")
    }
  }
}
