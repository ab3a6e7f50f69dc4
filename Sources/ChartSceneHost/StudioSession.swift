import ChartModel
import Dispatch
import Drawing
import Encoding
import Gestures
import Glibc
import Platform
import RenderCairo
import SceneGraph

/// `chartscene serve`'s scene: what `--live` does, without a window. One thread (the one
/// that calls `run`) owns the session — its Lua state, its text system, its clock — as
/// LiveLoop's does: pages send their messages (JSON text) through `receive`, and get back
/// frames (PNG, drawn as `-o` draws them) and state messages through the callbacks they
/// connected with. Several pages may watch one session.
///
/// The same pieces as `--live`: `Session` and its `Simulation` (the clock, the timeline, the
/// recognisers), `Recorder` (the gestures, replayed on reload and written by the record
/// button), `FileWatcher` (reload on save), `RenderJob`/`OutputRequest` (the render button).
public final class StudioSession: @unchecked Sendable {
  /// What the command line gave: the script, its overrides, where outputs go, and the words
  /// of the options a headless render needs to make the same scene (for "copy command").
  public struct Options: Sendable {
    public var script: String
    public var overrides: Session.Overrides
    public var outFolder: String
    public var commandWords: [String]
    public init(script: String, overrides: Session.Overrides, outFolder: String, commandWords: [String]) {
      self.script = script; self.overrides = overrides; self.outFolder = outFolder; self.commandWords = commandWords
    }
  }

  /// A connected page: where its frames and its text messages go.
  public struct Client: Sendable {
    public var frame: @Sendable ([UInt8]) -> Void
    public var text: @Sendable (String) -> Void
    public init(frame: @escaping @Sendable ([UInt8]) -> Void, text: @escaping @Sendable (String) -> Void) {
      self.frame = frame; self.text = text
    }
  }

  public let options: Options
  let inbox = PosixLocked<[(Int, String)]>([])
  let wake = DispatchSemaphore(value: 0)
  let clients = PosixLocked<[Int: Client]>([:])
  /// The last frame sent (for a page that connects later).
  let lastFrame = PosixLocked<[UInt8]?>(nil)
  let lastState = PosixLocked<String?>(nil)
  let render = StudioRender()
  /// Outputs written by the render button and the record button (file names in the out folder).
  public let outputs = PosixLocked<Set<String>>([])

  // Owned by the engine thread.
  var overrides: Session.Overrides
  var session: Session?
  /// The page's pointer events on their way to the session (with the page's own times, on
  /// which the hand's speed is measured, as `--live`'s), the recorder and the length seen.
  var input = LiveInput()
  var recording = false
  var recordPath: String?
  var playing = false
  var speed = 1.0
  var loop: (Int, Int)?
  var playStart = 0
  var scale = 1.0
  var themeOverride: String?
  var errorLine: String?
  var shownTime: Double?
  var nextTick = 0.0
  var dirty = true
  var stateDirty = true
  /// Paints and compresses the frames on two workers while this thread runs the scene.
  lazy var frames = FramePipeline(deliver: { [clients, lastFrame] bytes, header in
    let all = clients.withLock { Array($0.values) }
    if let bytes {
      lastFrame.withLock { $0 = bytes }
      for c in all { c.frame(bytes) }
    } else {
      for c in all { c.text(header) }
    }
  }, finished: { [wake] in wake.signal() })
  let watcher = FileWatcher()
  /// Sessions of this scene at ticks behind or ahead of the one shown, made with the same
  /// script, gestures and options, for seeking back (`rewind`); emptied when any of those
  /// changes.
  var pool: [Session] = []
  var pendingMessages: [(Int?, String)] = []

  public init(options: Options) {
    self.options = options
    overrides = options.overrides
  }

  // MARK: - From any thread

  /// A page connected: it gets the state and the last frame at once.
  public func connect(_ id: Int, _ client: Client) {
    clients.withLock { $0[id] = client }
    if let s = lastState.withLock({ $0 }) { client.text(s) }
    if let f = lastFrame.withLock({ $0 }) { client.frame(f) }
  }

  public func disconnect(_ id: Int) { clients.withLock { $0[id] = nil } }

  /// A message from page `id` (handled on the engine thread, in order).
  public func receive(_ text: String, from id: Int) {
    inbox.withLock { $0.append((id, text)) }
    wake.signal()
  }

