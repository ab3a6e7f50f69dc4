import ChartSceneHost
import Glibc
import Platform

/// `--watch`: renders, then re-renders on every save of the script, the modules it requires,
/// its data files and its presets. A broken save prints its error and keeps the last good
/// output; the next good save recovers.
struct WatchLoop {
  let script: String
  /// Loads the script and renders; tells the files it depends on (known even on failure).
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
    let watcher = FileWatcher()
    var warned = false
    while true {
      let unwatched = watcher.watch([script] + log.paths)
      if unwatched > 0 && !warned {
        warned = true
        Session.printError("warning: \(script) read files in more than \(FileWatcher.maximumFolders) folders: \(unwatched) of them are not watched")
      }
      while !watcher.changed(timeoutMs: 1000) {}
      attempt(false)
    }
  }

  static func now() -> Double { Clock.monotonic() }
}
