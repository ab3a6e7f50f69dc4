import Encoding
import Glibc
import Platform

/// `-o -`: the output goes to standard output. It is rendered the usual way into a temporary
/// file in `$TMPDIR` (every format, MP4 too, which ffmpeg must be able to seek in), then copied
/// to standard output, and the file removed (also on Ctrl-C: it is registered like every
/// temporary output).
public enum StandardOutput {
  /// The formats `--format` names.
  public static let formats = ["png", "svg", "pdf", "gif", "webp", "apng", "mp4", "webm"]

  /// Calls `render` with a temporary path ending in `.FORMAT`, then copies that file to
  /// standard output.
  public static func write(format: String, _ render: (String) throws(HostError) -> Void) throws(HostError) {
    if isatty(1) != 0 { throw HostError("-o - writes the \(format.uppercased()) to standard output, which is a terminal (redirect it: > out.\(format), or | another program)") }
    var dir = getenv("TMPDIR").map { String(cString: $0) } ?? "/tmp"
    if dir.isEmpty { dir = "/tmp" }
    var template = Array("\(dir)/.chartscene-stdout-XXXXXX".utf8CString)
    guard let fd = TempFiles.create(&template) else { throw HostError("cannot write to standard output: no temporary file in '\(dir)': \(String(cString: strerror(errno)))") }
    close(fd)
    let base = String(cString: template.map { UInt8(bitPattern: $0) })
    let path = base + "." + format
    TempFiles.register(path)
    defer {
      unlink(path); TempFiles.unregister(path)
      unlink(base); TempFiles.unregister(base)
    }
    try render(path)
    try copy(path)
  }

  static func copy(_ path: String) throws(HostError) {
    let fd = open(path, O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else { throw HostError("cannot write to standard output: \(String(cString: strerror(errno)))") }
    defer { close(fd) }
    var chunk = [UInt8](repeating: 0, count: 1 << 16)
    while true {
      let n = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress!, $0.count) }
      if n < 0 { if errno == EINTR { continue }; throw HostError("cannot write to standard output: \(String(cString: strerror(errno)))") }
      if n == 0 { return }
      let rc = chunk.withUnsafeBytes { writeAll(1, UnsafeRawBufferPointer(rebasing: $0[0..<n])) }
      if rc != 0 { throw HostError("cannot write to standard output: \(String(cString: strerror(rc)))") }
    }
  }
}
