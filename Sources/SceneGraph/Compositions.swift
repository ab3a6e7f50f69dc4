import Drawing

/// What layout decides about how a child is drawn inside a composition (a carousel item's
/// turn, a deeper card's scale): applied on top of the child's own style.
public struct Placement: Sendable, Equatable {
  /// Degrees about the vertical axis.
  public var turn = 0.0
  public var opacity = 1.0
  public var scale = 1.0
  public var offset = Point.zero
  /// Place in a stack of cards (0 = front; fractional while moving).
  public var depth = 0.0
  /// Drawn at all (a list row out of view, a card deep in the stack, an unselected tab).
  public var visible = true
  /// A card that has just passed behind the front card: how much of it is still drawn over
  /// that card (1 → 0 as it goes deeper), so it dissolves behind it instead of swapping
  /// places in one frame.
  public var passing = 0.0
  /// Draw and hit order among the children of a `cs.view` (higher in front; equal: later child).
  public var z = 0.0
  /// Drawn clipped to its frame (rounded by its corner radius).
  public var clip = false
  /// The turn's axis (about the horizontal one when true) and perspective, when a `cs.view`
  /// layout gives them (`turn` holds the angle).
  public var turnAboutX = false
  public var perspective: Double?
  /// A chart shown full-size in a sheet over the whole scene (a card opened): how far the
  /// sheet has slid up, 0 (not shown) to 1.
  public var sheet = 0.0
  /// The sheet is open: it takes every press (its chart's parts, or the composition's handlers
  /// with `e.sheet`).
  public var modal = false
  /// A child removed from its `cs.view`, drawn while it leaves: no press reaches it.
  public var leaving = false
  public init() {}
  public static let normal = Placement()
}

extension Node {
  /// The 3D turn drawn: the style's `rotation3d` and the placement's turn together (angles
  /// add; the style's axis and perspective win), nil when flat.
  public var drawnTurn: (angle: Double, aboutX: Bool, perspective: Double)? {
    let angle = placement.turn + (style.rotation3d?.angle ?? 0)
    guard angle != 0 else { return nil }
    if let r = style.rotation3d { return (angle, abs(r.axis.0) > abs(r.axis.1), r.perspective) }
    return (angle, placement.turnAboutX, placement.perspective ?? 1000)
  }
}

/// `cs.view{}`: a composition written in Lua. The script's `layout` places the children from
/// the view's state; the host calls it when the state or the size changes, or while a state
/// number moves (`cs.animate`), and keeps the answer otherwise.
public struct ViewSpec {
  /// The name `--inspect` shows as `kind`: `view`, or the module's (`list`, `carousel`).
  public var name: String
  /// Options a preset may fill (the preset's section is `name`): what the script gave, by key.
  public var options: [String: PresetValue] = [:]
  /// The options the script gave itself (a preset fills in only the others).
  public var explicitOptions: Set<String> = []
  /// Children are clipped to the content frame.
  public var clips = false
  /// The axis along which this view's drag handler scrolls it: a drag along it that starts on
  /// a chart's plot inside (or on a view without a drag handler) comes here instead.
  public var scrolls: ScrollAxis?
  /// Places the children (see `ViewLayout`).
  public var layout: ViewLayout?
  /// What the view draws itself (behind its children), in content coordinates, for a
  /// content size at a time (`draw = function(self, g, w, h, t)`).
  public var draw: ((Double, Double, Double, Theme) throws -> [DisplayItem])?
  /// Fields `--inspect` shows for the view at a time (its state), after `drawn`.
  public var inspect: ((Double) -> [(String, OrderedJSON)])?
  public init(name: String) { self.name = name }
}

public enum ScrollAxis: String, Sendable, CaseIterable { case vertical, horizontal }

/// Where a `cs.view` layout puts one child (every field optional; nil: the default).
public struct ChildLayout: Sendable, Equatable {
  /// In the view's content coordinates (0, 0 at its content frame's top left); nil: all of it.
  public var frame: Rect?
  public var offset = Point.zero
  public var scale = 1.0
  public var opacity = 1.0
  public var turn = 0.0
  public var turnAboutX = false
  public var perspective: Double?
  public var z = 0.0
  public var hidden = false
  public var clip = false
  /// Place in a stack (0 = front): a card is dimmed by it, and a child `passing` dissolves
  /// into the front one (see `Placement`).
  public var depth = 0.0
  public var passing = 0.0
  public var sheet = 0.0
  public var modal = false
  public init() {}
}

/// A `cs.view`'s layout function and what it last answered. `compute(width, height, t)`
/// calls the script; `generation` counts state changes and `movingUntil` is when the last
/// state number started by `cs.animate` settles: between two calls with the same size and
/// generation, when nothing moved, the answer is reused (a still frame calls no Lua).
public final class ViewLayout {
  let compute: (Double, Double, Double) throws -> [ChildLayout]
  public var generation = 0
  public var movingUntil = -Double.infinity
  var cached: (width: Double, height: Double, generation: Int, t: Double, children: [ChildLayout])?
  /// How many times the script was called (for tests and timing).
  public private(set) var calls = 0
  /// The children's motions by identity still running (ChildMotion.swift).
  public var motions: [ChildMotion] = []
  /// Children removed inside `cs.animate`, leaving (the last of the view's children, in order).
  public var leaving: [LeavingChild] = []
  /// The content size laid out last (nil before the first layout).
  public var size: Size? { cached.map { Size($0.width, $0.height) } }

  public init(compute: @escaping (Double, Double, Double) throws -> [ChildLayout]) { self.compute = compute }

  /// A state change: the next layout calls the script.
  public func invalidate(movingUntil end: Double? = nil) {
    generation &+= 1
    if let end { movingUntil = max(movingUntil, end) }
  }

  /// The records the state gives for a content size at t (the script's answer, reused when
  /// nothing changed), before any motion by identity.
  public func children(width: Double, height: Double, t: Double) throws -> [ChildLayout] {
    if let c = cached, c.width == width, c.height == height, c.generation == generation,
      c.t == t || (c.t >= movingUntil && t >= movingUntil)
    {
      return c.children
    }
    calls += 1
    let out = try compute(width, height, t)
    cached = (width, height, generation, t, out)
    return out
  }
}

/// Metrics of the host's chrome for compositions.
public enum CompositionMetrics {
  /// Inset of the modal sheet from the scene's edges.
  public static let modalInsets = Insets(top: 56, left: 12, bottom: 24, right: 12)
}
