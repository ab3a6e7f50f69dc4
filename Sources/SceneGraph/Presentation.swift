import ChartModel
import Drawing
import Motion

/// What is drawn at a time: the animated side of a scene's state. The model (a set's
/// window and hidden lines, a list's scroll, a deck's order...) holds targets; this holds
/// how the picture moves towards them. Changes made while the script is evaluated are
/// immediate; changes made later (timeline, update, gestures) animate unless told not to.
public final class Presentation {
  /// The simulation's current time (the tick being run).
  public var now: Double = 0
  /// False while the script is evaluated: its changes set the initial state.
  public var animates = false
  /// The transition `cs.animate` asks for, while its function runs.
  public var override: Transition?
  /// The speed `cs.animate` starts the numbers it moves with (per second), while it runs.
  public var overrideVelocity: Double?

  struct SetState {
    var window: Animated<Pair>
    var alpha: [String: Animated<Double>] = [:]
  }
  var sets: [ObjectIdentifier: SetState] = [:]

  /// A chart's Y axis: the animated range and the tick sets it cross-fades between.
  public struct AxisState {
    public var range: Animated<Pair>
    public var scale: YScale
    public var previousScale: YScale
  }
  var axes: [AxisKey: AxisState] = [:]
  var numbers: [NumberKey: Animated<Double>] = [:]
  /// Zooms into days (Zoom.swift): the overview windows to return to, zooms fading out.
  var savedWindows: [ObjectIdentifier: TimeWindow] = [:]
  var leaving: [ObjectIdentifier: DayZoom] = [:]
  /// Each chart's level of X labels, eased over time (XLabelLevel.swift).
  var xLevels: [ChartKey: XLevelState] = [:]

  public init() {}

  /// The transition for a change made now: `explicit` (from an `animate` argument) wins.
  public func transition(_ explicit: Transition? = nil) -> Transition {
    if !animates { return .immediate }
    return explicit ?? override ?? .standard
  }

  // MARK: - Sets

  func state(_ set: ChartSet) -> SetState {
    sets[ObjectIdentifier(set)] ?? SetState(window: Animated(Pair(set.window.lo, set.window.hi)))
  }

  /// Moves a set's window (the model changes at once; the picture follows).
  public func setRange(_ set: ChartSet, _ lo: Double, _ hi: Double, _ explicit: Transition? = nil) {
    var s = state(set)
    set.setRange(lo, hi)
    s.window.set(Pair(set.window.lo, set.window.hi), at: now, transition(explicit))
    sets[ObjectIdentifier(set)] = s
  }

  /// Hides or shows a line: it fades out (or in) while the axis follows.
  public func setHidden(_ set: ChartSet, _ id: String, _ hidden: Bool, _ explicit: Transition? = nil) {
    var s = state(set)
    set.setHidden(id, hidden)
    var a = s.alpha[id] ?? Animated(hidden ? 1.0 : 0.0)
    a.set(hidden ? 0 : 1, at: now, transition(explicit))
    s.alpha[id] = a
    sets[ObjectIdentifier(set)] = s
  }

  /// The window drawn at t.
  public func window(_ set: ChartSet, at t: Double) -> TimeWindow {
    guard let s = sets[ObjectIdentifier(set)] else { return set.window }
    let p = s.window.value(at: t)
    // A spring heading for an end overshoots it softly (a sliver of empty plot past the
    // data) instead of stopping at the end for a few frames.
    let margin = Presentation.windowOvershoot * max(0.05, min(1, abs(p.b - p.a)))
    return TimeWindow(rubberBand(p.a, 0, 1, margin: margin), rubberBand(p.b, 0, 1, margin: margin))
  }

  /// A line's opacity at t (0 = hidden).
  public func alpha(_ set: ChartSet, _ id: String, at t: Double) -> Double {
    if let a = sets[ObjectIdentifier(set)]?.alpha[id] { return max(0, min(1, a.value(at: t))) }
    return set.isHidden(id) ? 0 : 1
  }

  // MARK: - Axes

  /// Moves a chart's Y axis towards `target`; called every tick with the scale the chart
  /// wants then, so the axis follows a window being dragged continuously.
  public func updateAxis(_ key: AxisKey, target: YScale, at t: Double, immediate: Bool = false) {
    guard var a = axes[key] else {
      axes[key] = AxisState(range: Animated(Pair(target.lo, target.hi)), scale: target, previousScale: target)
      return
    }
    if a.scale == target { return }
    a.previousScale = a.scale
    a.scale = target
    a.range.set(Pair(target.lo, target.hi), at: t, animates && !immediate ? Transition(duration: 0.3, curve: .easeInOut) : .immediate)
    axes[key] = a
  }

