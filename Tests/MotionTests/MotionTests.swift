import Motion
import XCTest

final class MotionTests: XCTestCase {
  func testClock() {
    let c = Clock(fps: 30, duration: 2)
    XCTAssertEqual(c.frameCount, 60)
    XCTAssertEqual(c.time(ofFrame: 45), 1.5)
    XCTAssertEqual(c.frame(at: 1.5), 45)
    XCTAssertEqual(Clock(fps: 60, duration: 0).frameCount, 1)
    XCTAssertEqual(Clock(fps: 24, duration: 0.1).frameCount, 3)
  }

  func testCurvesStartAtZeroAndEndAtOne() {
    for curve in [Curve.linear, .easeInOut, .spring(response: 0.4)] {
      XCTAssertEqual(curve.progress(0, duration: 1), 0, accuracy: 1e-9, "\(curve)")
      XCTAssertEqual(curve.progress(1, duration: 1), 1, accuracy: 1e-9, "\(curve)")
      XCTAssertEqual(curve.progress(5, duration: 1), 1, accuracy: 1e-9)
    }
    XCTAssertEqual(Curve.easeInOut.progress(0.5, duration: 1), 0.5, accuracy: 1e-9)
    XCTAssertLessThan(Curve.easeInOut.progress(0.25, duration: 1), 0.25)
    // A spring overshoots a little before it settles.
    let peak = stride(from: 0.0, to: 1, by: 0.01).map { Curve.spring(response: 0.4).progress($0, duration: 1) }.max()!
    XCTAssertGreaterThan(peak, 1)
    XCTAssertLessThan(peak, 1.1)
  }

  func testAnimatedValuesContinueFromWhatIsShown() {
    var v = Animated(0.0)
    v.set(10, at: 1, Transition(duration: 1, curve: .linear))
    XCTAssertEqual(v.value(at: 0.5), 0)
    XCTAssertEqual(v.value(at: 1.5), 5)
    XCTAssertTrue(v.isAnimating(at: 1.5))
    // Interrupted halfway: the new animation starts from 5.
    v.set(0, at: 1.5, Transition(duration: 1, curve: .linear))
    XCTAssertEqual(v.value(at: 1.5), 5)
    XCTAssertEqual(v.value(at: 2), 2.5)
    XCTAssertEqual(v.value(at: 3), 0)
    XCTAssertFalse(v.isAnimating(at: 3))
    v.set(7, at: 4, .immediate)
    XCTAssertEqual(v.value(at: 4), 7)
    var p = Animated(Pair(0, 100))
    p.set(Pair(50, 200), at: 0, Transition(duration: 2, curve: .linear))
    XCTAssertEqual(p.value(at: 1), Pair(25, 150))
  }
}
