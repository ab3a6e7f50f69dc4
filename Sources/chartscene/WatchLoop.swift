import ChartSceneHost
import ChartSceneLua
import Glibc

/// `--watch`: renders, then re-renders on every save of the script, the modules it requires,
/// its data files and its presets. Uses inotify on the files' folders, so editors that save
/// by writing a new file and renaming it are seen too; a burst of events (an editor's save)
/// makes one reload. A broken save prints its error and keeps the last good output.
struct WatchLoop {
  let script: String
  /// Loads the script and renders; returns the files it depends on (known even on failure).
  let render: (_ files: @escaping (FileLog) -> Void) throws -> Void

  func run() -> Never {
    var log = FileLog()
    func attempt(_ first: Bool) {
      let start = WatchLoop.now()
      do {
        try render { log = $0 }
        let ms = Int(((WatchLoop.now() - start) * 1000).rounded())
        Session.printError(first ? "watching \(script) (Ctrl-C stops)" : "reloaded \(script) in \(ms) ms")
      } catch let e as HostError {
        Session.printError("error: \(e.message)")
      } catch {
        Session.printError("error: \(error)")
      }
    }
    attempt(true)
    let fd = inotify_init1(Int32(IN_CLOEXEC))
    guard fd >= 0 else {
      Session.printError("error: cannot watch files (inotify: \(String(cString: strerror(errno))))")
      exit(1)
    }
    var watched: [Int32: String] = [:]  // watch descriptor → folder
    while true {
      let files = Set(([script] + log.paths).map(WatchLoop.absolute))
      let folders = Set(files.map(WatchLoop.folder))
      for folder in folders where !watched.values.contains(folder) {
        let mask = UInt32(IN_CLOSE_WRITE | IN_MOVED_TO | IN_CREATE | IN_DELETE | IN_ATTRIB)
        let wd = inotify_add_watch(fd, folder, mask)
        if wd >= 0 { watched[wd] = folder }
      }
      // Wait for a change to one of the files, then let the burst settle.
      var changed = false
      while !changed {
        changed = WatchLoop.drain(fd, watched: watched, files: files, timeoutMs: -1)
      }
      while WatchLoop.drain(fd, watched: watched, files: files, timeoutMs: 25) {}
      attempt(false)
    }
  }

  /// Reads pending events (waiting up to `timeoutMs`, -1 forever); true when one names a
  /// watched file.
  static func drain(_ fd: Int32, watched: [Int32: String], files: Set<String>, timeoutMs: Int32) -> Bool {
    var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
    guard poll(&p, 1, timeoutMs) > 0 else { return false }
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
      if len > 0, let folder = watched[wd] {
        let nameBytes = buf[(off + header)..<(off + header + len)].prefix { $0 != 0 }
        let name = String(decoding: nameBytes, as: UTF8.self)
        if files.contains(folder + "/" + name) { hit = true }
      }
      off += header + len
    }
    return hit
  }

  static func absolute(_ path: String) -> String {
    if path.hasPrefix("/") { return normalized(path) }
    var buf = [CChar](repeating: 0, count: 4096)
    guard getcwd(&buf, buf.count) != nil else { return path }
    return normalized(String(cString: buf) + "/" + path)
  }

  /// Removes "." and ".." parts.
  static func normalized(_ path: String) -> String {
    var parts: [Substring] = []
    for p in path.split(separator: "/") {
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

  static func now() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
  }
}
