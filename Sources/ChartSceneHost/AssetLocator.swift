import Glibc

/// Finds the `assets/` folder (fonts, sample data): `$CHARTSCENE_ASSETS`, else the
/// executable's `../share/chartscene/assets`, else the nearest `assets/` above the
/// executable (a build inside the repository).
public enum AssetLocator {
  public static func assetsDirectory() -> String? {
    if let env = getenv("CHARTSCENE_ASSETS").map({ String(cString: $0) }), !env.isEmpty { return env }
    guard let exe = executablePath() else { return nil }
    var dir = parent(exe)
    let share = parent(dir) + "/share/chartscene/assets"
    if isFile(share + "/fonts/Inter-Regular.otf") { return share }
    for _ in 0..<8 {
      let candidate = dir + "/assets"
      if isFile(candidate + "/fonts/Inter-Regular.otf") { return candidate }
      let up = parent(dir)
      if up == dir { break }
      dir = up
    }
    return nil
  }

  static func executablePath() -> String? {
    var buf = [CChar](repeating: 0, count: 4096)
    let n = readlink("/proc/self/exe", &buf, buf.count - 1)
    guard n > 0 else { return nil }
    return String(decoding: buf[0..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
  }

  static func parent(_ path: String) -> String {
    guard let slash = path.lastIndex(of: "/") else { return "." }
    let p = String(path[..<slash])
    return p.isEmpty ? "/" : p
  }

  static func isFile(_ path: String) -> Bool {
    var st = stat()
    return stat(path, &st) == 0 && (st.st_mode & S_IFMT) == S_IFREG
  }

  /// The canonical path of an existing file, for comparing two names of one file.
  static func realPath(_ path: String) -> String? {
    guard let p = realpath(path, nil) else { return nil }
    defer { free(p) }
    return String(cString: p)
  }
}
