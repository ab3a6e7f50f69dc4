/// The fixed-step clock: frame k is at t = k / fps. Nothing in a scene reads the wall clock,
/// so the frame at t depends only on the inputs.
public struct Clock: Sendable, Equatable {
  public var fps: Double
  /// Seconds; 0 is a still.
  public var duration: Double

  public init(fps: Double, duration: Double) {
    self.fps = fps
    self.duration = duration
  }

  public var dt: Double { 1 / fps }

  /// Number of frames of an animated scene: frames 0...frameCount-1 cover [0, duration).
  public var frameCount: Int { duration > 0 ? max(1, Int((duration * fps).rounded(.up))) : 1 }

  public func time(ofFrame k: Int) -> Double { Double(k) / fps }

  /// The tick at or before a time.
  /// (Clamped to ±1e15 ticks: an absurd time must not trap.)
  public func frame(at t: Double) -> Int {
    let f = (t * fps + 1e-9).rounded(.down)
    return f.isNaN ? 0 : Int(max(-1e15, min(1e15, f)))
  }
}

/// How an animation moves from its start to its end value.
public enum Curve: Sendable, Equatable {
  case linear
  case easeInOut
  /// A slightly underdamped spring with the given response (its period, in seconds).
  case spring(response: Double)
  /// Exponential slowing down with time constant `tau` (a flick gliding to a stop),
  /// scaled to arrive exactly at the end of its duration.
  case decay(tau: Double)

  /// The names scripts use: "linear", "easeInOut", "spring".
  public static let names = ["linear", "easeInOut", "spring", "decay"]

  public init?(name: String) {
    switch name {
    case "linear": self = .linear
    case "easeInOut": self = .easeInOut
    case "spring": self = .spring(response: 0.5)
    case "decay": self = .decay(tau: 0.35)
    default: return nil
    }
  }

  /// Progress 0...1 (a spring may overshoot) after `elapsed` of `duration` seconds.
  public func progress(_ elapsed: Double, duration: Double) -> Double {
    switch self {
    case .linear:
      return duration > 0 ? min(1, max(0, elapsed / duration)) : 1
    case .easeInOut:
      let x = duration > 0 ? min(1, max(0, elapsed / duration)) : 1
      return x < 0.5 ? 4 * x * x * x : 1 - pow3(-2 * x + 2) / 2
    case .spring(let response):
      // A slightly underdamped spring: a small overshoot, settled after `duration`.
      if elapsed >= duration || duration <= 0 { return 1 }
      let (omega, zeta) = Curve.spring(response, duration)
      let t = max(0, elapsed)
      let wd = omega * (1 - zeta * zeta).squareRoot()
      let envelope = expApprox(-zeta * omega * t)
      return 1 - envelope * (cosApprox(wd * t) + zeta * omega / wd * sinApprox(wd * t))
    case .decay(let tau):
      if elapsed >= duration || duration <= 0 { return 1 }
      let tau = max(1e-3, tau)
      return (1 - expApprox(-max(0, elapsed) / tau)) / (1 - expApprox(-duration / tau))
    }
  }

  /// The spring's angular frequency and damping ratio. A spring given a shorter duration
  /// than it needs is made stiffer to settle in time.
  static func spring(_ response: Double, _ duration: Double) -> (omega: Double, zeta: Double) {
    (2 * Double.pi / max(0.05, min(response, duration / 1.6)), 0.8)
  }

  /// The curve's speed at its start, in progress per second (0 for curves that start
  /// from rest).
  public func initialRate(duration: Double) -> Double {
    guard duration > 0 else { return 0 }
    switch self {
    case .linear: return 1 / duration
    case .easeInOut, .spring: return 0
    case .decay(let tau):
      let tau = max(1e-3, tau)
      return 1 / (tau * (1 - expApprox(-duration / tau)))
    }
  }

  /// A motion that starts at 0 with speed 1 and dies out by the end of `duration`: added
  /// to the curve, scaled by the speed it lacks, so an animation starts at a given speed.
  /// A spring's is the spring's own (it swings once, softly); the others' a smooth bump.
  public func impulse(_ elapsed: Double, duration: Double) -> Double {
    guard duration > 0, elapsed > 0, elapsed < duration else { return 0 }
    switch self {
    case .spring(let response):
      let (omega, zeta) = Curve.spring(response, duration)
      let wd = omega * (1 - zeta * zeta).squareRoot()
      return expApprox(-zeta * omega * elapsed) * sinApprox(wd * elapsed) / wd
    case .linear, .easeInOut, .decay:
      let r = 1 - elapsed / duration
      return elapsed * r * r
    }
  }

  /// How long the curve takes to settle when no duration is given.
  public var naturalDuration: Double {
    switch self {
    case .linear, .easeInOut: return 0.3
    case .spring(let response): return response * 1.6
    case .decay(let tau): return tau * 4
    }
  }
}

@inline(__always) func pow3(_ x: Double) -> Double { x * x * x }
