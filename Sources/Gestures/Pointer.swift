import Drawing

/// One pointer input: from the timeline's synthetic streams or, later, a live window.
public struct PointerEvent: Sendable, Equatable {
  public enum Phase: Sendable, Equatable {
    case down, move, up
    /// A wheel or trackpad scroll by (dx, dy) scene pixels.
    case scroll(Double, Double)
  }
  public var phase: Phase
  public var location: Point
  public var time: Double
  public init(_ phase: Phase, _ location: Point, at time: Double) {
    self.phase = phase; self.location = location; self.time = time
  }
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
    case dragging(start: Point)
    case held(start: Point)
    case heldDragging(start: Point)
  }

  public var thresholds = Thresholds()
  var state: State = .idle
  var last: [(Point, Double)] = []

  public init() {}

  /// True while a pointer is down.
  public var isActive: Bool { if case .idle = state { return false }; return true }

  func distance(_ a: Point, _ b: Point) -> Double { ((a.x - b.x) * (a.x - b.x) + (a.y - b.y) * (a.y - b.y)).squareRoot() }

  /// Velocity over the last ~0.1 s of movement (scene px per second).
  func velocity(at t: Double) -> Point {
    guard let first = last.first(where: { t - $0.1 <= 0.1 }) ?? last.first, let end = last.last, end.1 > first.1 else { return .zero }
    let dt = end.1 - first.1
    return Point((end.0.x - first.0.x) / dt, (end.0.y - first.0.y) / dt)
  }

  /// Feeds one event; returns the gestures it completes or advances.
  public mutating func feed(_ e: PointerEvent) -> [Gesture] {
    var out = tick(e.time)
    switch (e.phase, state) {
    case (.scroll(let dx, let dy), _):
      out.append(.scroll(e.location, dx: dx, dy: dy))
    case (.down, _):
      state = .pressed(start: e.location, t0: e.time)
      last = [(e.location, e.time)]
    case (.move, .pressed(let start, _)):
      record(e)
      if distance(start, e.location) > thresholds.slop {
        state = .dragging(start: start)
        out += [.dragBegan(start: start), .dragChanged(start: start, location: e.location)]
      }
    case (.move, .dragging(let start)):
      record(e)
      out.append(.dragChanged(start: start, location: e.location))
    case (.move, .held(let start)):
      record(e)
      if distance(start, e.location) > thresholds.slop {
        state = .heldDragging(start: start)
        out += [.heldDragBegan(start: start), .heldDragChanged(start: start, location: e.location)]
      }
    case (.move, .heldDragging(let start)):
      record(e)
      out.append(.heldDragChanged(start: start, location: e.location))
    case (.up, .pressed(let start, let t0)):
      out.append(e.time - t0 <= thresholds.tapDuration ? .tap(start) : .cancelled)
      state = .idle
    case (.up, .dragging(let start)):
      record(e)
      out.append(.dragEnded(start: start, location: e.location, velocity: velocity(at: e.time)))
      state = .idle
    case (.up, .held):
      out.append(.longPressEnded(e.location))
      state = .idle
    case (.up, .heldDragging(let start)):
      record(e)
      out.append(.heldDragEnded(start: start, location: e.location, velocity: velocity(at: e.time)))
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

  mutating func record(_ e: PointerEvent) {
    last.append((e.location, e.time))
    if last.count > 16 { last.removeFirst(last.count - 16) }
  }
}
