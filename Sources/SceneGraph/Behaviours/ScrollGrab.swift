import Drawing
import Gestures
import Motion

/// A composition that scrolls along one axis (`cs.list`, `cs.carousel`): where its offset
/// is kept, how far it goes and where a flick comes to rest.
protocol Scrolling: Behaviour {
  var horizontal: Bool { get }
  /// The model's scroll offset (nil: `node` is not this composition).
  func offset(_ node: Node) -> Double?
  func setOffset(_ node: Node, _ value: Double)
  /// The largest offset: the content's length past the view.
  func maxScroll(_ node: Node) -> Double
  /// Where a flick that would end at `target` comes to rest (a carousel snaps to an item).
  func rest(_ node: Node, _ target: Double) -> Double
  /// A touch stops it where it is (a list); false for one that must come to rest at an
  /// item (a carousel keeps snapping).
  var catches: Bool { get }
}

extension Scrolling {
  func rest(_ node: Node, _ target: Double) -> Double { target }
  var catches: Bool { true }

  func grab(_ node: Node, at local: Point, chain: [(Node, Point)], _ i: Interaction) -> Grab? { scroller(node, i) }

  func scroller(_ node: Node, _ i: Interaction) -> Scroller? {
    offset(node) == nil ? nil : ScrollGrab(node: node, scrolling: self, i)
  }
}

/// A press on (or handed over to) a scroll container: it scrolls with a drag or a wheel,
/// and keeps going after a flick.
final class ScrollGrab: Scroller {
  var isContainer: Bool { true }
  let node: Node
  let scrolling: Scrolling
  unowned let i: Interaction
  /// The offset when the drag began.
  var dragStart: Double?

  init(node: Node, scrolling: Scrolling, _ i: Interaction) { self.node = node; self.scrolling = scrolling; self.i = i }

  /// The time constant of a flick's glide (s): it travels speed × glide before it stops.
  static let glide = 0.35
  /// The response of the spring that snaps to an item or an end (s).
  static let snapResponse = 0.45

  var name: String { node.id }
  var key: String { node.id + ".scroll" }

  /// True when a drag from a to b runs along the container's axis.
  func isAlong(_ a: Point, _ b: Point) -> Bool {
    scrolling.horizontal ? abs(b.x - a.x) > abs(b.y - a.y) : abs(b.y - a.y) > abs(b.x - a.x)
  }

  /// A finger that touches a gliding list catches it: it stops where it is (not while it
  /// swings past an end: that comes back first).
  func pressed() {
    let p = i.p
    guard scrolling.catches, p.isAnimating(key, at: i.now), scrolling.offset(node) != nil else { return }
    let here = p.number(key, initial: 0, at: i.now)
    guard here >= 0, here <= scrolling.maxScroll(node) else { return }
    scrolling.setOffset(node, here)
    p.setNumber(key, here, initial: here, .immediate)
  }

  func handle(_ g: Gesture) {
    guard let model = scrolling.offset(node) else { return }
    let p = i.p
    let horizontal = scrolling.horizontal
    let current = p.number(key, initial: model, at: i.now)
    func set(_ value: Double, _ transition: Transition, velocity: Double? = nil) {
      let clamped = max(0, min(value, scrolling.maxScroll(node)))
      scrolling.setOffset(node, clamped)
      p.setNumber(key, clamped, initial: current, transition, velocity: velocity)
    }
    switch g {
    case .dragBegan:
      dragStart = current
    case .dragChanged(let a, let b):
      let d = horizontal ? b.x - a.x : b.y - a.y
      set((dragStart ?? current) - d, .immediate)
    case .dragEnded(_, _, let v):
      // The content leaves the hand at the hand's speed (it moves against the finger) and
      // glides on, slowing down, for `glide` seconds' worth of that speed. Where it must
      // come to rest elsewhere (a carousel's item, an end), a spring takes it there from
      // that speed, overshooting softly.
      let speed = -(horizontal ? v.x : v.y)
      let natural = current + speed * ScrollGrab.glide
      let rest = max(0, min(scrolling.rest(node, natural), scrolling.maxScroll(node)))
      if abs(rest - natural) < 0.5 {
        set(natural, .decay(tau: ScrollGrab.glide), velocity: speed)
      } else {
        set(rest, .spring(response: ScrollGrab.snapResponse), velocity: speed)
      }
    case .scroll(_, let dx, let dy):
      let base = p.target(key) ?? current
      set(base + (horizontal ? (dx != 0 ? dx : dy) : dy), Transition(duration: 0.15, curve: .linear))
    default: break
    }
  }
}
