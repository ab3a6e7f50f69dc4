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
  var last: [(Point, Double)] = []

  public init() {}

  func distance(_ a: Point, _ b: Point) -> Double { ((a.x - b.x) * (a.x - b.x) + (a.y - b.y) * (a.y - b.y)).squareRoot() }

  /// The pointer's velocity at its last sample (scene px per second): the slope at the end
  /// of a least-squares parabola through the samples of the last 0.1 s (as Android's
  /// VelocityTracker does), so a hand that slowed to a stop before letting go throws
  /// nothing, and one that let go while moving throws at that speed. A straight line when
  /// there are only two distinct times; zero when there is one, or when the fit points
  /// against the last movement.
  func velocity(at t: Double) -> Point {
    let recent = last.filter { t - $0.1 <= 0.1 + 1e-9 }
    guard let end = recent.last, let first = recent.first, end.1 > first.1 else { return .zero }
    let times = Set(recent.map(\.1))
    var v: Point
    // Time in tenths of a second keeps the normal equations well scaled.
    if times.count >= 3, let vx = GestureRecognizer.endSlope(recent.map { (($0.1 - end.1) * 10, $0.0.x) }),
      let vy = GestureRecognizer.endSlope(recent.map { (($0.1 - end.1) * 10, $0.0.y) })
    {
      v = Point(vx * 10, vy * 10)
    } else {
      let dt = end.1 - first.1
      v = Point((end.0.x - first.0.x) / dt, (end.0.y - first.0.y) / dt)
    }
    // The direction of the last movement: a fit pointing backwards is noise.
    if let before = recent.last(where: { $0.0 != end.0 }) {
      let d = Point(end.0.x - before.0.x, end.0.y - before.0.y)
      if v.x * d.x + v.y * d.y < 0 { return .zero }
    } else {
      return .zero
    }
    return v
  }

  /// The slope at u = 0 of the least-squares parabola y = a + b u + c u² through (u, y).
  static func endSlope(_ samples: [(Double, Double)]) -> Double? {
    // Normal equations for [a, b, c].
    var s = [Double](repeating: 0, count: 5), r = [Double](repeating: 0, count: 3)
    for (u, y) in samples {
      var p = 1.0
      for k in 0..<5 {
        s[k] += p
        if k < 3 { r[k] += p * y }
        p *= u
      }
    }
    let m = [[s[0], s[1], s[2]], [s[1], s[2], s[3]], [s[2], s[3], s[4]]]
    func det(_ m: [[Double]]) -> Double {
      m[0][0] * (m[1][1] * m[2][2] - m[1][2] * m[2][1]) - m[0][1] * (m[1][0] * m[2][2] - m[1][2] * m[2][0])
        + m[0][2] * (m[1][0] * m[2][1] - m[1][1] * m[2][0])
    }
    let d = det(m)
    guard abs(d) > 1e-12 else { return nil }
    var mb = m
    for k in 0..<3 { mb[k][1] = r[k] }
    return det(mb) / d
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
    case (.move, .pressed(let start, _)), (.move, .held(let start)):
      record(e)
      if distance(start, e.location) > thresholds.slop {
        let held = if case .held = state { true } else { false }
        state = .dragging(start: start, held: held)
        out += [.began(start: start, held: held), .changed(start: start, location: e.location, held: held)]
      }
    case (.move, .dragging(let start, let held)):
      record(e)
      out.append(.changed(start: start, location: e.location, held: held))
    case (.up, .pressed(let start, let t0)):
      out.append(e.time - t0 <= thresholds.tapDuration ? .tap(start) : .cancelled)
      state = .idle
    case (.up, .dragging(let start, let held)):
      record(e)
      out.append(.ended(start: start, location: e.location, velocity: velocity(at: e.time), held: held))
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

  mutating func record(_ e: PointerEvent) {
    last.append((e.location, e.time))
    if last.count > 16 { last.removeFirst(last.count - 16) }
  }
}
