import Glibc

/// The perspective of a `Layer3D` (and of a node turned in 3D), forward and inverse: the one
/// implementation the painter, hit testing and `point(of:)` share, so a press lands on what is
/// drawn. Coordinates are offsets from the turning axis through the layer's centre: `u` along
/// the turning direction (x for a turn about the vertical axis, y about the horizontal one),
/// `v` across it.
public struct Perspective: Sendable, Equatable {
  /// The turn's sine and cosine, and the eye's distance (at least 1 pixel).
  public let sinT: Double, cosT: Double, distance: Double

  /// A turn of `angle` degrees (positive: the right or bottom edge goes away), seen from
  /// `perspective` pixels.
  public init(angle: Double, perspective: Double) {
    let theta = angle * Double.pi / 180
    sinT = sin(theta)
    cosT = cos(theta)
    distance = max(1, perspective)
  }

  /// How much a point `u` along the layer is scaled by its depth (across the turning
  /// direction, and along it on top of the turn's cosine).
  public func depthScale(_ u: Double) -> Double { distance / max(1, distance + u * sinT) }

  /// Where a point `u` along the flat layer is drawn (an offset from the centre).
  public func along(_ u: Double) -> Double { u * cosT * depthScale(u) }

  /// The inverse of `along`: the point of the flat layer drawn at offset `a`.
  public func source(_ a: Double) -> Double { a * distance / max(1e-9, distance * cosT - a * sinT) }

  /// A point of the flat layer (`u` along, `v` across) as drawn.
  public func forward(u: Double, v: Double) -> (a: Double, b: Double) {
    let k = depthScale(u)
    return (u * cosT * k, v * k)
  }

  /// The point of the flat layer drawn at (`a` along, `b` across): the inverse of `forward`.
  public func inverse(a: Double, b: Double) -> (u: Double, v: Double) {
    let u = source(a)
    return (u, b / depthScale(u))
  }
}

extension Layer3D {
  /// The layer's perspective.
  public var projection: Perspective { Perspective(angle: angle, perspective: perspective) }
}
