import Drawing

/// One pointer input: from the timeline's synthetic streams or a live window (SDL, a page).
public struct PointerEvent: Sendable, Equatable {
  public enum Phase: Sendable, Equatable {
    case down, move, up
    /// A wheel or trackpad scroll by (dx, dy) scene pixels.
    case scroll(Double, Double)
  }
  public var phase: Phase
  public var location: Point
  /// Scene seconds: when the scene handles it (a live event: the next tick).
  public var time: Double
  /// The device's own time of the event (seconds, any origin: SDL's event timestamp, a
  /// page's `event.timeStamp`), when it came from a device. Speeds are measured on it, so a
  /// burst of events handled in one tick still tells how fast the hand moved; nil: `time`.
  public var timestamp: Double?
  /// A release's speed as the hand knew it (scene px/s): a recorded throw replayed
  /// (`cs.drag{ velocity = }`). The recogniser reports it instead of its estimate.
  public var velocity: Point?
  public init(_ phase: Phase, _ location: Point, at time: Double, timestamp: Double? = nil, velocity: Point? = nil) {
    self.phase = phase; self.location = location; self.time = time; self.timestamp = timestamp; self.velocity = velocity
  }

  /// The time speeds are measured on: the device's, else the scene's.
  public var handTime: Double { timestamp ?? time }
}

/// What a pointer sequence means, as recognised.
public enum Gesture: Sendable, Equatable {
  case tap(Point)
  case longPressBegan(Point)
  case longPressEnded(Point)
  /// A drag that started without a long press (a pan).
  case dragBegan(start: Point)
  case dragChanged(start: Point, location: Point)
  case dragEnded(start: Point, location: Point, velocity: Point)
  /// A drag after a long press (the cards' sequenced gesture).
  case heldDragBegan(start: Point)
  case heldDragChanged(start: Point, location: Point)
  case heldDragEnded(start: Point, location: Point, velocity: Point)
  case scroll(Point, dx: Double, dy: Double)
  /// The sequence stopped without completing (for example a long press released early
  /// after moving too little to count as a tap).
  case cancelled
}

extension Gesture {
  /// A drag's gestures: a pan's, or (`held`) those of a drag after a long press.
  static func began(start: Point, held: Bool) -> Gesture { held ? .heldDragBegan(start: start) : .dragBegan(start: start) }
  static func changed(start: Point, location: Point, held: Bool) -> Gesture {
    held ? .heldDragChanged(start: start, location: location) : .dragChanged(start: start, location: location)
  }
  static func ended(start: Point, location: Point, velocity: Point, held: Bool) -> Gesture {
    held ? .heldDragEnded(start: start, location: location, velocity: velocity) : .dragEnded(start: start, location: location, velocity: velocity)
  }
}

/// Recognises tap, long press, drag (pan) and the sequenced long-press-then-drag from one
/// pointer's events: a pure state machine fed events and clock ticks.
public struct GestureRecognizer: Sendable {
  public struct Thresholds: Sendable {
    /// Movement (scene px) below which a press is still a tap or a long press.
    public var slop = 10.0
    /// Longest press that is a tap (s).
    public var tapDuration = 0.35
    /// Shortest press that is a long press (s).
    public var longPressDuration = 0.5
    public init() {}
  }

  enum State: Sendable {
    case idle
    case pressed(start: Point, t0: Double)
    case held(start: Point)
    /// Dragging; `held` when a long press began it.
    case dragging(start: Point, held: Bool)
  }

  public var thresholds = Thresholds()
  var state: State = .idle
  /// The press's samples, for the speed at the release.
  var tracker = VelocityTracker()

  public init() {}

  func distance(_ a: Point, _ b: Point) -> Double { ((a.x - b.x) * (a.x - b.x) + (a.y - b.y) * (a.y - b.y)).squareRoot() }

  /// Feeds one event; returns the gestures it completes or advances.
  public mutating func feed(_ e: PointerEvent) -> [Gesture] {
    var out = tick(e.time)
    switch (e.phase, state) {
    case (.scroll(let dx, let dy), _):
      out.append(.scroll(e.location, dx: dx, dy: dy))
    case (.down, _):
      state = .pressed(start: e.location, t0: e.time)
      tracker.reset(e)
    case (.move, .pressed(let start, _)), (.move, .held(let start)):
      tracker.add(e)
      if distance(start, e.location) > thresholds.slop {
        let held = if case .held = state { true } else { false }
        state = .dragging(start: start, held: held)
        out += [.began(start: start, held: held), .changed(start: start, location: e.location, held: held)]
      }
    case (.move, .dragging(let start, let held)):
      tracker.add(e)
      out.append(.changed(start: start, location: e.location, held: held))
    case (.up, .pressed(let start, let t0)):
      out.append(e.time - t0 <= thresholds.tapDuration ? .tap(start) : .cancelled)
      state = .idle
    case (.up, .dragging(let start, let held)):
      out.append(.ended(start: start, location: e.location, velocity: tracker.release(e), held: held))
      state = .idle
    case (.up, .held):
      out.append(.longPressEnded(e.location))
      state = .idle
    case (.move, .idle), (.up, .idle):
      break
    }
    return out
  }

  /// Advances the clock: a press held still long enough becomes a long press.
  public mutating func tick(_ t: Double) -> [Gesture] {
    if case .pressed(let start, let t0) = state, t - t0 >= thresholds.longPressDuration - 1e-9 {
      state = .held(start: start)
      return [.longPressBegan(start)]
    }
    return []
  }
}
