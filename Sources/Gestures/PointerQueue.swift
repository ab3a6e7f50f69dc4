/// Pointer events waiting for their time: taken earliest first, and in the order they were
/// added when two have the same time. A binary heap, so a timeline of n gestures costs
/// O(n log n) however many overlap (a sorted array re-sorted per gesture was quadratic).
public struct PointerQueue {
  private var heap: [(event: PointerEvent, order: Int)] = []
  private var added = 0

  public init() {}

  public var isEmpty: Bool { heap.isEmpty }
  public var count: Int { heap.count }
  /// The next event, without taking it.
  public var first: PointerEvent? { heap.first?.event }

  public mutating func add(_ e: PointerEvent) {
    heap.append((e, added))
    added += 1
    var k = heap.count - 1
    while k > 0 {
      let parent = (k - 1) / 2
      guard before(k, parent) else { break }
      heap.swapAt(k, parent)
      k = parent
    }
  }

  public mutating func add(contentsOf events: [PointerEvent]) { for e in events { add(e) } }

  /// Takes the next event.
  public mutating func removeFirst() -> PointerEvent {
    let top = heap[0].event
    let last = heap.removeLast()
    if !heap.isEmpty {
      heap[0] = last
      var k = 0
      while true {
        let l = 2 * k + 1, r = l + 1
        var m = k
        if l < heap.count && before(l, m) { m = l }
        if r < heap.count && before(r, m) { m = r }
        if m == k { break }
        heap.swapAt(k, m)
        k = m
      }
    }
    return top
  }

  private func before(_ a: Int, _ b: Int) -> Bool {
    (heap[a].event.time, heap[a].order) < (heap[b].event.time, heap[b].order)
  }
}
