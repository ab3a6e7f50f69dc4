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
  /// seconds (a long press first when hold ≥ the long-press duration).
  public static func drag(from: Point, to: Point, start: Double, duration: Double, hold: Double, dt: Double) -> [PointerEvent] {
    var out = [PointerEvent(.down, from, at: start)]
    var t = start + dt
    while t < start + hold - 1e-9 { out.append(PointerEvent(.move, from, at: t)); t += dt }
    let moveStart = start + hold
    let steps = max(1, Int((duration / dt).rounded()))
    for k in 1...steps {
      let f = Double(k) / Double(steps)
      // Ease in and out, as a hand moves.
      let e = f < 0.5 ? 2 * f * f : 1 - 2 * (1 - f) * (1 - f)
      out.append(PointerEvent(.move, Point(from.x + (to.x - from.x) * e, from.y + (to.y - from.y) * e), at: moveStart + Double(k) * dt))
    }
    out.append(PointerEvent(.up, to, at: moveStart + Double(steps) * dt + dt))
    return out
  }

  /// A scroll by (dx, dy) spread over `duration` seconds of wheel events.
  public static func scroll(at p: Point, by d: Point, start: Double, duration: Double, dt: Double) -> [PointerEvent] {
    let steps = max(1, Int((duration / dt).rounded()))
    return (0..<steps).map { k in PointerEvent(.scroll(d.x / Double(steps), d.y / Double(steps)), p, at: start + Double(k) * dt) }
  }
}
