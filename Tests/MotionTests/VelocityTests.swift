import Drawing
import Gestures
import Motion
import XCTest

/// Velocities: animations that start at a speed, the flick's glide, the rubber band at
/// ends, delays, and the speed the recogniser measures when the hand lets go.
final class VelocityTests: XCTestCase {
  func speed(_ a: Animated<Double>, at t: Double) -> Double { (a.value(at: t + 1e-5) - a.value(at: t)) / 1e-5 }

  func testAnAnimationStartsAtTheSpeedItIsGivenAndSettles() {
    for curve in [Curve.easeInOut, .linear, .spring(response: 0.35), .decay(tau: 0.3)] {
      var a = Animated(100.0)
      a.set(0, at: 1, Transition(duration: 0.6, curve: curve), velocity: 400)
      XCTAssertEqual(a.value(at: 1), 100, accuracy: 1e-9, "\(curve)")
      XCTAssertEqual(speed(a, at: 1), 400, accuracy: 2, "\(curve): the start speed")
      XCTAssertEqual(a.velocity(at: 1), 400, accuracy: 2, "\(curve)")
      XCTAssertEqual(a.value(at: 1.6), 0, "\(curve)")
      XCTAssertEqual(a.velocity(at: 1.7), 0, "\(curve)")
      XCTAssertTrue(a.isAnimating(at: 1.3))
      // Thrown away from its target, it first carries on, then turns back.
      XCTAssertGreaterThan(a.value(at: 1.02), 100, "\(curve)")
    }
    // Thrown while at its target, it still moves (and comes back).
    var b = Animated(5.0)
    b.set(5, at: 0, .spring(response: 0.4), velocity: 100)
    XCTAssertTrue(b.isAnimating(at: 0.1))
    XCTAssertGreaterThan(b.value(at: 0.05), 5)
    XCTAssertEqual(b.value(at: 10), 5)
  }

  func testWithoutAVelocityNothingChanges() {
    var a = Animated(0.0), b = Animated(0.0)
    a.set(10, at: 0, .standard)
    b.set(10, at: 0, .standard, velocity: 0)
    for t in stride(from: 0.0, through: 0.4, by: 0.05) {
      XCTAssertEqual(a.value(at: t), b.value(at: t))
      XCTAssertEqual(a.value(at: t), Curve.easeInOut.progress(t, duration: 0.3) * 10, accuracy: 1e-12)
    }
  }

  func testTheGlideStopsWhereTheSpeedTakesIt() {
    // A decay started at the speed that matches its distance needs no correction: it is
    // the exponential glide, fastest at the start and slowing down every frame.
    let tau = 0.35
    var a = Animated(0.0)
    a.set(-300 * tau, at: 0, .decay(tau: tau), velocity: -300)
    XCTAssertEqual(a.velocity(at: 0), -300, accuracy: 0.5)
    var last = 0.0, lastStep = Double.infinity
    for k in 1...60 {
      let v = a.value(at: Double(k) / 30)
      XCTAssertLessThanOrEqual(abs(v - last), lastStep + 1e-9)
      lastStep = abs(v - last)
      last = v
    }
    XCTAssertEqual(last, -105, accuracy: 1e-9)
    XCTAssertEqual(Curve.decay(tau: tau).progress(0, duration: 4 * tau), 0)
    XCTAssertEqual(Curve.decay(tau: tau).progress(4 * tau, duration: 4 * tau), 1)
  }

  func testADelayHoldsTheValueThenMoves() {
    var a = Animated(1.0)
    a.set(0, at: 2, Transition(duration: 0.4, curve: .easeInOut, delay: 0.25))
    XCTAssertEqual(a.value(at: 2.2), 1)
    XCTAssertTrue(a.isAnimating(at: 2.2))
    XCTAssertEqual(a.value(at: 2.45), 0.5, accuracy: 1e-9)
    XCTAssertEqual(a.value(at: 2.65), 0)
    XCTAssertFalse(a.isAnimating(at: 2.66))
  }

  func testTheRubberBandSqueezesOvershoot() {
    XCTAssertEqual(rubberBand(0.5, 0, 1, margin: 0.1), 0.5)
    XCTAssertEqual(rubberBand(1, 0, 1, margin: 0.1), 1)
    XCTAssertEqual(rubberBand(0, 0, 1, margin: 0.1), 0)
    // Past an end by much more than the margin: never more than the margin.
    XCTAssertLessThanOrEqual(rubberBand(5, 0, 1, margin: 0.1), 1.1)
    XCTAssertGreaterThanOrEqual(rubberBand(-5, 0, 1, margin: 0.1), -0.1)
    // Leaving the end at its own speed: slope 1 at the end, less further out.
    XCTAssertEqual((rubberBand(1 + 1e-6, 0, 1, margin: 0.1) - 1) / 1e-6, 1, accuracy: 1e-4)
    XCTAssertLessThan(rubberBand(1.1, 0, 1, margin: 0.1), 1.1)
    XCTAssertGreaterThan(rubberBand(1.1, 0, 1, margin: 0.1), rubberBand(1.05, 0, 1, margin: 0.1))
    XCTAssertEqual(rubberBand(3, 0, 1, margin: 0), 1)
  }

