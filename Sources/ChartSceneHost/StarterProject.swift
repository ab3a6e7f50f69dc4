import ChartSceneLua
import Glibc

/// `chartscene init [DIR]`: a starter scene and the editor settings that make LuaLS complete
/// and check it (`.luarc.json` pointing at the definition file shipped with the assets) and
/// luacheck know `cs` (`.luacheckrc`).
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

  public static let luacheckrc = """
  -- luacheck settings for chartscene scenes: Lua 5.4 and the global `cs`.
  std = "lua54"
  read_globals = { "cs" }
  max_line_length = false

  """

  static func luarc(library: String) -> String {
    """
    {
      "$schema": "https://raw.githubusercontent.com/LuaLS/vscode-lua/master/setting/schema.json",
      "runtime.version": "Lua 5.4",
      "workspace.library": [\(jsonString(library))],
      "workspace.checkThirdParty": false,
      "diagnostics.globals": ["cs"]
    }

    """
  }

  /// Writes the three files into `dir` (created when missing); never overwrites a file.
  /// Returns the paths written.
  public static func create(in dir: String) throws(HostError) -> [String] {
    let assets = try AssetLocator.locate()
    let definitions = assets + "/types"
    guard AssetLocator.isFile(definitions + "/chartscene.lua") else {
      throw HostError("the editor definitions are missing from \(definitions) (set CHARTSCENE_ASSETS to a complete assets folder)")
    }
    if !AssetLocator.isDirectory(dir) && mkdir(dir, 0o755) != 0 {
      throw HostError("cannot create the folder '\(dir)': \(AssetLocator.errorText())")
    }
    let files = [("scene.lua", scene), (".luarc.json", luarc(library: AssetLocator.realPath(definitions) ?? definitions)), (".luacheckrc", luacheckrc)]
    for (name, _) in files where access(dir + "/" + name, F_OK) == 0 {
      throw HostError("'\(dir)/\(name)' already exists; chartscene init never overwrites a file (pick another folder)")
    }
    var written: [String] = []
    for (name, text) in files {
      let path = dir + "/" + name
      let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
      guard fd >= 0 else { throw HostError("cannot write '\(path)': \(AssetLocator.errorText())") }
      let bytes = Array(text.utf8)
      let n = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
      close(fd)
      guard n == bytes.count else { unlink(path); throw HostError("cannot write '\(path)': \(AssetLocator.errorText())") }
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
}
