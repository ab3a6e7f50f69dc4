import Drawing
import Gestures
import XCTest

final class GestureRecognizerTests: XCTestCase {
  func run(_ events: [PointerEvent], ticks: [Double] = []) -> [Gesture] {
    var r = GestureRecognizer()
    var out: [Gesture] = []
    var pending = ticks
    for e in events {
      while let t = pending.first, t < e.time { out += r.tick(t); pending.removeFirst() }
      out += r.feed(e)
    }
    return out
  }

  func testTap() {
    let g = run(SyntheticPointer.tap(at: Point(5, 5), start: 1, dt: 1.0 / 60))
    XCTAssertEqual(g, [.tap(Point(5, 5))])
  }

  func testSlowReleaseIsNotATapAndLongPressNeedsTime() {
    let slow = run([PointerEvent(.down, Point(0, 0), at: 0), PointerEvent(.up, Point(0, 0), at: 0.4)])
    XCTAssertEqual(slow, [.cancelled])
    let long = run(SyntheticPointer.longPress(at: Point(1, 1), start: 0, duration: 0.6, dt: 0.1))
    XCTAssertEqual(long, [.longPressBegan(Point(1, 1)), .longPressEnded(Point(1, 1))])
  }

  func testSmallMovesStayATapBigMovesBecomeADrag() {
    let jitter = run([PointerEvent(.down, Point(0, 0), at: 0), PointerEvent(.move, Point(6, 6), at: 0.05), PointerEvent(.up, Point(6, 6), at: 0.1)])
    XCTAssertEqual(jitter, [.tap(Point(0, 0))])
    let drag = run(SyntheticPointer.drag(from: Point(0, 0), to: Point(100, 0), start: 0, duration: 0.2, hold: 0, dt: 0.05))
    XCTAssertEqual(drag.first, .dragBegan(start: Point(0, 0)))
    guard case .dragEnded(_, let end, let v)? = drag.last else { return XCTFail("\(drag)") }
    XCTAssertEqual(end, Point(100, 0))
    XCTAssertGreaterThanOrEqual(v.x, 0)
    XCTAssertFalse(drag.contains(.longPressBegan(Point(0, 0))))
  }

  func testHoldThenDragIsTheSequencedGesture() {
    let g = run(SyntheticPointer.drag(from: Point(10, 10), to: Point(10, 300), start: 0, duration: 0.4, hold: 0.55, dt: 1.0 / 60))
    XCTAssertEqual(g.first, .longPressBegan(Point(10, 10)))
    XCTAssertTrue(g.contains(.heldDragBegan(start: Point(10, 10))))
    guard case .heldDragEnded(_, let end, _)? = g.last else { return XCTFail("\(g)") }
    XCTAssertEqual(end, Point(10, 300))
    // Held too briefly: an ordinary drag.
    let short = run(SyntheticPointer.drag(from: Point(10, 10), to: Point(10, 300), start: 0, duration: 0.4, hold: 0.2, dt: 1.0 / 60))
    XCTAssertEqual(short.first, .dragBegan(start: Point(10, 10)))
  }

  func testScroll() {
    let g = run(SyntheticPointer.scroll(at: Point(1, 2), by: Point(0, 90), start: 0, duration: 0.05, dt: 1.0 / 60))
    XCTAssertEqual(g.count, 3)
    XCTAssertEqual(g.first, .scroll(Point(1, 2), dx: 0, dy: 30))
  }
}
