import Drawing
import Gestures

/// Pointer input from a device — the `--live` window, the studio's page — on its way to a
/// session: the one path shared by every live front end, so they all throw alike. Each event
/// is handled in the next tick and keeps the device's own time, on which the recogniser (and
/// the recorder, with the same samples) measures the hand's speed; the recorder writes the
/// gestures down, and the ticks run here say how long the session lasted.
public final class LiveInput {
  public let recorder = Recorder()
  /// The latest scene time shown (s).
  public private(set) var reached = 0.0

  public init() {}

  /// A pointer event that happened at `timestamp` on the device's clock (seconds, any origin:
  /// SDL's event timestamp, a page's `event.timeStamp / 1000`); nil when the device gives none.
  public func pointer(_ phase: PointerEvent.Phase, _ location: Point, timestamp: Double?, to simulation: Simulation) {
    let e = PointerEvent(phase, location, at: simulation.clock.time(ofFrame: simulation.tick + 1), timestamp: timestamp)
    recorder.record(e) { simulation.target(at: $0) }
    simulation.inject(e)
  }

  /// Runs the simulation's next tick.
  public func step(_ simulation: Simulation) throws(HostError) {
    try simulation.advance(to: simulation.tick + 1)
    shown(simulation)
  }

  /// Notes the tick the simulation is at as shown (after a reload or a step back too).
  public func shown(_ simulation: Simulation) {
    reached = max(reached, simulation.clock.time(ofFrame: simulation.tick))
  }

  /// A reload on a save (`--live`, the studio): the script run afresh with the gestures so
  /// far added to its timeline (and the theme chosen live), then run to `tick` again, so the
  /// state and the playhead are kept. `files` gets what the script read (also when it fails);
  /// `prepare` sets what the front end keeps of the old scene before the replay (the window's
  /// size).
  public func reload(script: String, overrides: Session.Overrides, theme: String?, fps: Double, to tick: Int, quiet: Bool,
                     files: ((FileLog) -> Void)? = nil, prepare: (Session) -> Void = { _ in }) throws(HostError) -> Session {
    var o = overrides
    o.addedTimeline = recording(script: script, fps: fps)
    if let theme { o.theme = theme }
    let fresh = try Session(scriptPath: script, overrides: o, quiet: quiet, files: files)
    prepare(fresh)
    try fresh.simulation.advance(to: max(0, tick))
    shown(fresh.simulation)
    return fresh
  }

  /// The gestures so far as a timeline file (`--record`; what a reload replays): added to
  /// the script's own timeline, lasting up to the last frame shown.
  public func recording(script: String, fps: Double) -> String {
    recorder.luaSource(script: script, length: reached + 1 / fps)
  }
}
