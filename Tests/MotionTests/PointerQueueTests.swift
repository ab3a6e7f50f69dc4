import Drawing
import Gestures
import XCTest

/// The timeline's pointer queue gives events by time, and in the order they were added
/// when times are equal: the same order as a stable sort of everything added.
final class PointerQueueTests: XCTestCase {
  func testOrderIsAStableSortByTime() {
    var rng = SystemRandomNumberGenerator()
    var q = PointerQueue()
    var added: [PointerEvent] = []
    var taken: [PointerEvent] = []
    for round in 0..<200 {
      // Gestures start at increasing times and overlap; some times repeat exactly.
      let start = Double(round) * 0.05
      let events = SyntheticPointer.drag(from: Point(Double(round), 0), to: Point(0, Double(round)), start: start, duration: Double.random(in: 0...1, using: &rng), hold: 0, dt: 0.05)
      q.add(contentsOf: events)
      added += events
      // Take what is due by now, as the simulation does each tick.
      while let e = q.first, e.time < start + 0.025 { taken.append(q.removeFirst()) }
    }
    while !q.isEmpty { taken.append(q.removeFirst()) }
    XCTAssertEqual(taken.count, added.count)
    let sorted = added.enumerated().sorted { ($0.element.time, $0.offset) < ($1.element.time, $1.offset) }.map(\.element)
    XCTAssertEqual(taken, sorted)
  }
}
