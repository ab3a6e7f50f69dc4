import Glibc
import Synchronization

/// Reads a whole file.
public enum FileReader {
  public struct ReadError: Error, CustomStringConvertible {
    public var path: String
    public var reason: String
    public var description: String { "cannot read '\(path)': \(reason)" }
  }

  /// Reads `path`; refuses files over `limit` bytes and anything but a regular file (a
  /// FIFO or a device could block or never end).
  /// `"-"` is standard input (see `standardInputData`).
  public static func read(_ path: String, limit: Int = 512 << 20) throws(ReadError) -> [UInt8] {
    if path == "-" { return try standardInputData(limit: limit) }
    try refuseNUL(path)
    let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
    if fd < 0 { throw ReadError(path: path, reason: errno == ENOENT ? "no such file" : errorText()) }
    defer { close(fd) }
    var st = stat()
    guard fstat(fd, &st) == 0 else { throw ReadError(path: path, reason: errorText()) }
    if (st.st_mode & S_IFMT) == S_IFDIR { throw ReadError(path: path, reason: "it is a folder") }
    if (st.st_mode & S_IFMT) != S_IFREG { throw ReadError(path: path, reason: "it is not a regular file") }
    if st.st_size > limit { throw ReadError(path: path, reason: "the file is larger than \(limit >> 20) MiB") }
    var out: [UInt8] = []
    out.reserveCapacity(Int(st.st_size))
    var chunk = [UInt8](repeating: 0, count: 1 << 16)
    while true {
      let n = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress!, $0.count) }
      if n < 0 {
        if errno == EINTR { continue }
        throw ReadError(path: path, reason: errorText())
      }
      if n == 0 { break }
      out.append(contentsOf: chunk[0..<n])
      if out.count > limit { throw ReadError(path: path, reason: "the file is larger than \(limit >> 20) MiB") }
    }
    return out
  }

  /// Opens `path` for reading when it is a regular file; returns the descriptor (the caller
  /// closes it) and the size.
  public static func openRegular(_ path: String) throws(ReadError) -> (Int32, Int) {
    try refuseNUL(path)
    let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
    if fd < 0 { throw ReadError(path: path, reason: errno == ENOENT ? "no such file" : errorText()) }
    var st = stat()
    guard fstat(fd, &st) == 0 else { let e = ReadError(path: path, reason: errorText()); close(fd); throw e }
    if (st.st_mode & S_IFMT) == S_IFDIR { close(fd); throw ReadError(path: path, reason: "it is a folder") }
    if (st.st_mode & S_IFMT) != S_IFREG { close(fd); throw ReadError(path: path, reason: "it is not a regular file") }
    return (fd, Int(st.st_size))
  }

  static func errorText() -> String { String(cString: strerror(errno)) }

  /// `path` with each NUL shown as `\0`: the C library would cut the name there (and open
  /// another file), and so would a message passed through Lua.
  public static func shownPath(_ path: String) -> String { path.replacing("\0", with: "\\0") }

  /// A name with a NUL cannot be a file's: refused, not cut at the NUL (`"a\0.csv"` read `a`).
  public static func refuseNUL(_ path: String) throws(ReadError) {
    guard path.utf8.contains(0) else { return }
    throw ReadError(path: shownPath(path), reason: "a file name cannot hold a NUL character")
  }
}

extension FileReader {
  /// What standard input was used for: nothing yet, the script (`chartscene -`), or data
  /// (`cs.data.csv("-")`), read once for the whole process and kept, so a script that reads
  /// "-" twice, or reloads under --watch, gets the same bytes.
  enum StandardInput: Sendable { case unread, script, data([UInt8]) }
  static let standardInput = Mutex<StandardInput>(.unread)

  /// The data piped into standard input, read to its end the first time (past `limit`
  /// bytes it is refused, like a file). Refused when the script came from it.
  public static func standardInputData(limit: Int) throws(ReadError) -> [UInt8] {
    let result: Result<[UInt8], ReadError> = standardInput.withLock { state in
      switch state {
      case .script: return .failure(ReadError(path: "-", reason: "standard input holds the script (chartscene -): data cannot come from it too"))
      case .data(let bytes): return .success(bytes)
      case .unread:
        do throws(ReadError) {
          let bytes = try readStandardInput(limit: limit)
          state = .data(bytes)
          return .success(bytes)
        } catch { return .failure(error) }
      }
    }
    let bytes = try result.get()
    if bytes.count > limit { throw ReadError(path: "-", reason: "standard input holds more than \(limit >> 20) MiB") }
    return bytes
  }

  /// Reads the script from standard input (`chartscene -`); data cannot come from it then.
  public static func standardInputScript(limit: Int) throws(ReadError) -> [UInt8] {
    let bytes = try readStandardInput(limit: limit)
    standardInput.withLock { $0 = .script }
    return bytes
  }

  /// Reads standard input to its end (`chartscene -`): refused when it is a terminal (nothing
  /// would come until the user typed it) and past `limit` bytes, like a file.
  static func readStandardInput(limit: Int) throws(ReadError) -> [UInt8] {
    if isatty(0) != 0 { throw ReadError(path: "-", reason: "standard input is a terminal (pipe a script or a file into it)") }
    var out: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 1 << 16)
    while true {
      let n = chunk.withUnsafeMutableBytes { Glibc.read(0, $0.baseAddress!, $0.count) }
      if n < 0 {
        if errno == EINTR { continue }
        throw ReadError(path: "-", reason: errorText())
      }
      if n == 0 { break }
      out.append(contentsOf: chunk[0..<n])
      if out.count > limit { throw ReadError(path: "-", reason: "standard input holds more than \(limit >> 20) MiB") }
    }
    return out
  }
}
