import Drawing

/// Turns a scripted gesture into the pointer events a hand would make, at the clock's
/// ticks, so timeline events go through the same recognisers as a live pointer.
public enum SyntheticPointer {
  /// A tap: down, up a tick later (well within the tap duration).
  public static func tap(at p: Point, start: Double, dt: Double) -> [PointerEvent] {
    [PointerEvent(.down, p, at: start), PointerEvent(.up, p, at: start + dt)]
  }

  /// A long press held for `duration` seconds.
  public static func longPress(at p: Point, start: Double, duration: Double, dt: Double) -> [PointerEvent] {
    var out = [PointerEvent(.down, p, at: start)]
    var t = start + dt
    while t < start + duration - 1e-9 { out.append(PointerEvent(.move, p, at: t)); t += dt }
    out.append(PointerEvent(.up, p, at: start + max(duration, dt)))
    return out
  }

  /// A drag from `from` to `to` over `duration` seconds, after holding still for `hold`
  /// seconds (a long press first when hold ≥ the long-press duration). The hand speeds up
  /// and slows down to a stop, then lets go a tick later; a `flick` moves at a steady speed
  /// and lets go while moving (so what it drags carries on at that speed). Given a
  /// `velocity` (a recorded throw's), it flicks and lets go at exactly that speed.
  public static func drag(from: Point, to: Point, start: Double, duration: Double, hold: Double, dt: Double, flick: Bool = false, velocity: Point? = nil) -> [PointerEvent] {
    let flick = flick || velocity != nil
    var out = [PointerEvent(.down, from, at: start)]
    var t = start + dt
    while t < start + hold - 1e-9 { out.append(PointerEvent(.move, from, at: t)); t += dt }
    let moveStart = start + hold
    let steps = max(1, Int((duration / dt).rounded()))
    for k in 1...steps {
      let f = Double(k) / Double(steps)
      // Ease in and out, as a hand moves; a flick at one speed.
      let e = flick ? f : f < 0.5 ? 2 * f * f : 1 - 2 * (1 - f) * (1 - f)
      out.append(PointerEvent(.move, Point(from.x + (to.x - from.x) * e, from.y + (to.y - from.y) * e), at: moveStart + Double(k) * dt))
    }
    out.append(PointerEvent(.up, to, at: moveStart + Double(steps) * dt + (flick ? 0 : dt), velocity: velocity))
    return out
  }

  /// A scroll by (dx, dy) spread over `duration` seconds of wheel events.
  public static func scroll(at p: Point, by d: Point, start: Double, duration: Double, dt: Double) -> [PointerEvent] {
    let steps = max(1, Int((duration / dt).rounded()))
    return (0..<steps).map { k in PointerEvent(.scroll(d.x / Double(steps), d.y / Double(steps)), p, at: start + Double(k) * dt) }
  }
}