  func releaseVelocity(_ events: [PointerEvent]) -> Point? {
    var r = GestureRecognizer()
    for e in events {
      for g in r.feed(e) {
        if case .dragEnded(_, _, let v) = g { return v }
        if case .heldDragEnded(_, _, let v) = g { return v }
      }
    }
    return nil
  }

  func testTheReleaseVelocityIsTheHandsSpeedWhenItLetsGo() throws {
    let dt = 1.0 / 30
    // A flick lets go at 240 px / 0.3 s = 800 px/s.
    let flick = try XCTUnwrap(releaseVelocity(SyntheticPointer.drag(from: Point(0, 0), to: Point(0, -240), start: 0, duration: 0.3, hold: 0, dt: dt, flick: true)))
    XCTAssertEqual(flick.y, -800, accuracy: 1)
    XCTAssertEqual(flick.x, 0, accuracy: 1e-9)
    // A hand that slows to a stop throws (almost) nothing ...
    let stop = try XCTUnwrap(releaseVelocity(SyntheticPointer.drag(from: Point(0, 0), to: Point(0, -240), start: 0, duration: 0.3, hold: 0, dt: dt)))
    XCTAssertLessThan(abs(stop.y), 60)
    // ... and never backwards.
    XCTAssertLessThanOrEqual(stop.y, 0)
    // Two samples: a straight line.
    let two = [PointerEvent(.down, Point(0, 0), at: 0), PointerEvent(.move, Point(30, 0), at: 0.05), PointerEvent(.up, Point(30, 0), at: 0.05)]
    XCTAssertEqual(try XCTUnwrap(releaseVelocity(two)).x, 600, accuracy: 1e-6)
  }

  /// A live hand as SDL delivers it: a move every 8 ms, handed to the scene in bursts at the
  /// loop's 30 fps ticks (the scene time of every event of a burst is that tick's), each with
  /// the device's own time; the button goes up `release` s after the last move, where it was.
  func liveThrow(speed: Double, release: Double, moving: Double = 0.2) -> [PointerEvent] {
    let dt = 1.0 / 30, device = 500.0  // SDL's clock has another origin than the scene's
    func tick(_ wall: Double) -> Double { (wall / dt).rounded(.up) * dt }
    var out = [PointerEvent(.down, Point(100, 400), at: tick(0.31), timestamp: device + 0.31)]
    var t = 0.008
    while t <= moving + 1e-9 {
      out.append(PointerEvent(.move, Point(100, 400 - speed * t), at: tick(0.31 + t), timestamp: device + 0.31 + t))
      t += 0.008
    }
    let last = out.last!
    let wall = last.timestamp! - device + release
    out.append(PointerEvent(.up, last.location, at: tick(wall), timestamp: device + wall))
    return out
  }

  func testTheReleaseSpeedIsTheHandsOnTheEventsOwnTimesDeliveredInBursts() throws {
    for release in [0.0, 0.003, 0.012, 0.03] {
      let v = try XCTUnwrap(releaseVelocity(liveThrow(speed: 1000, release: release)))
      XCTAssertEqual(v.y, -1000, accuracy: 150, "let go \(release) s after the last move")
      XCTAssertEqual(v.x, 0, accuracy: 1e-6)
    }
    // A hand that stopped before letting go throws nothing.
    XCTAssertEqual(try XCTUnwrap(releaseVelocity(liveThrow(speed: 1000, release: 0.08))), .zero)
    // Without the device's times (every event of a tick at the tick's time) the estimate is
    // what the scene clock can tell: still a throw, never backwards.
    let ticksOnly = liveThrow(speed: 1000, release: 0.003).map { PointerEvent($0.phase, $0.location, at: $0.time) }
    XCTAssertLessThan(try XCTUnwrap(releaseVelocity(ticksOnly)).y, -500)
  }

  func testAReplayedThrowLetsGoAtTheRecordedSpeed() throws {
    let v = try XCTUnwrap(releaseVelocity(SyntheticPointer.drag(from: Point(0, 0), to: Point(0, -130), start: 0, duration: 0.133, hold: 0, dt: 1.0 / 30, velocity: Point(3, -912.5))))
    XCTAssertEqual(v, Point(3, -912.5))
    // The release that moves is a sample of its own.
    let moved = [PointerEvent(.down, Point(0, 0), at: 0), PointerEvent(.move, Point(20, 0), at: 0.02), PointerEvent(.move, Point(40, 0), at: 0.04),
                 PointerEvent(.up, Point(60, 0), at: 0.06)]
    XCTAssertEqual(try XCTUnwrap(releaseVelocity(moved)).x, 1000, accuracy: 1e-6)
  }
}
