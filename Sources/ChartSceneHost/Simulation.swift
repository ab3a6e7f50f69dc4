import ChartModel
import Drawing
import Gestures
import LuaKit
import Motion
import SceneGraph

/// Runs a scene's clock: every tick, in order, the timeline's gestures become pointer
/// events through the recognisers, `cs.call` functions and `update(t, dt)` run, and the
/// charts' axes move towards what they now show. The state at tick k depends only on the
/// inputs, so any frame can be reached by simulating from 0 without painting.
public final class Simulation {
  /// Unowned: the session owns its simulation.
  unowned let session: Session
  let scene: Scene
  public let clock: Clock
  let interaction: Interaction
  /// The last tick run (-1: none yet).
  public private(set) var tick = -1
  /// Timeline events by time; `next` is the first not started yet.
  let pending: [TimelineEvent]
  var next = 0
  var pointer = PointerQueue()

  init(session: Session) {
    self.session = session
    self.scene = session.scene
    clock = Clock(fps: scene.fps, duration: scene.duration)
    interaction = Interaction(scene: scene, measurer: session.text)
    pending = scene.timeline.enumerated().sorted { ($0.element.at, $0.offset) < ($1.element.at, $1.offset) }.map(\.element)
  }

  /// Queues a live pointer event: it is handled in the next tick (its device time, on which
  /// speeds are measured, is kept).
  public func inject(_ e: PointerEvent) {
    var e = e
    e.time = clock.time(ofFrame: tick + 1) - clock.dt / 4
    pointer.add(e)
  }

  /// The node or chart part under a point now (`deck`, `views.minimap.window`), for naming
  /// recorded gestures.
  public func target(at p: Point) -> String? { interaction.targetName(at: p) }

  /// A gesture is under way: pointer events are still to come (a timeline's drag between its
  /// press and release, a live hand). Lint does not call a view at rest while one is.
  public var gestureUnderway: Bool { pointer.first != nil }

  /// Runs ticks until tick `k` has run.
  public func advance(to k: Int) throws(HostError) {
    while tick < k {
      tick += 1
      try run(tick)
    }
  }

  func run(_ k: Int) throws(HostError) {
    let t = clock.time(ofFrame: k)
    let p = scene.presentation
    p.now = t
    p.animates = true
    try session.layout(at: t)
    // Events that start by now (within this tick).
    let horizon = t + clock.dt / 2
    while next < pending.count, pending[next].at < horizon {
      let e = pending[next]
      next += 1
      do { try start(e, at: t) } catch let err as LuaError {
        throw HostError(Session.located(err.message, file: session.scriptPath, chunks: session.context.chunks))
      } catch let err as HostError { throw err } catch { throw HostError("\(session.scriptPath): \(error)") }
    }
    interaction.tick(t)
    try reportHandlerFailure()
    while let e = pointer.first, e.time < horizon {
      interaction.handle(pointer.removeFirst())
      try reportHandlerFailure()
    }
    if let update = scene.update {
      do { try update(t, clock.dt) } catch let err as LuaError {
        throw HostError(Session.located(err.message, file: session.scriptPath, chunks: session.context.chunks))
      } catch { throw HostError("\(session.scriptPath): \(error)") }
    }
    try session.layout(at: t)
    updateAxes(at: t)
    // Texts that follow time (templates): their counters move and their texts change.
    if scene.updateTemplates(at: t) { try session.layout(at: t) }
  }

  /// A script's gesture handler failed: its error, placed like any other of the script.
  func reportHandlerFailure() throws(HostError) {
    guard let f = interaction.failure else { return }
    interaction.failure = nil
    if let err = f as? LuaError { throw HostError(Session.located(err.message, file: session.scriptPath, chunks: session.context.chunks)) }
    throw HostError("\(session.scriptPath): \(f)")
  }

  /// Turns a timeline event into pointer events from now on (or runs a call).
  func start(_ e: TimelineEvent, at t: Double) throws {
    if case .call(let fn) = e.kind { try fn(); return }
    let here: Point
    switch e.target {
    case .point(let q)?: here = q
    case .id(let id)?:
      guard let q = interaction.point(of: id) else {
        // Under `--size`, a gesture on a chart part that gave way to the plot at this size
        // does nothing (as a hand could not touch it); at the script's own size it is an error.
        if session.resized && interaction.gaveWay(id) { return }
        throw HostError("\(e.place.isEmpty ? session.scriptPath + ":" : e.place) \(e.name) at \(e.at) s: no node or part '\(id)' in the scene")
      }
      here = q
    case nil:
      if case .drag(let from?, _, _, _, _) = e.kind { here = from } else { throw HostError("\(session.scriptPath): \(e.name) at \(e.at) s has no target") }
    }
    let dt = clock.dt
    var events: [PointerEvent]
    switch e.kind {
    case .tap: events = SyntheticPointer.tap(at: here, start: t, dt: dt)
    case .longPress(let d): events = SyntheticPointer.longPress(at: here, start: t, duration: d, dt: dt)
    case .drag(let from, let by, let to, let d, let hold):
      let a = from ?? here
      let b = to ?? Point(a.x + (by?.x ?? 0), a.y + (by?.y ?? 0))
      events = SyntheticPointer.drag(from: a, to: b, start: t, duration: d, hold: hold, dt: dt, flick: e.flick, velocity: e.velocity)
    case .scroll(let by, let d): events = SyntheticPointer.scroll(at: here, by: by, start: t, duration: d, dt: dt)
    case .call: return
    }
    pointer.add(contentsOf: events)
  }

  /// Every chart's axis heads for the scale its drawn window needs now (continuously while
  /// a window is dragged).
  func updateAxes(at t: Double) {
    let p = scene.presentation
    func visit(_ n: Node) {
      if let spec = n.chart {
        let isCard: Bool = { if case .card = n.kind { return true }; return false }()
        let window = p.window(spec.data, at: t)
        let parts = ChartParts.make(spec: spec, card: isCard, frame: n.contentFrame, measurer: session.text, window: window)
        p.updateChartAxes(ChartKey(n.identity), spec: spec, plot: parts.plot, window: window, at: t)
        p.updateXLabels(ChartKey(n.identity), spec: spec, parts: parts, measurer: session.text, at: t)
      }
      if n.placement.sheet > 0.001, let spec = n.chart?.full {
        let frame = Layout.modalChart(in: Layout.modalFrame(sceneSize: Size(scene.width, scene.height)))
        let window = p.window(spec.data, at: t)
        let parts = ChartParts.make(spec: spec, card: false, frame: frame, measurer: session.text, window: window)
        p.updateChartAxes(Layout.sheetKey(n), spec: spec, plot: parts.plot, window: window, at: t)
        p.updateXLabels(Layout.sheetKey(n), spec: spec, parts: parts, measurer: session.text, at: t)
      }
      n.children.forEach(visit)
    }
    visit(scene.root)
  }
}