  /// True when the page may download `name` (an output this server wrote).
  public func isOutput(_ name: String) -> Bool { outputs.withLock { $0.contains(name) } }

  // MARK: - The engine thread

  /// Loads the script (an error is kept and shown, the server still runs) and runs the clock,
  /// the messages and the reloads until the process ends.
  public func run() -> Never {
    reload(to: 0, quietly: false, first: true)
    nextTick = Clock.monotonic()
    while true {
      let wait = playing ? max(0, nextTick - Clock.monotonic()) : 0.05
      _ = wake.wait(timeout: .now() + .milliseconds(Int(min(wait, 0.05) * 1000)))
      let batch = inbox.withLock { q -> [(Int, String)] in defer { q.removeAll() }; return q }
      let messages = batch.map { (id, text) in (id, Result { () throws(StudioMessage.Bad) in try StudioMessage(text) }) }
      for (k, (id, message)) in messages.enumerated() {
        // A scrubber dragged faster than frames are made: only the last of a run of seeks.
        if case .success(.seek) = message, k + 1 < messages.count, case .success(.seek) = messages[k + 1].1 { continue }
        switch message {
        case .success(let m): handle(m, from: id)
        case .failure(let e): reply(id, error: "bad message from the page: \(e.message)")
        }
      }
      if watcher.changed() {
        reload(to: tick, quietly: false)
      }
      if playing, Clock.monotonic() >= nextTick {
        // Due ticks run; one frame shows the last (a slow frame skips pictures, not time).
        var due = 0
        while playing, Clock.monotonic() >= nextTick, due < 8 {
          stepPlaying()
          nextTick += dt / speed
          due += 1
        }
        if Clock.monotonic() - nextTick > 0.25 { nextTick = Clock.monotonic() }
      }
      render.poll().forEach { broadcast(text: $0) }
      if render.changed() { stateDirty = true }
      flush()
    }
  }

  var tick: Int { max(0, session?.simulation.tick ?? 0) }
  var dt: Double { session?.simulation.clock.dt ?? 1.0 / 60 }
  var frameCount: Int { session?.simulation.clock.frameCount ?? 1 }
  var animated: Bool { (session?.scene.duration ?? 0) > 0 }

  /// One tick while playing: at the end of the loop range (or of the scene), back to its start.
  func stepPlaying() {
    let end = loop?.1 ?? (frameCount - 1)
    if animated && tick >= end {
      rewind(to: loop?.0 ?? 0)
      return
    }
    step()
  }

  /// Runs one tick.
  func step() {
    guard let session else { return }
    do { try input.step(session.simulation) } catch {
      fail(error.message)
      playing = false
    }
    shownTime = nil
    dirty = true
  }

  func fail(_ message: String) {
    errorLine = "error: " + message
    Session.printError(errorLine!)
    stateDirty = true
  }

  /// Runs the script again (fresh Lua state) and replays the gestures on it up to `tick`,
  /// as `--live` does on a save: the state and the playhead are kept.
  func reload(to target: Int, quietly: Bool, first: Bool = false) {
    let start = Clock.monotonic()
    pool.removeAll()
    var log: FileLog?
    do {
      let fresh = try input.reload(script: options.script, overrides: overrides, theme: themeOverride, fps: session?.simulation.clock.fps ?? 30,
                                   to: target, quiet: !first, files: { log = $0 })
      session = fresh
      let wasError = errorLine != nil
      errorLine = nil
      if !quietly || wasError {
        Session.printError(first ? "serving \(options.script)" : "reloaded \(options.script) in \(Int(((Clock.monotonic() - start) * 1000).rounded())) ms")
      }
      dirty = true
    } catch {
      // The last good frame stays as it is, under the error.
      fail(error.message)
    }
    // What it read, also when it failed (a module with the error is watched too).
    watcher.watch([options.script] + (log?.paths ?? session?.files ?? []))
    shownTime = nil
    stateDirty = true
  }

