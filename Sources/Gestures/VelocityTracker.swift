import Drawing

/// The hand's speed when it lets go, from one press's samples: the slope at the end of a
/// least-squares parabola through the moves of the last 0.1 s (as Android's VelocityTracker
/// does), measured on the events' own times (`PointerEvent.handTime`: the device's clock for
/// a live pointer, so events delivered in bursts still tell the hand's speed).
///
/// The release itself is a sample only when it moved: a device reports a button going up at
/// the last place it reported, so an up there says nothing about the speed, and counting it
/// made a hand that let go while moving look stopped. A hand that held still before letting
/// go (no move for 40 ms, or for 1.5 of its usual intervals between moves when it reports
/// less often) throws nothing, and a fit pointing against the last movement counts as zero.
/// The recogniser and the `Recorder` both use it, so what `ended` reports live is what the
/// recording writes down.
public struct VelocityTracker: Sendable {
  /// How far back samples count (s).
  public static let horizon = 0.1
  /// A release this long after the last move (s), or longer than 1.5 of the usual
  /// intervals between moves, comes from a hand that had stopped.
  public static let stopped = 0.04

  var samples: [(point: Point, time: Double)] = []

  public init() {}

  /// Starts a press at the event (its down).
  public mutating func reset(_ e: PointerEvent) { samples = [(e.location, e.handTime)] }

  /// A move of the pressed pointer.
  public mutating func add(_ e: PointerEvent) {
    samples.append((e.location, e.handTime))
    if samples.count > 64 { samples.removeFirst(samples.count - 64) }
  }

  /// The velocity (scene px per second) when the pointer is released by `up`: the event's
  /// own (a replayed throw's), else the estimate.
  public func release(_ up: PointerEvent) -> Point {
    if let v = up.velocity { return v }
    var all = samples
    guard let last = all.last else { return .zero }
    if up.location != last.point {
      all.append((up.location, max(up.handTime, last.time)))
    } else {
      // Held still before letting go?
      let window = all.filter { last.time - $0.time <= VelocityTracker.horizon + 1e-9 }
      let distinct = Set(window.map(\.time)).count
      let usual = distinct > 1 ? (last.time - window[0].time) / Double(distinct - 1) : 0
      if up.handTime - last.time > max(VelocityTracker.stopped, 1.5 * usual) + 1e-9 { return .zero }
    }
    return VelocityTracker.estimate(all)
  }

  /// The slope at the last sample of the parabola through the samples of the horizon before
  /// it; a straight line when there are only two distinct times; zero when there is one, or
  /// when the fit points against the last movement.
  static func estimate(_ all: [(point: Point, time: Double)]) -> Point {
    guard let end = all.last else { return .zero }
    let recent = all.filter { end.time - $0.time <= horizon + 1e-9 }
    guard let first = recent.first, end.time > first.time else { return .zero }
    let times = Set(recent.map(\.time))
    var v: Point
    // Time in tenths of a second keeps the normal equations well scaled.
    if times.count >= 3, let vx = endSlope(recent.map { (($0.time - end.time) * 10, $0.point.x) }),
      let vy = endSlope(recent.map { (($0.time - end.time) * 10, $0.point.y) })
    {
      v = Point(vx * 10, vy * 10)
    } else {
      // Two times (two bursts): between their mean places.
      let a = recent.filter { $0.time == first.time }, b = recent.filter { $0.time == end.time }
      func mean(_ s: [(point: Point, time: Double)]) -> Point {
        Point(s.map(\.point.x).reduce(0, +) / Double(s.count), s.map(\.point.y).reduce(0, +) / Double(s.count))
      }
      let pa = mean(a), pb = mean(b), dt = end.time - first.time
      v = Point((pb.x - pa.x) / dt, (pb.y - pa.y) / dt)
    }
    // The direction of the last movement: a fit pointing backwards is noise.
    guard let before = recent.last(where: { $0.point != end.point }) else { return .zero }
    let d = Point(end.point.x - before.point.x, end.point.y - before.point.y)
    if v.x * d.x + v.y * d.y < 0 { return .zero }
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
}
