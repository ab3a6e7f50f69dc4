import ChartSceneLua
import Drawing
import Encoding
import Glibc
import Gestures
import LiveWindow
import Render
import RenderCairo
import SceneGraph
import Platform

/// Set by SIGINT/SIGTERM: the live loop stops cleanly (and writes its recording).
nonisolated(unsafe) var liveStopRequested: sig_atomic_t = 0

/// `--live`: the scene in a window at its fps. The pointer drives the same recognisers as
/// the timeline; saves reload the script, keeping the state and the playhead (the script is
/// run again and the user's gestures so far are replayed on it, so every view ends where the
/// user left it); a script error shows over the last good picture until the next good save.
public final class LiveLoop {
  let script: String
  var overrides: Session.Overrides
  let recordPath: String?
  var session: Session
  let window: LiveWindow
  /// The pointer's way into the session and the recording (shared with the studio).
  let liveInput = LiveInput()
  var painter: CairoPainter
  var running: Bool
  var errorLine: String?
  var themeOverride: String?

  public init(script: String, overrides: Session.Overrides, record: String?) throws(HostError) {
    self.script = script
    self.overrides = overrides
    self.recordPath = record
    session = try Session(scriptPath: script, overrides: overrides)
    // Checked now, not when the window closes and the gestures would be lost.
    if let record {
      try session.refuseInput(record)
      do { try AtomicOutput.checkTarget(record) } catch { throw HostError(error.description) }
    }
    do {
      window = try LiveWindow(title: "chartscene — \(script)", width: Int(session.scene.width), height: Int(session.scene.height))
    } catch {
      throw HostError(error.description)
    }
    painter = CairoPainter(text: session.text)
    running = true
  }

  public func run() throws(HostError) {
    signal(SIGINT) { _ in liveStopRequested = 1 }
    signal(SIGTERM) { _ in liveStopRequested = 1 }
    let watcher = FileWatcher()
    watcher.watch([script] + session.files)
    var nextTick = Self.now()
    try draw()
    loop: while liveStopRequested == 0 {
      let wait = max(0, Int32((nextTick - Self.now()) * 1000))
      for input in window.poll(timeoutMs: running ? min(wait, 50) : 50) {
        switch input {
        case .close: break loop
        case .resized(let w, let h):
          session.scene.width = w
          session.scene.height = h
          try draw()
        case .pointer(let phase, let q, let timestamp):
          liveInput.pointer(phase, q, timestamp: timestamp, to: session.simulation)
          if !running { try step() }
        case .key(let key):
          switch key {
          case .quit: break loop
          case .playPause: running.toggle(); nextTick = Self.now()
          case .stepForward: running = false; try step()
          case .stepBack: running = false; reload(to: max(0, session.simulation.tick - 1))
          case .home: reload(to: 0)
          case .reload: reload(to: session.simulation.tick)
          case .theme:
            themeOverride = session.scene.theme.name == "night" ? "day" : "night"
            session.scene.theme = themeOverride == "night" ? .night : .day
            try draw()
          case .save: save()
          case .inspect:
            // Flushed at once (every stream: Swift 6 refuses `stdout`): a program reading a pipe sees each state as it is asked for.
            if let json = try? session.inspect(at: session.simulation.clock.time(ofFrame: session.simulation.tick)) { print(json, terminator: ""); fflush(nil) }
          }
        }
      }
      if watcher.changed() {
        reload(to: session.simulation.tick)
        watcher.watch([script] + session.files)
      }
      if running && Self.now() >= nextTick {
        try step()
        nextTick += session.simulation.clock.dt
        if Self.now() - nextTick > 0.25 { nextTick = Self.now() }  // fell behind: do not race
      }
    }
    writeRecording()
  }

  /// Runs one tick and shows it.
  func step() throws(HostError) {
    do { try liveInput.step(session.simulation) } catch {
      errorLine = "error: " + error.message
      Session.printError(errorLine!)
      running = false
    }
    try draw()
  }

  func draw() throws(HostError) {
    let t = session.simulation.clock.time(ofFrame: max(0, session.simulation.tick))
    var list: DisplayList
    do {
      try session.layout(at: t)
      list = try DisplayListBuilder(measurer: session.text).build(session.scene, time: t)
    } catch {
      errorLine = "error: \(error)"
      return
    }
    if let errorLine { list.items += LiveLoop.overlay(errorLine, size: list.size) }
    do {
      window.show(try painter.raster(list, scale: window.pixelScale))
    } catch {
      throw HostError("cannot draw the window: \(error)")
    }
  }

  /// A red box at the bottom of the window with the error line.
  static func overlay(_ message: String, size: Size) -> [DisplayItem] {
    let box = Rect(8, max(8, size.height - 52), max(0, size.width - 16), 44)
    return [
      .path(.rect(box, radius: 8), .fill(Color(r: 0.75, g: 0.1, b: 0.1, a: 0.92))),
      .pushClip(.rect(box.inset(by: 10))),
      .text(TextRun(message, font: Font(size: 13, weight: .semibold), color: .white, origin: Point(box.x + 12, box.y + 13))),
      .popClip,
    ]
  }

  /// Runs the script again and replays the user's gestures on it up to `tick`.
  func reload(to tick: Int) {
    let start = Self.now()
    do {
      let (width, height) = (session.scene.width, session.scene.height)
      session = try liveInput.reload(script: script, overrides: overrides, theme: themeOverride, fps: session.simulation.clock.fps, to: tick, quiet: false,
                                     prepare: { $0.scene.width = width; $0.scene.height = height })
      painter = CairoPainter(text: session.text)
      errorLine = nil
      Session.printError("reloaded \(script) in \(Int(((Self.now() - start) * 1000).rounded())) ms")
    } catch {
      errorLine = "error: " + error.message
      Session.printError(errorLine!)
    }
    try? draw()
  }

  func save() {
    let base = Paths.fileExtension(of: script) == "lua" ? Paths.removingExtension(script) : script
    let path = base + "-\(max(0, session.simulation.tick)).png"
    do {
      let t = session.simulation.clock.time(ofFrame: max(0, session.simulation.tick))
      try RenderJob(output: path, time: t, scale: 1).run(session)
      Session.printError("saved \(path)")
    } catch {
      Session.printError("error: \(error.message)")
    }
  }

  func writeRecording() {
    guard let recordPath else { return }
    do {
      try AtomicOutput.write(Array(liveInput.recording(script: script, fps: session.simulation.clock.fps).utf8), to: recordPath)
      Session.printError("recorded \(liveInput.recorder.lines.count) gestures to \(recordPath)")
    } catch {
      Session.printError("error: \(error.description)")
    }
  }

  static func now() -> Double { Clock.monotonic() }
}
