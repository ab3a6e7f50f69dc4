import Glibc

/// Where shared compositions are found, after the script's own folder: its `compositions/`
/// folder, the user's (`$XDG_CONFIG_HOME/chartscene/compositions/`, else
/// `~/.config/chartscene/compositions/`), then the built-ins (`assets/compositions/`), as
/// presets are. `require("coverflow")` and `chartscene composition` use it.
public struct CompositionLocator {
  public let scriptDirectory: String
  public let assetsDirectory: String?

  public init(scriptDirectory: String, assetsDirectory: String?) {
    self.scriptDirectory = scriptDirectory
    self.assetsDirectory = assetsDirectory
  }

  public var userDirectory: String? { SharedFolders.user("compositions") }

  /// The folders searched, with their origin: "script", "user", "built-in".
  public var folders: [(path: String, origin: String)] {
    var out = [((scriptDirectory.isEmpty ? "." : scriptDirectory) + "/compositions", "script")]
    if let u = userDirectory { out.append((u, "user")) }
    if let a = assetsDirectory { out.append((a + "/compositions", "built-in")) }
    return out
  }

  /// The file of a composition module (`relative` is `NAME.lua` or `lib/NAME.lua`), and its origin.
  public func locate(_ relative: String) -> (path: String, origin: String)? {
    for (dir, origin) in folders {
      let p = dir + "/" + relative
      var st = stat()
      if stat(p, &st) == 0, (st.st_mode & S_IFMT) == S_IFREG { return (p, origin) }
    }
    return nil
  }

  /// True when `found` (the file of `relative`, from `locate`) is a shared module that hides
  /// the built-in composition of the same name: the first found wins for `require` and in
  /// `chartscene composition`, while `cs.NAME` stays the built-in.
  public func hidesBuiltIn(_ found: (path: String, origin: String), relative: String) -> Bool {
    guard found.origin != "built-in", let a = assetsDirectory else { return false }
    var st = stat()
    return stat(a + "/compositions/" + relative, &st) == 0
  }

  /// The warning for a shared module that hides a built-in composition.
  public static func hidingWarning(name: String, path: String) -> String {
    "'\(path)' hides the built-in composition '\(name)' (the first found wins: require('\(name)') loads this file; cs.\(name) stays the built-in; rename the file to keep both)"
  }

  /// The real folders a module found in `origin`'s folder may resolve into, besides the
  /// script's readable roots: the user's folder for a user's module, the built-ins' for a
  /// built-in; a module in the script's `compositions/` has only the readable roots.
  public func ownRoots(origin: String) -> [String] {
    switch origin {
    case "user": return userDirectory.flatMap(BindingContext.realPath).map { [$0] } ?? []
    case "built-in": return assetsDirectory.flatMap { BindingContext.realPath($0 + "/compositions") }.map { [$0] } ?? []
    default: return []
    }
  }

  /// Every composition found, by name (the first found wins, as in lookup).
  public func all() -> [(name: String, path: String, origin: String)] { SharedFolders.luaFiles(in: folders) }
}

/// Where shared Lua files (presets, compositions) are kept: the user's folder, and what a
/// list of folders holds.
public enum SharedFolders {
  /// `$XDG_CONFIG_HOME/chartscene/KIND`, else `~/.config/chartscene/KIND`.
  public static func user(_ kind: String) -> String? {
    if let x = getenv("XDG_CONFIG_HOME").map({ String(cString: $0) }), !x.isEmpty { return x + "/chartscene/" + kind }
    if let h = getenv("HOME").map({ String(cString: $0) }), !h.isEmpty { return h + "/.config/chartscene/" + kind }
    return nil
  }

  /// Every `NAME.lua` of the folders, by name, the first folder's winning.
  static func luaFiles(in folders: [(path: String, origin: String)]) -> [(name: String, path: String, origin: String)] {
    var out: [(String, String, String)] = []
    var seen = Set<String>()
    for (dir, origin) in folders {
      guard let d = opendir(dir) else { continue }
      var names: [String] = []
      while let e = readdir(d) {
        let name = withUnsafePointer(to: e.pointee.d_name) { String(cString: UnsafeRawPointer($0).assumingMemoryBound(to: CChar.self)) }
        if name.hasSuffix(".lua"), !name.hasPrefix(".") { names.append(String(name.dropLast(4))) }
      }
      closedir(d)
      for n in names.sorted() where seen.insert(n).inserted { out.append((n, dir + "/" + n + ".lua", origin)) }
    }
    return out
  }
}
