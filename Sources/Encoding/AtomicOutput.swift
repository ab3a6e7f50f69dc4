import Glibc
import Platform

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
    let dir = Paths.directory(of: path)
    var st = stat()
    if stat(dir, &st) != 0 { throw WriteError(path: path, reason: "the folder '\(dir)' does not exist") }
    if (st.st_mode & S_IFMT) != S_IFDIR { throw WriteError(path: path, reason: "'\(dir)' is not a folder") }
    if stat(path, &st) == 0, (st.st_mode & S_IFMT) == S_IFDIR { throw WriteError(path: path, reason: "it is a folder") }
  }

  public static func write(_ bytes: [UInt8], to path: String) throws(WriteError) {
    try checkTarget(path)
    let (tmp, fd): (String, Int32)
    switch TempFiles.beside(path) {
    case .success(let made): (tmp, fd) = made
    case .failure(let e): throw WriteError(path: path, reason: e.reason)
    }
    var failure: String? = nil
    let rc = bytes.withUnsafeBytes { writeAll(fd, $0) }
    if rc != 0 { failure = String(cString: strerror(rc)) }
    if close(fd) != 0, failure == nil { failure = errorText() }
    if failure == nil { failure = TempFiles.commit(tmp, to: path) } else { TempFiles.discard(tmp) }
    if let failure { throw WriteError(path: path, reason: failure) }
  }

  static func errorText() -> String { String(cString: strerror(errno)) }
}

