import ChartModel
import ChartSceneLua
import SceneGraph
import Glibc

/// `chartscene init [DIR]`: a starter scene and the editor settings that make a Lua language
/// server complete and check it (`.luarc.json` pointing at `types/chartscene.lua`, a copy of
/// the definitions, by a relative path) and luacheck know the sandbox (`.luacheckrc`).
public enum StarterProject {
  public static let scene = """
  -- A chartscene scene: render it with `chartscene scene.lua` (→ scene.png).
  -- The API: docs/lua-api.md; your editor completes cs.* through .luarc.json.
  local cs = require("chartscene")

  local sets = cs.data.sample()          -- or cs.data.csv("data.csv"), cs.data.telegram("chart_data.json")
  local followers = sets[1]
  followers:setRange(0.75, 1.0)

  return cs.scene {
    width = 720, height = 640, theme = "day",
    root = cs.chart {
      id = "followers", data = followers, title = "Followers",
      indicatorAt = 0.93,
    },
  }

  """

  /// luacheck settings: exactly what the sandbox gives a script (docs/security.md), so
  /// `io.open`, `os.execute` or `string.dump` are flagged in the editor as they fail at run time.
  public static let luacheckrc = """
  -- luacheck settings for chartscene scenes: Lua 5.4 as chartscene's sandbox has it (no io,
  -- package, debug, dofile, loadfile, collectgarbage; os only time, clock and date; no
  -- string.dump) and the global `cs`.
  stds.chartscene = {
    read_globals = {
      "assert", "error", "ipairs", "pairs", "next", "pcall", "xpcall", "print", "select",
      "tonumber", "tostring", "type", "rawget", "rawset", "rawequal", "rawlen",
      "setmetatable", "getmetatable", "load", "require", "_VERSION", "cs",
      string = { fields = { "byte", "char", "find", "format", "gmatch", "gsub", "len", "lower",
        "match", "pack", "packsize", "rep", "reverse", "sub", "unpack", "upper" } },
      table = { fields = { "concat", "insert", "move", "pack", "remove", "sort", "unpack" } },
      math = { fields = { "abs", "acos", "asin", "atan", "ceil", "cos", "deg", "exp", "floor",
        "fmod", "huge", "log", "max", "maxinteger", "min", "mininteger", "modf", "pi", "rad",
        "random", "randomseed", "sin", "sqrt", "tan", "tointeger", "type", "ult" } },
      utf8 = { fields = { "char", "charpattern", "codes", "codepoint", "len", "offset" } },
      coroutine = { fields = { "close", "create", "isyieldable", "resume", "running", "status",
        "wrap", "yield" } },
      os = { fields = { "time", "clock", "date" } },
    },
    globals = { "_G" },
  }
  std = "chartscene"
  max_line_length = false

  """

  /// Where the starter keeps its copy of the editor definitions, relative to the project, so
  /// the folder works the same for a colleague who clones it (regenerate the copy with
  /// `chartscene definitions > types/chartscene.lua` after upgrading chartscene).
  public static let definitionsPath = "types/chartscene.lua"

  /// The language server's settings: the definitions, and the folders `require` finds
  /// compositions in after the script's own (its `compositions/`, then the user's), so a
  /// shared module is checked and completed like the script.
  static func luarc(library: String) -> String {
    let folders = [library, "compositions", userCompositions()]
    return """
    {
      "$schema": "https://raw.githubusercontent.com/LuaLS/vscode-lua/master/setting/schema.json",
      "runtime.version": "Lua 5.4",
      "workspace.library": [\(folders.map(jsonString).joined(separator: ", "))],
      "workspace.checkThirdParty": false,
      "diagnostics.globals": ["cs"]
    }

    """
  }

  /// The user's compositions folder as a colleague's editor finds it too: under the home
  /// folder as `~/...` (both LuaLS and emmylua_ls expand it).
  static func userCompositions() -> String {
    let fallback = "~/.config/chartscene/compositions"
    guard let path = SharedFolders.user("compositions") else { return fallback }
    if let h = getenv("HOME").map({ String(cString: $0) }), !h.isEmpty, path.hasPrefix(h + "/") { return "~" + path.dropFirst(h.count) }
    return path
  }

  /// Writes the three files into `dir` (created when missing); never overwrites a file.
  /// Returns the paths written.
  public static func create(in dir: String) throws(HostError) -> [String] {
    let typesFolder = String(definitionsPath.split(separator: "/")[0])
    let files = [("scene.lua", scene), (".luarc.json", luarc(library: typesFolder)), (".luacheckrc", luacheckrc), (definitionsPath, definitions)]
    for (name, _) in files where access(dir + "/" + name, F_OK) == 0 {
      throw HostError("'\(dir)/\(name)' already exists; chartscene init never overwrites a file (pick another folder)")
    }
    // What this run made, removed again (newest first) when it cannot finish: a refused
    // init leaves nothing behind.
    var made: [(path: String, folder: Bool)] = []
    func undo() { for m in made.reversed() { if m.folder { rmdir(m.path) } else { unlink(m.path) } } }
    for folder in [dir, dir + "/" + typesFolder] where !AssetLocator.isDirectory(folder) {
      guard mkdir(folder, 0o755) == 0 else {
        let why = AssetLocator.errorText()
        undo()
        throw HostError("cannot create the folder '\(folder)': \(why)")
      }
      made.append((folder, true))
    }
    var written: [String] = []
    for (name, text) in files {
      let path = dir + "/" + name
      let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
      guard fd >= 0 else {
        let why = AssetLocator.errorText()
        undo()
        throw HostError("cannot write '\(path)': \(why)")
      }
      made.append((path, false))
      let bytes = Array(text.utf8)
      let n = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
      let why = AssetLocator.errorText()
      close(fd)
      guard n == bytes.count else { undo(); throw HostError("cannot write '\(path)': \(why)") }
      written.append(path)
    }
    return written
  }

  static func jsonString(_ s: String) -> String {
    var out = "\""
    for u in s.unicodeScalars {
      switch u {
      case "\"": out += "\\\""
      case "\\": out += "\\\\"
      default:
        if u.value < 0x20 { out += "\\u" + String(repeating: "0", count: 4 - String(u.value, radix: 16).count) + String(u.value, radix: 16) } else { out.unicodeScalars.append(u) }
      }
    }
    return out + "\""
  }

  /// The LuaLS definition file's text (what assets/types/chartscene.lua holds).
  public static var definitions: String { APIDefinitions.luaLS() }

  /// A Markdown page (docs/lua-api.md) with its option tables made afresh from the declared
  /// options (`chartscene definitions --docs FILE`).
  public static func optionTables(in path: String) throws(HostError) -> String {
    let page: String
    do { page = String(decoding: try FileReader.read(path, limit: 16 << 20), as: UTF8.self) } catch { throw HostError(error.description) }
    var problems: [String] = []
    let out = OptionTable.updatingDocs(page) { problems.append($0) }
    if let first = problems.first { throw HostError("\(path): \(first)") }
    return out
  }
}