  public func axis(_ key: AxisKey) -> AxisState? { axes[key] }

  // MARK: - Numbers (zoom progress, template counters)

  /// An animated number by key; `initial` when it was never set.
  public func number(_ key: NumberKey, initial: Double, at t: Double) -> Double {
    numbers[key]?.value(at: t) ?? initial
  }

  /// The value an animated number is heading for.
  public func target(_ key: NumberKey) -> Double? { numbers[key]?.target }

  /// Moves a number to `value` from what is shown now, starting at `velocity` (per second;
  /// nil: from rest).
  public func setNumber(_ key: NumberKey, _ value: Double, initial: Double, _ transition: Transition, velocity: Double? = nil) {
    var a = numbers[key] ?? Animated(initial)
    a.set(value, at: now, transition, velocity: velocity)
    numbers[key] = a
  }

  /// True while a number is still moving at t.
  public func isAnimating(_ key: NumberKey, at t: Double) -> Bool { numbers[key]?.isAnimating(at: t) ?? false }

  /// How fast a number moves at t (per second; 0 at rest).
  public func velocity(_ key: NumberKey, at t: Double) -> Double { numbers[key]?.velocity(at: t) ?? 0 }

  // MARK: - Composition state (`cs.view`)

  /// A number of a `cs.view`'s state: the view's number and the keys on the way to it
  /// (`self.state.depth.a` is `["depth", "a"]`, `self.state["depth.a"]` is `["depth.a"]`, and
  /// `self.state.dx[1]` is `["dx", 1]`: never a dotted string, in which those would meet).
  public struct StateKey: Hashable, Sendable {
    /// One key of a state path: Lua's key as it is (a string, an integer; a nested table
    /// copied into the state may use any other value as a key).
    public enum Part: Hashable, Sendable, ExpressibleByStringLiteral, ExpressibleByIntegerLiteral {
      case name(String)
      case index(Int)
      case number(Double)
      case flag(Bool)
      /// A table, function or userdata used as a key (by its address in Lua).
      case object(UInt)
      public init(stringLiteral s: String) { self = .name(s) }
      public init(integerLiteral i: Int) { self = .index(i) }
    }
    public var view: Int
    public var path: [Part]
    public init(view: Int, path: [Part]) { self.view = view; self.path = path }
  }
  var stateNumbers: [StateKey: Animated<Double>] = [:]

  /// The transition for a change of a composition's state made now: `cs.animate`'s, else at
  /// once (a card under the finger follows it).
  public var stateTransition: Transition { animates ? (override ?? .immediate) : .immediate }

  /// Moves a state number to `value` from what is shown now (`old`: its value so far, nil when
  /// it had none); returns when it settles.
  @discardableResult
  public func setState(_ key: StateKey, _ value: Double, old: Double?) -> Double {
    let tr = stateTransition
    var a = stateNumbers[key] ?? Animated(old ?? value)
    a.set(value, at: now, tr, velocity: tr.duration > 0 ? overrideVelocity : nil)
    stateNumbers[key] = a
    return now + tr.delay + tr.duration
  }

  /// A state number as shown at t (`model` when it never moved).
  public func state(_ key: StateKey, model: Double, at t: Double) -> Double {
    stateNumbers[key]?.value(at: t) ?? model
  }

  /// True once a state number was set after the script was evaluated (it has a motion).
  public func isStateAnimated(_ key: StateKey) -> Bool { stateNumbers[key] != nil }

  /// How fast a state number moves at t (per second).
  public func stateVelocity(_ key: StateKey, at t: Double) -> Double { stateNumbers[key]?.velocity(at: t) ?? 0 }

  /// When the last motion of composition children by identity settles (ChildMotion.swift).
  public var childMotionsUntil = -Double.infinity

  /// How far past 0 or 1 a window may swing (a fraction of its width) before it comes back.
  public static let windowOvershoot = 0.025

  /// True when anything is still moving at t.
  public func isAnimating(at t: Double) -> Bool {
    sets.values.contains { $0.window.isAnimating(at: t) || $0.alpha.values.contains { $0.isAnimating(at: t) } }
      || axes.values.contains { $0.range.isAnimating(at: t) } || numbers.values.contains { $0.isAnimating(at: t) }
      || stateNumbers.values.contains { $0.isAnimating(at: t) } || t < childMotionsUntil
  }
}
