/// Device-pixel counts and positions from doubles that may be huge or not finite (a 3D
/// turn seen almost edge-on, an extreme scale): `Int32(d)` and `Int(d)` trap on those.
enum DevicePixels {
  /// `d` as an Int32 when it is finite and within ±2^30, else nil.
  static func int32(_ d: Double) -> Int32? {
    guard d.isFinite, abs(d) < Double(1 << 30) else { return nil }
    return Int32(d)
  }

  /// `d` clamped to ±`bound` (nil when it is NaN): for a range of pixels to visit, where
  /// pixels far outside any image draw nothing.
  static func clamped(_ d: Double, bound: Double = 65536) -> Int? {
    guard !d.isNaN else { return nil }
    return Int(max(-bound, min(bound, d)))
  }
}
