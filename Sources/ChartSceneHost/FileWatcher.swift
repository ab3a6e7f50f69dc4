import Glibc

/// Watches files through inotify on their folders (editors that save by renaming are seen).
public final class FileWatcher {
  let fd: Int32
  var folders: [Int32: String] = [:]
  var files: Set<String> = []

  public init() { fd = inotify_init1(Int32(IN_CLOEXEC | IN_NONBLOCK)) }
  deinit { if fd >= 0 { close(fd) } }

  public func watch(_ paths: [String]) {
    files = Set(paths.map(FileWatcher.absolute))
    for folder in Set(files.map(FileWatcher.folder)) where !folders.values.contains(folder) {
      let wd = inotify_add_watch(fd, folder, UInt32(IN_CLOSE_WRITE | IN_MOVED_TO | IN_CREATE | IN_DELETE | IN_ATTRIB))
      if wd >= 0 { folders[wd] = folder }
    }
  }

  /// True when a watched file changed (waits `timeoutMs`; 0 does not wait); a burst of
  /// events counts once.
  public func changed(timeoutMs: Int32 = 0) -> Bool {
    guard drain(timeoutMs) else { return false }
    while drain(25) {}
    return true
  }

  func drain(_ timeoutMs: Int32) -> Bool {
    var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
    guard fd >= 0, poll(&p, 1, timeoutMs) > 0 else { return false }
    var buf = [UInt8](repeating: 0, count: 64 * 1024)
    let n = buf.withUnsafeMutableBytes { read(fd, $0.baseAddress!, $0.count) }
    guard n > 0 else { return false }
    var hit = false
    var off = 0
    let header = MemoryLayout<inotify_event>.size
    while off + header <= n {
      let (wd, len) = buf.withUnsafeBytes { raw -> (Int32, Int) in
        let e = raw.loadUnaligned(fromByteOffset: off, as: inotify_event.self)
        return (e.wd, Int(e.len))
      }
      if len > 0, let folder = folders[wd] {
        let name = String(decoding: buf[(off + header)..<(off + header + len)].prefix { $0 != 0 }, as: UTF8.self)
        if files.contains(folder + "/" + name) { hit = true }
      }
      off += header + len
    }
    return hit
  }

  static func absolute(_ path: String) -> String {
    var full = path
    if !path.hasPrefix("/") {
      var buf = [CChar](repeating: 0, count: 4096)
      if getcwd(&buf, buf.count) != nil { full = String(cString: buf) + "/" + path }
    }
    var parts: [Substring] = []
    for p in full.split(separator: "/") {
      if p == "." || p.isEmpty { continue }
      if p == ".." { _ = parts.popLast(); continue }
      parts.append(p)
    }
    return "/" + parts.joined(separator: "/")
  }

  static func folder(_ path: String) -> String {
    guard let slash = path.lastIndex(of: "/") else { return "." }
    let f = String(path[..<slash])
    return f.isEmpty ? "/" : f
  }
}
