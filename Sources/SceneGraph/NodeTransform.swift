import Drawing

// A node's transform as drawn, in one place: its offset and scale (`DrawnTransform`,
// `Node.transform`) and its 3D turn (`Drawing/Perspective`), forward (`toParent`: what
// `DisplayListBuilder` draws) and inverse (`fromParent`: hit testing). Drawing, hit testing,
// `point(of:)`, `--inspect` and lint all use these.

/// A scale and a move (what nodes' animated offsets and scales make): p ↦ p·scale + (tx, ty).
public struct DrawnTransform: Sendable, Equatable {
  public var scale = 1.0, tx = 0.0, ty = 0.0
  public init() {}
  public static let identity = DrawnTransform()

  /// This transform followed by the node's own (`Node.transform`).
  public func then(_ n: Node) -> DrawnTransform {
    let own = n.transform
    var out = DrawnTransform()
    out.scale = scale * own.scale
    out.tx = scale * own.tx + tx
    out.ty = scale * own.ty + ty
    return out
  }

  public func apply(_ r: Rect) -> Rect { Rect(r.x * scale + tx, r.y * scale + ty, r.width * scale, r.height * scale) }
  public func apply(_ p: Point) -> Point { Point(p.x * scale + tx, p.y * scale + ty) }
  /// The point this transform takes to `p`.
  public func inverse(_ p: Point) -> Point { Point((p.x - tx) / max(1e-6, scale), (p.y - ty) / max(1e-6, scale)) }
}

extension Node {
  /// The node's own drawing transform (before its 3D turn): its style's and its placement's
  /// offsets, then their scales about the frame's centre — p ↦ k·(p − c) + c + d. Drawing,
  /// hit testing, `--inspect` and lint all use this one.
  public var transform: DrawnTransform {
    let s = style, p = placement
    let k = s.scale * p.scale
    let c = frame.center
    var out = DrawnTransform()
    out.scale = k
    out.tx = c.x - k * c.x + s.offset.x + p.offset.x
    out.ty = c.y - k * c.y + s.offset.y + p.offset.y
    return out
  }
}

extension Node {
  /// The node's 3D turn as drawn: its perspective and whether it turns about the horizontal
  /// axis (nil when flat).
  public var projection: (perspective: Perspective, aboutX: Bool)? {
    guard let turn = drawnTurn else { return nil }
    return (Perspective(angle: turn.angle, perspective: turn.perspective), turn.aboutX)
  }

  /// A point in the node's layout coordinates as drawn in its parent's: turned in 3D about
  /// its frame's centre, then offset and scaled (`transform`).
  public func toParent(_ q: Point) -> Point {
    var p = q
    if case let (persp, aboutX)? = projection {
      let c = frame.center
      // About the horizontal axis the roles of x and y swap.
      let (u, v) = aboutX ? (p.y - c.y, p.x - c.x) : (p.x - c.x, p.y - c.y)
      let (a, b) = persp.forward(u: u, v: v)
      p = aboutX ? Point(c.x + b, c.y + a) : Point(c.x + a, c.y + b)
    }
    return transform.apply(p)
  }

  /// The inverse of `toParent`: a point of the parent's coordinates in the node's layout
  /// coordinates (the point need not be over the node).
  public func fromParent(_ q: Point) -> Point {
    let flat = transform.inverse(q)
    guard case let (persp, aboutX)? = projection else { return flat }
    let c = frame.center
    let (a, b) = aboutX ? (flat.y - c.y, flat.x - c.x) : (flat.x - c.x, flat.y - c.y)
    let (u, v) = persp.inverse(a: a, b: b)
    return aboutX ? Point(c.x + v, c.y + u) : Point(c.x + u, c.y + v)
  }
}