  /// Back to tick `k` with the same script, gestures and options: from the session kept
  /// nearest before `k` (the sessions a seek back left behind, at the ticks they had
  /// reached), else from the script run again from 0. The session left behind is kept in
  /// turn, so scrubbing back and forth runs each stretch of ticks about once.
  func rewind(to k: Int) {
    guard errorLine == nil, let current = session else { reload(to: k, quietly: true); return }
    if current.simulation.tick <= k {
      do { try current.simulation.advance(to: k); input.shown(current.simulation) } catch { fail(error.message) }
      shownTime = nil
      dirty = true
      stateDirty = true
      return
    }
    // Kept sessions fit while the recording's length has not outgrown their duration (the
    // length makes the duration of a fresh session, when longer than the script's own).
    let length = input.reached + 1 / current.simulation.clock.fps
    pool.removeAll { length > $0.scene.duration + 1e-9 }
    var kept = pool
    kept.append(current)
    if kept.count > StudioSession.keptSessions { kept.removeFirst(kept.count - StudioSession.keptSessions) }
    if let i = pool.indices.filter({ pool[$0].simulation.tick <= k }).max(by: { pool[$0].simulation.tick < pool[$1].simulation.tick }) {
      let from = pool[i]
      kept.removeAll { $0 === from }
      do {
        try from.simulation.advance(to: k)
        input.shown(from.simulation)
        session = from
        pool = kept
        shownTime = nil
        dirty = true
        stateDirty = true
        return
      } catch {
        // As from 0 (where the error shows as a reload's).
      }
    }
    reload(to: k, quietly: true)
    if errorLine == nil { pool = kept.filter { $0 !== session } }
  }

  /// How many sessions `rewind` keeps (each a Lua state and a scene: a few MB).
  static let keptSessions = 6

  /// Exactly the frame at time t (the frame `-o --at t` writes, given the same gestures).
  func seek(_ t: Double) {
    guard let session else { return }
    let clock = session.simulation.clock
    let k = clock.frame(at: max(0, t))
    if k >= session.simulation.tick {
      do { try session.simulation.advance(to: k); input.shown(session.simulation) } catch { fail(error.message) }
    } else {
      rewind(to: k)
    }
    shownTime = max(0, t)
    dirty = true
    stateDirty = true
  }

  var shown: Double { shownTime ?? (session?.simulation.clock.time(ofFrame: tick) ?? 0) }

  // MARK: - Messages

  func handle(_ message: StudioMessage, from id: Int) {
    switch message {
    case .hello(let dpr):
      scale = dpr
      dirty = true
      stateDirty = true
      frames.forgetLastSent()
    case .play:
      if animated && tick >= (loop?.1 ?? frameCount - 1) { rewind(to: loop?.0 ?? 0) }
      playing = animated
      playStart = tick
      nextTick = Clock.monotonic()
      stateDirty = true
    case .pause:
      playing = false
      stateDirty = true
    case .step(let by):
      playing = false
      if by > 0 { for _ in 0..<by { step() } } else { rewind(to: max(0, tick + by)) }
      stateDirty = true
    case .seek(let t):
      playing = false
      seek(t)
    case .home:
      playing = false
      rewind(to: playStart)
      stateDirty = true
    case .loop(let range):
      let last = frameCount - 1
      loop = range.map { r in
        let a = min(max(0, r.0), last)
        return (a, min(max(a, r.1), last))
      }
      stateDirty = true
    case .speed(let x):
      speed = x
      stateDirty = true
    case .size(let w, let h):
      overrides.width = w
      overrides.height = h
      reload(to: tick, quietly: true)
    case .theme(let name):
      themeOverride = name
      reload(to: tick, quietly: true)
    case .args(let pairs):
      overrides.args = pairs
      reload(to: tick, quietly: false)
    case .reload:
      reload(to: tick, quietly: false)
    case .pointer(let phase, let x, let y, let ts):
      guard let session else { return }
      // The page's event.timeStamp is in milliseconds.
      input.pointer(phase, Point(x, y), timestamp: ts / 1000, to: session.simulation)
      // A gesture changes what comes next: the sessions kept for seeking back no longer fit.
      pool.removeAll()
      if !playing { step() }
    case .save:
      savePNG(id)
    case .inspect:
      guard let session else { reply(id, error: errorLine ?? "no scene"); return }
      do {
        let json = try session.inspect(at: shown)
        send(id, OrderedJSON.object([("type", .string("inspect")), ("t", .number(shown)), ("json", .string(json))]).render(pretty: false))
      } catch { fail(error.message) }
    case .printInspect:
      if let session, let json = try? session.inspect(at: shown) { print(json, terminator: ""); fflush(nil) }
    case .lint:
      guard let session else { return }
      do {
        let findings = try Lint(session: session).run(frames: tick...tick)
        // Each finding with where it is (scene pixels), which the page draws as a box over the frame.
        let items: [OrderedJSON] = findings.map { f in
          .object([("message", .string(f.message)), ("rect", f.rect.map { r in .array([r.x, r.y, r.width, r.height].map { .number(($0 * 100).rounded() / 100) }) } ?? .null)])
        }
        send(id, OrderedJSON.object([("type", .string("lint")), ("t", .number(shown)), ("width", .number(session.scene.width)), ("height", .number(session.scene.height)), ("findings", .array(items))]).render(pretty: false))
      } catch { fail(error.message) }
    case .record(let on):
      if on { startRecording() } else { stopRecording(id) }
    case .render(let format):
      startRender(format, from: id)
    }
  }

