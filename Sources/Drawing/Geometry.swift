/// A point in scene pixels.
public struct Point: Sendable, Equatable, Hashable {
  public var x: Double
  public var y: Double
  public init(_ x: Double, _ y: Double) { self.x = x; self.y = y }
  public static let zero = Point(0, 0)
}

/// A size in scene pixels.
public struct Size: Sendable, Equatable, Hashable {
  public var width: Double
  public var height: Double
  public init(_ width: Double, _ height: Double) { self.width = width; self.height = height }
  public static let zero = Size(0, 0)
}

/// An axis-aligned rectangle in scene pixels.
public struct Rect: Sendable, Equatable, Hashable {
  public var x: Double
  public var y: Double
  public var width: Double
  public var height: Double
  public init(_ x: Double, _ y: Double, _ width: Double, _ height: Double) {
    self.x = x; self.y = y; self.width = width; self.height = height
  }
  public init(origin: Point, size: Size) { self.init(origin.x, origin.y, size.width, size.height) }
  public static let zero = Rect(0, 0, 0, 0)

  public var minX: Double { x }
  public var minY: Double { y }
  public var maxX: Double { x + width }
  public var maxY: Double { y + height }
  public var midX: Double { x + width / 2 }
  public var midY: Double { y + height / 2 }
  public var size: Size { Size(width, height) }
  public var center: Point { Point(midX, midY) }
  public var isEmpty: Bool { width <= 0 || height <= 0 }

  /// The rectangle shrunk by the given amounts on each side (never negative in size).
  public func inset(top: Double = 0, left: Double = 0, bottom: Double = 0, right: Double = 0) -> Rect {
    Rect(x + left, y + top, max(0, width - left - right), max(0, height - top - bottom))
  }
  public func inset(by d: Double) -> Rect { inset(top: d, left: d, bottom: d, right: d) }
  public func offsetBy(_ dx: Double, _ dy: Double) -> Rect { Rect(x + dx, y + dy, width, height) }
  public func contains(_ p: Point) -> Bool { p.x >= x && p.x <= maxX && p.y >= y && p.y <= maxY }
  public func intersects(_ r: Rect) -> Bool { r.x < maxX && r.maxX > x && r.y < maxY && r.maxY > y }
  /// True when `r` lies inside this rectangle (with a small tolerance for rounding).
  public func contains(_ r: Rect) -> Bool {
    r.x >= x - 1e-6 && r.y >= y - 1e-6 && r.maxX <= maxX + 1e-6 && r.maxY <= maxY + 1e-6
  }
}

/// An affine transform (cairo's xx, yx, xy, yy, x0, y0).
public struct Affine: Sendable, Equatable {
  public var a: Double, b: Double, c: Double, d: Double, tx: Double, ty: Double
  public init(a: Double, b: Double, c: Double, d: Double, tx: Double, ty: Double) {
    self.a = a; self.b = b; self.c = c; self.d = d; self.tx = tx; self.ty = ty
  }
  public static let identity = Affine(a: 1, b: 0, c: 0, d: 1, tx: 0, ty: 0)
  public static func translation(_ x: Double, _ y: Double) -> Affine { Affine(a: 1, b: 0, c: 0, d: 1, tx: x, ty: y) }
  public static func scale(_ sx: Double, _ sy: Double) -> Affine { Affine(a: sx, b: 0, c: 0, d: sy, tx: 0, ty: 0) }
  /// Scale by `s` about the point `p`.
  public static func scale(_ s: Double, about p: Point) -> Affine {
    Affine(a: s, b: 0, c: 0, d: s, tx: p.x - s * p.x, ty: p.y - s * p.y)
  }
  public var isIdentity: Bool { self == .identity }
  /// `self` followed by `b` applied inside it (as a nested pushTransform does, and
  /// cairo_transform: points go through `b`, then `self`).
  public func then(_ b: Affine) -> Affine {
    Affine(a: a * b.a + c * b.b, b: self.b * b.a + d * b.b, c: a * b.c + c * b.d, d: self.b * b.c + d * b.d,
           tx: a * b.tx + c * b.ty + tx, ty: self.b * b.tx + d * b.ty + ty)
  }
  public func apply(_ p: Point) -> Point { Point(a * p.x + c * p.y + tx, b * p.x + d * p.y + ty) }
  /// The bounding box of a rect under this transform.
  public func apply(_ r: Rect) -> Rect {
    let pts = [Point(r.x, r.y), Point(r.maxX, r.y), Point(r.x, r.maxY), Point(r.maxX, r.maxY)].map(apply)
    let xs = pts.map(\.x), ys = pts.map(\.y)
    return Rect(xs.min()!, ys.min()!, xs.max()! - xs.min()!, ys.max()! - ys.min()!)
  }
}

extension Int {
  /// `d` rounded toward zero and clamped to ±2^53, 0 for NaN: for every number a script or
  /// a data file controls that becomes a count or an index (`Int(d)` traps on 1e300, inf, NaN).
  @inlinable public init(saturating d: Double) {
    if d.isNaN { self = 0 } else { self = Int(Swift.max(-9.0e15, Swift.min(9.0e15, d))) }
  }
}

extension Rect {
  /// The largest side and offset a laid-out frame may have: beyond what any image shows
  /// (32768 px a side), small enough that every count derived from a frame stays small.
  public static let saneExtent = 1_048_576.0

  /// This rect inside the sane box: sides within 0...2^20, origin within ±2^30, no NaN.
  public var bounded: Rect {
    func side(_ v: Double) -> Double { v.isNaN ? 0 : Swift.max(0, Swift.min(Rect.saneExtent, v)) }
    func place(_ v: Double) -> Double { v.isNaN ? 0 : Swift.max(-1024 * Rect.saneExtent, Swift.min(1024 * Rect.saneExtent, v)) }
    return Rect(place(x), place(y), side(width), side(height))
  }
}
