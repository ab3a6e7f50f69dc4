/// Path arithmetic on plain strings (no Foundation), the one place for it.
public enum Paths {
  /// The folder a path is in: "." for a bare name, "/" for a file at the root.
  public static func directory(of path: String) -> String {
    guard let slash = path.lastIndex(of: "/") else { return "." }
    let d = String(path[..<slash])
    return d.isEmpty ? "/" : d
  }

  /// The last component: "b.lua" for "a/b.lua".
  public static func fileName(of path: String) -> String {
    guard let slash = path.lastIndex(of: "/") else { return path }
    return String(path[path.index(after: slash)...])
  }

  /// The file name's extension in lower case, without the dot ("png" for "a/B.PNG"); "" when
  /// the name has none (a leading dot, as in ".hidden", starts no extension).
  public static func fileExtension(of path: String) -> String {
    let name = fileName(of: path)
    guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return "" }
    return name[name.index(after: dot)...].lowercased()
  }

  /// The path without its file name's extension ("a/b" for "a/b.lua").
  public static func removingExtension(_ path: String) -> String {
    let ext = fileExtension(of: path)
    return ext.isEmpty ? path : String(path.dropLast(ext.count + 1))
  }
}
