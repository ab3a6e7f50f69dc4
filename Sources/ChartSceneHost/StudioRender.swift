import Dispatch
import Platform
import SceneGraph

/// The studio's render button: one render at a time, in the background (its own session on
/// its own thread, as a headless `chartscene SCRIPT -o OUT` makes it), with its progress.
final class StudioRender: @unchecked Sendable {
  struct Job: Sendable {
    var script: String
    var overrides: Session.Overrides
    var path: String
    var name: String
    /// The time of a PNG's frame (the one shown).
    var at: Double
    var outputs: PosixLocked<Set<String>>
  }

  struct Status {
    var name: String?
    var done = 0
    var total = 0
    var running = false
    var finished: String?
    var error: String?
    var seconds = 0.0
    /// Messages for the pages (finished, failed), taken by `poll`.
    var messages: [String] = []
    var changed = false
  }

  let status = PosixLocked(Status())

  /// Starts `job`, or says why not (one is running).
  func start(_ job: Job) -> String? {
    let busy: String? = status.withLock { s in
      if s.running, let name = s.name {
        let pct = s.total > 0 ? " (\(100 * s.done / s.total) %)" : ""
        return "a render is already running (\(name)\(pct)): wait for it to finish"
      }
      s = Status(name: job.name, running: true, changed: true)
      return nil
    }
    if let busy { return busy }
    Session.printError("rendering \(job.path)")
    DispatchQueue.global().async { [self] in
      let start = Clock.monotonic()
      do throws(HostError) {
        let session = try Session(scriptPath: job.script, overrides: job.overrides, quiet: true)
        var request = OutputRequest(output: job.path)
        if !RenderJob.isAnimated(job.path) { request.at = job.at }
        request.quiet = true
        request.onFrame = { done, total in self.status.withLock { $0.done = done; $0.total = total; $0.changed = true } }
        try request.write(session)
        job.outputs.withLock { _ = $0.insert(job.name) }
        let seconds = Clock.monotonic() - start
        Session.printError("wrote \(job.path) in \(Int((seconds * 10).rounded()) / 10).\(Int((seconds * 10).rounded()) % 10) s")
        status.withLock { s in
          s.running = false; s.finished = job.name; s.seconds = seconds; s.changed = true
          s.messages.append(OrderedJSON.object([("type", .string("rendered")), ("name", .string(job.name)), ("seconds", .number(seconds))]).render(pretty: false))
        }
      } catch {
        Session.printError("error: " + error.message)
        status.withLock { s in
          s.running = false; s.error = error.message; s.changed = true
          s.messages.append(OrderedJSON.object([("type", .string("message")), ("error", .string(error.message))]).render(pretty: false))
        }
      }
    }
    return nil
  }

  /// Messages for every page since the last call.
  func poll() -> [String] { status.withLock { s in defer { s.messages.removeAll() }; return s.messages } }

  /// True once after the status changed.
  func changed() -> Bool { status.withLock { s in defer { s.changed = false }; return s.changed } }

  var stateJSON: OrderedJSON {
    let s = status.withLock { $0 }
    return .object([
      ("running", .bool(s.running)),
      ("name", s.name.map { .string($0) } ?? .null),
      ("done", .number(Double(s.done))),
      ("total", .number(Double(s.total))),
      ("finished", s.finished.map { .string($0) } ?? .null),
      ("error", s.error.map { .string($0) } ?? .null),
    ])
  }
}
