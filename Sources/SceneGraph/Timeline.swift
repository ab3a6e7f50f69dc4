import Drawing

/// Where a scripted gesture happens: a node id or chart part (`deck`, `views.minimap.window`,
/// `views.legend.y0`), meaning its centre at the time the event starts, or a point.
public enum TimelineTarget: Sendable, Equatable {
  case id(String)
  case point(Point)
}

/// One entry of a scene's timeline (`cs.tap{}`, `cs.drag{}`, ... `cs.call{}`).
public struct TimelineEvent {
  public enum Kind {
    case tap
    case longPress(duration: Double)
    /// `by` or `to` (scene px); `from` overrides the target's centre.
    case drag(from: Point?, by: Point?, to: Point?, duration: Double, hold: Double)
    case scroll(by: Point, duration: Double)
    /// A scripted change; the function gets the scene.
    case call(() throws -> Void)
  }
  public var at: Double
  public var target: TimelineTarget?
  public var kind: Kind
  /// A drag that lets go while moving (`cs.drag{ flick = true }`).
  public var flick = false
  /// The speed a drag lets go at (`cs.drag{ velocity = {vx, vy} }`, a recorded throw's):
  /// what it drags carries on at exactly that speed.
  public var velocity: Point?
  /// `FILE:LINE:` of the call that made the event (for messages about it); empty if unknown.
  public var place = ""
  public init(at: Double, target: TimelineTarget?, kind: Kind) { self.at = at; self.target = target; self.kind = kind }

  /// The name of the constructor, for messages.
  public var name: String {
    switch kind {
    case .tap: "cs.tap"
    case .longPress: "cs.longpress"
    case .drag: "cs.drag"
    case .scroll: "cs.scroll"
    case .call: "cs.call"
    }
  }
}
