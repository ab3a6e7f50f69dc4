import Glibc
import Platform

/// Watches files through inotify on their folders (editors that save by renaming are seen).
public final class FileWatcher {
  let fd: Int32
  var folders: [Int32: String] = [:]
  var files: Set<String> = []

  public init() { fd = inotify_init1(Int32(IN_CLOEXEC | IN_NONBLOCK)) }
  deinit { if fd >= 0 { close(fd) } }

  /// The most folders watched at once (each is an inotify watch, a kernel resource the
  /// user's other programs share: 8,192 by default on many systems).
  public static let maximumFolders = 256

  /// Watches `paths` (the script, what it read, what it tried to read) and nothing else:
  /// folders of an earlier load that this one no longer needs are released. Returns how
  /// many files are left unwatched because their folders are past `maximumFolders`.
  @discardableResult
  public func watch(_ paths: [String]) -> Int {
    let wanted = paths.map(FileWatcher.absolute)
    // In the order the files were read: the script and its first files come first.
    var order: [String] = []
    var seen = Set<String>()
    for f in wanted where seen.insert(Paths.directory(of: f)).inserted { order.append(Paths.directory(of: f)) }
    let kept = Set(order.prefix(FileWatcher.maximumFolders))
    for (wd, folder) in folders where !kept.contains(folder) {
      inotify_rm_watch(fd, wd)
      folders[wd] = nil
    }
    for folder in order.prefix(FileWatcher.maximumFolders) where !folders.values.contains(folder) {
      let wd = inotify_add_watch(fd, folder, UInt32(IN_CLOSE_WRITE | IN_MOVED_TO | IN_CREATE | IN_DELETE | IN_ATTRIB))
      if wd >= 0 { folders[wd] = folder }
    }
    files = Set(wanted.filter { kept.contains(Paths.directory(of: $0)) })
    return wanted.count - files.count
  }

  /// Folders watched now.
  public var watchedFolders: Int { folders.count }

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
      if getcwd(&buf, buf.count) != nil { full = String(decoding: buf.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self) + "/" + path }
    }
    var parts: [Substring] = []
    for p in full.split(separator: "/") {
      if p == "." || p.isEmpty { continue }
      if p == ".." { _ = parts.popLast(); continue }
      parts.append(p)
    }
    return "/" + parts.joined(separator: "/")
  }
}
