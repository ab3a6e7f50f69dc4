/// Values that can be interpolated, added and scaled (so a motion can carry a velocity).
public protocol Interpolatable: Sendable, Equatable {
  static func lerp(_ a: Self, _ b: Self, _ t: Double) -> Self
  static func + (a: Self, b: Self) -> Self
  static func - (a: Self, b: Self) -> Self
  static func * (a: Self, k: Double) -> Self
}

extension Double: Interpolatable {
  public static func lerp(_ a: Double, _ b: Double, _ t: Double) -> Double { a + (b - a) * t }
}

/// A pair of numbers (a range, a point) that interpolates component-wise.
public struct Pair: Interpolatable {
  public var a: Double
  public var b: Double
  public init(_ a: Double, _ b: Double) { self.a = a; self.b = b }
  public static func lerp(_ x: Pair, _ y: Pair, _ t: Double) -> Pair { Pair(x.a + (y.a - x.a) * t, x.b + (y.b - x.b) * t) }
  public static func + (x: Pair, y: Pair) -> Pair { Pair(x.a + y.a, x.b + y.b) }
  public static func - (x: Pair, y: Pair) -> Pair { Pair(x.a - y.a, x.b - y.b) }
  public static func * (x: Pair, k: Double) -> Pair { Pair(x.a * k, x.b * k) }
}

/// An animation's timing: when it starts, how long it runs, along which curve.
public struct Transition: Sendable, Equatable {
  public var duration: Double
  public var curve: Curve
  /// Seconds the value waits (showing where it was) before it starts to move.
  public var delay: Double
  public init(duration: Double, curve: Curve, delay: Double = 0) { self.duration = duration; self.curve = curve; self.delay = max(0, delay) }
  public static let standard = Transition(duration: 0.3, curve: .easeInOut)
  public static let immediate = Transition(duration: 0, curve: .linear)

  /// A spring that settles in its natural time (`response` × 1.6).
  public static func spring(response: Double) -> Transition {
    Transition(duration: Curve.spring(response: response).naturalDuration, curve: .spring(response: response))
  }

  /// What a flick does after the hand lets go at some speed: it glides on, slowing down
  /// exponentially (time constant `tau`), and stops `speed × tau` further on.
  public static func decay(tau: Double) -> Transition {
    Transition(duration: Curve.decay(tau: tau).naturalDuration, curve: .decay(tau: tau))
  }
}

/// A value that moves to new targets over time. Reading it at a time gives what is drawn
/// then; setting a target starts from what was drawn at that moment (so an animation
/// interrupted by another continues smoothly, like SwiftUI's animatableData), and may start
/// with a velocity (a thrown view keeps its speed: position and speed are both continuous).
public struct Animated<Value: Interpolatable>: Sendable {
  public private(set) var from: Value
  public private(set) var to: Value
  public private(set) var start: Double
  public private(set) var transition: Transition
  /// The speed (value per second) the current animation started with.
  public private(set) var velocity: Value
  /// `velocity` is not zero.
  var moving = false

  public init(_ value: Value) {
    from = value; to = value; start = 0; transition = .immediate; velocity = value * 0
  }

  /// The target (the value once the animation settles).
  public var target: Value { to }

  /// When the motion begins (after the transition's delay).
  var begin: Double { start + transition.delay }

  public func value(at t: Double) -> Value {
    let d = transition.duration
    if d <= 0 { return to }
    if t >= begin + d { return to }
    if t <= begin { return from }
    let e = t - begin
    let c = transition.curve
    let v = Value.lerp(from, to, c.progress(e, duration: d))
    guard moving else { return v }
    // The curve alone starts at speed (to - from) × rate; the rest of the start speed is
    // added as a motion that starts at that speed and dies out by the end.
    let missing = velocity - (to - from) * c.initialRate(duration: d)
    return v + missing * c.impulse(e, duration: d)
  }

  /// The speed (value per second) at t; zero at rest.
  public func velocity(at t: Double) -> Value {
    let d = transition.duration
    if d <= 0 || t >= begin + d || t < begin { return to * 0 }
    let h = min(1e-6, d / 100)
    let a = max(begin, t - h), b = min(begin + d, t + h)
    return (value(at: b) - value(at: a)) * (1 / (b - a))
  }

  /// How far along the current animation is at t: 0 at its start, 1 when settled.
  public func progress(at t: Double) -> Double {
    if transition.duration <= 0 || t >= begin + transition.duration { return 1 }
    if t <= begin { return 0 }
    return min(1, max(0, (t - begin) / transition.duration))
  }

  /// True while the value is still moving at t.
  public func isAnimating(at t: Double) -> Bool { transition.duration > 0 && t < begin + transition.duration && (from != to || moving) }

  /// Moves to `value` from what is shown at `t`, starting at `velocity` (value per second;
  /// nil: from rest, as every animation did before velocities).
  public mutating func set(_ value: Value, at t: Double, _ transition: Transition, velocity: Value? = nil) {
    let zero = value * 0
    // Only a finite, non-zero speed counts (a value at infinity has no zero to compare with).
    let thrown = transition.duration > 0 && velocity.map { $0 != zero && $0 == $0 } == true
    if value == to && !isAnimating(at: t) && !thrown { return }
    from = self.value(at: t)
    to = value
    start = t
    self.transition = transition
    self.velocity = thrown ? velocity! : zero
    moving = thrown
  }
}
