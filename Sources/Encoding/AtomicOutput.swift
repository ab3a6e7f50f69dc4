import Glibc

/// Writes output files so that a reader never sees half a file: the bytes go to a
/// temporary file in the same folder, which is renamed over the target only when complete.
/// On any failure the temporary file is removed and an earlier file is left untouched.
public enum AtomicOutput {
  public struct WriteError: Error, CustomStringConvertible {
    public var path: String
    public var reason: String
    public var description: String { "cannot write '\(path)': \(reason)" }
    public init(path: String, reason: String) { self.path = path; self.reason = reason }
  }

  /// An error when `path` cannot be an output: its folder is missing, or it is a folder.
  public static func checkTarget(_ path: String) throws(WriteError) {
    let dir = directory(of: path)
    var st = stat()
    if stat(dir, &st) != 0 { throw WriteError(path: path, reason: "the folder '\(dir)' does not exist") }
    if (st.st_mode & S_IFMT) != S_IFDIR { throw WriteError(path: path, reason: "'\(dir)' is not a folder") }
    if stat(path, &st) == 0, (st.st_mode & S_IFMT) == S_IFDIR { throw WriteError(path: path, reason: "it is a folder") }
  }

  public static func write(_ bytes: [UInt8], to path: String) throws(WriteError) {
    try checkTarget(path)
    let dir = directory(of: path)
    var template = Array((dir + "/.chartscene-XXXXXX").utf8CString)
    guard let fd = TempFiles.create(&template) else { throw WriteError(path: path, reason: errorText()) }
    let tmp = String(cString: template.map { UInt8(bitPattern: $0) })
    defer { TempFiles.unregister(tmp) }
    var failure: String? = nil
    bytes.withUnsafeBytes { raw in
      var off = 0
      while off < raw.count {
        let n = Glibc.write(fd, raw.baseAddress! + off, raw.count - off)
        if n < 0 {
          if errno == EINTR { continue }
          failure = errorText()
          return
        }
        off += n
      }
    }
    if failure == nil, fchmod(fd, 0o644) != 0 { failure = errorText() }
    if close(fd) != 0, failure == nil { failure = errorText() }
    if failure == nil, TempFiles.rename(tmp, path) != 0 { failure = errorText() }
    if let failure {
      unlink(tmp)
      throw WriteError(path: path, reason: failure)
    }
  }

  static func directory(of path: String) -> String {
    guard let slash = path.lastIndex(of: "/") else { return "." }
    let d = String(path[..<slash])
    return d.isEmpty ? "/" : d
  }

  static func errorText() -> String { String(cString: strerror(errno)) }
}