  /// Record: the session starts again from 0 with no gestures, so that the file it writes
  /// replays from the same start (`--timeline` plays it from 0).
  func startRecording() {
    input = LiveInput()
    recording = true
    recordPath = nil
    playing = false
    loop = nil
    playStart = 0
    reload(to: 0, quietly: true)
  }

  func stopRecording(_ id: Int) {
    guard recording else { return }
    recording = false
    let name = nextName(base: baseName + "-rec", ext: "lua")
    let path = options.outFolder + "/" + name
    do {
      try AtomicOutput.write(Array(input.recording(script: options.script, fps: session?.simulation.clock.fps ?? 30).utf8), to: path)
      outputs.withLock { _ = $0.insert(name) }
      recordPath = path
      Session.printError("recorded \(input.recorder.lines.count) gestures to \(path)")
    } catch {
      reply(id, error: error.description)
    }
    stateDirty = true
  }

  /// The command that renders what was recorded, headless, with the same options.
  var command: String {
    var words = ["chartscene", options.script]
    if let recordPath { words += ["--timeline", recordPath] } else if let t = options.overrides.timeline { words += ["--timeline", t] }
    words += ["-o", Paths.removingExtension(Paths.fileName(of: options.script)) + ".mp4"]
    words += commandOptions
    return words.map(StudioSession.shellQuote).joined(separator: " ")
  }

  /// The scene options of the command line, with what the page changed (size, theme, args).
  var commandOptions: [String] {
    var words = options.commandWords
    if overrides.width != options.overrides.width || overrides.height != options.overrides.height, let w = overrides.width, let h = overrides.height {
      words += ["--size", "\(Int(w))x\(Int(h))"]
    }
    if let themeOverride { words += ["--theme", themeOverride] }
    if overrides.args.map({ "\($0.0)=\($0.1)" }) != options.overrides.args.map({ "\($0.0)=\($0.1)" }) {
      // The page's fields replace the command line's --arg words.
      var kept: [String] = []
      var skip = false
      for w in words {
        if skip { skip = false; continue }
        if w == "--arg" { skip = true; continue }
        kept.append(w)
      }
      words = kept + overrides.args.flatMap { ["--arg", "\($0.0)=\($0.1)"] }
    }
    return words
  }

