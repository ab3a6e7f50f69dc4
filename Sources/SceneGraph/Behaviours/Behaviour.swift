import Drawing
import Gestures

/// A built-in response to pointer input: a chart's parts (`ChartBehaviour`) and a script's
/// handlers (`HandlerBehaviour`, which is how every composition — all written in Lua —
/// reacts). `Interaction` hit-tests a press and asks each behaviour, innermost node first,
/// what the press takes hold of; the gestures of that press then go to the returned `Grab`.
/// Behaviours are stateless; a grab holds what one press needs.
protocol Behaviour {
  /// What a press at `local` (in `node`'s layout coordinates) takes hold of; nil when this
  /// behaviour does not own `node` or the press is not on one of its controls (the press
  /// then goes to the node's ancestors). `chain` is the whole hit chain, root first.
  func grab(_ node: Node, at local: Point, chain: [(Node, Point)], _ i: Interaction) -> Grab?
  /// A grab that takes a press at a scene point before hit testing (an open sheet).
  func capture(at point: Point, _ i: Interaction) -> Grab?
  /// When `node` scrolls: the grab a drag along its axis, or a wheel, hands over to.
  func scroller(_ node: Node, _ i: Interaction) -> Scroller?
}

extension Behaviour {
  func capture(at point: Point, _ i: Interaction) -> Grab? { nil }
  func scroller(_ node: Node, _ i: Interaction) -> Scroller? { nil }
}

/// What one press took hold of; receives that press's gestures until the pointer goes up.
protocol Grab: AnyObject {
  /// A name for what was grabbed (`c.minimap.window`, `deck`), for recorded gestures.
  var name: String { get }
  /// True when a drag along a surrounding scroll container's axis scrolls the container
  /// instead (a chart's plot inside a list); false for controls of their own.
  var yieldsToScroll: Bool { get }
  /// The pointer went down on it (before any gesture is recognised).
  func pressed()
  func handle(_ g: Gesture)
}

extension Grab {
  var yieldsToScroll: Bool { false }
  func pressed() {}
}

/// A grab that scrolls a container: a drag along its axis that began on something inside
/// that yields (a chart's plot) is handed to it.
protocol Scroller: Grab {
  /// True when a drag from a to b runs along the container's axis.
  func isAlong(_ a: Point, _ b: Point) -> Bool
  /// True when this grab is the container itself (a press on its background).
  var isContainer: Bool { get }
}
