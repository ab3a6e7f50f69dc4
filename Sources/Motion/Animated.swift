/// Values that can be interpolated.
public protocol Interpolatable: Sendable, Equatable {
  static func lerp(_ a: Self, _ b: Self, _ t: Double) -> Self
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
}

/// An animation's timing: when it starts, how long it runs, along which curve.
public struct Transition: Sendable, Equatable {
  public var duration: Double
  public var curve: Curve
  public init(duration: Double, curve: Curve) { self.duration = duration; self.curve = curve }
  public static let standard = Transition(duration: 0.3, curve: .easeInOut)
  public static let immediate = Transition(duration: 0, curve: .linear)
}

/// A value that moves to new targets over time. Reading it at a time gives what is drawn
/// then; setting a target starts from what was drawn at that moment (so an animation
/// interrupted by another continues smoothly, like SwiftUI's animatableData).
public struct Animated<Value: Interpolatable>: Sendable {
  public private(set) var from: Value
  public private(set) var to: Value
  public private(set) var start: Double
  public private(set) var transition: Transition

  public init(_ value: Value) {
    from = value; to = value; start = 0; transition = .immediate
  }

  /// The target (the value once the animation settles).
  public var target: Value { to }

  public func value(at t: Double) -> Value {
    if transition.duration <= 0 || t >= start + transition.duration { return to }
    if t <= start { return from }
    return Value.lerp(from, to, transition.curve.progress(t - start, duration: transition.duration))
  }

  /// How far along the current animation is at t: 0 at its start, 1 when settled.
  public func progress(at t: Double) -> Double {
    if transition.duration <= 0 || t >= start + transition.duration { return 1 }
    if t <= start { return 0 }
    return min(1, max(0, (t - start) / transition.duration))
  }

  /// True while the value is still moving at t.
  public func isAnimating(at t: Double) -> Bool { transition.duration > 0 && t < start + transition.duration && from != to }

  /// Moves to `value` from what is shown at `t`.
  public mutating func set(_ value: Value, at t: Double, _ transition: Transition) {
    if value == to && !isAnimating(at: t) { return }
    from = self.value(at: t)
    to = value
    start = t
    self.transition = transition
  }
}