  static func shellQuote(_ s: String) -> String {
    let plain = s.unicodeScalars.allSatisfy { $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || "-_./=:,+@%".unicodeScalars.contains($0)) }
    if plain && !s.isEmpty { return s }
    return "'" + s.replacingAll("'", with: "'\\''") + "'"
  }

  var baseName: String { Paths.removingExtension(Paths.fileName(of: options.script)) }

  /// `deck-rec-1.lua`, `deck-rec-2.lua`, ...: a name not yet in the out folder.
  func nextName(base: String, ext: String) -> String {
    var k = 1
    while access(options.outFolder + "/\(base)-\(k).\(ext)", F_OK) == 0 { k += 1 }
    return "\(base)-\(k).\(ext)"
  }

  func savePNG(_ id: Int) {
    guard let session else { return }
    let name = nextName(base: baseName + "-frame\(tick)", ext: "png")
    let path = options.outFolder + "/" + name
    do {
      try RenderJob(output: path, time: shown, scale: 1).run(session)
      outputs.withLock { _ = $0.insert(name) }
      Session.printError("saved \(path)")
      send(id, OrderedJSON.object([("type", .string("saved")), ("name", .string(name))]).render(pretty: false))
    } catch {
      reply(id, error: error.message)
    }
  }

  func startRender(_ format: String, from id: Int) {
    guard ["mp4", "gif", "webm", "apng", "png"].contains(format) else {
      reply(id, error: "cannot render '\(format)': the formats are mp4, gif, webm, apng and png")
      return
    }
    var o = overrides
    if let themeOverride { o.theme = themeOverride }
    if let recordPath, !recording { o.timeline = recordPath } else { o.addedTimeline = input.recording(script: options.script, fps: session?.simulation.clock.fps ?? 30) }
    let name = nextName(base: baseName, ext: format)
    let job = StudioRender.Job(script: options.script, overrides: o, path: options.outFolder + "/" + name, name: name, at: shown, outputs: outputs)
    if let busy = render.start(job) {
      reply(id, error: busy)
    }
    stateDirty = true
  }

  // MARK: - Out

  func reply(_ id: Int, error: String) {
    Session.printError("error: " + error)
    send(id, OrderedJSON.object([("type", .string("message")), ("error", .string(error))]).render(pretty: false))
  }

  func send(_ id: Int, _ text: String) { pendingMessages.append((id, text)) }
  func broadcast(text: String) { pendingMessages.append((nil, text)) }

  var stateJSON: String {
    let scene = session?.scene
    var fields: [(String, OrderedJSON)] = [
      ("type", .string("state")),
      ("script", .string(options.script)),
      ("t", .number(shown)),
      ("frame", .number(Double(tick))),
      ("frames", .number(Double(frameCount))),
      ("fps", .number(session?.simulation.clock.fps ?? 60)),
      ("duration", .number(scene?.duration ?? 0)),
      ("width", .number(scene?.width ?? 0)),
      ("height", .number(scene?.height ?? 0)),
      ("ownSize", .bool(overrides.width == nil)),
      ("playing", .bool(playing)),
      ("speed", .number(speed)),
      ("theme", .string(scene?.theme.name ?? "day")),
      ("error", errorLine.map { .string($0) } ?? .null),
      ("recording", .bool(recording)),
      ("gestures", .number(Double(input.recorder.lines.count))),
      ("recorded", recordPath.map { .string(Paths.fileName(of: $0)) } ?? .null),
      ("command", .string(command)),
      ("args", .array(overrides.args.map { .array([.string($0.0), .string($0.1)]) })),
      // The keys the script read from cs.args but was not given (its own fallbacks): fields too.
      ("argsRead", .array((session?.argsRead ?? []).map { .string($0) })),
    ]
    if let loop { fields.append(("loop", .array([.number(Double(loop.0)), .number(Double(loop.1))]))) }
    fields.append(("render", render.stateJSON))
    return OrderedJSON.object(fields).render(pretty: false)
  }

  /// Draws the frame if it changed (when a worker is free: else on a later turn) and sends
  /// what is pending.
  func flush() {
    if let failure = frames.takeFailure() { fail(failure) }
    if dirty, let session, frames.hasRoom {
      dirty = false
      do {
        let t = shown
        // A size and a pixel ratio the page chose: drawable, within --max-memory.
        try RenderJob.checkSize(width: session.scene.width, height: session.scene.height, scale: scale)
        try RenderJob.checkPixels(session, scale: scale, images: 1, output: "the studio's frame")
        try session.layout(at: t)
        let list = try session.displayList(at: t)
        let fields: [(String, OrderedJSON)] = [("t", .number(t)), ("frame", .number(Double(tick))), ("width", .number(session.scene.width)), ("height", .number(session.scene.height)), ("scale", .number(scale))]
        frames.submit(.init(list: list, scale: scale, size: Size(session.scene.width, session.scene.height), fields: fields))
      } catch {
        fail(error.message)
      }
      stateDirty = true
    }
    if stateDirty {
      stateDirty = false
      let s = stateJSON
      lastState.withLock { $0 = s }
      pendingMessages.insert((nil, s), at: 0)
    }
    guard !pendingMessages.isEmpty else { return }
    let all = clients.withLock { $0 }
    for (id, text) in pendingMessages {
      if let id { all[id]?.text(text) } else { for c in all.values { c.text(text) } }
    }
    pendingMessages.removeAll()
  }
}

extension String {
  func replacingAll(_ a: String, with b: String) -> String {
    split(separator: Character(a), omittingEmptySubsequences: false).joined(separator: b)
  }
}
