import Drawing

/// The gestures a script's handler may take (`on = { tap = ..., longpress = ..., drag = ... }`).
public enum GestureKind: String, Sendable, CaseIterable {
  case tap, longpress, drag
  /// The pointer went down (before any gesture is known: a touch that stops a glide).
  case press
  /// A mouse wheel or trackpad scroll over the view (`e.dx`, `e.dy` in px).
  case scroll
}

/// What a handler is told: where, in the view's own coordinates (0, 0 at its frame's top
/// left), over which child, and for a drag how far and how fast (React Native's
/// PanResponder: dx, dy since the start, vx, vy in px/s).
public struct GestureEvent: Sendable, Equatable {
  public enum Phase: String, Sendable { case began, changed, ended, cancelled }
  public var kind: GestureKind
  public var x: Double
  public var y: Double
  /// The index (from 1) of the child under the point where the gesture began; nil if none.
  public var child: Int?
  /// The scene's time when it happened (s).
  public var time: Double
  public var phase: Phase?
  public var dx = 0.0, dy = 0.0, vx = 0.0, vy = 0.0
  /// A drag that a long press began (the cards' sequenced gesture).
  public var held = false
  /// The press was taken by an open sheet of this view (`modal`), `inside` it or not.
  public var sheet = false
  public var inside = false
  public init(kind: GestureKind, x: Double, y: Double, child: Int?, time: Double) {
    self.kind = kind; self.x = x; self.y = y; self.child = child; self.time = time
  }
}

/// A view's handlers: which gestures it takes, and the call into the script. The call
/// throws the script's error; `Interaction` keeps the first one for the host to report.
public struct GestureHandlers {
  public var kinds: Set<GestureKind>
  public var call: (GestureEvent) throws -> Void
  public init(kinds: Set<GestureKind>, call: @escaping (GestureEvent) throws -> Void) { self.kinds = kinds; self.call = call }
}
