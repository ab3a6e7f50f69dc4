#if canImport(Glibc)
import Glibc
#endif

@inline(__always) func expApprox(_ x: Double) -> Double { exp(x) }
@inline(__always) func sinApprox(_ x: Double) -> Double { sin(x) }
@inline(__always) func cosApprox(_ x: Double) -> Double { cos(x) }

/// Keeps `x` within [lo, hi] softly, like a rubber band at the end of a scroll view: inside
/// the range it is unchanged; past an end the overshoot is squeezed (`margin × tanh(over /
/// margin)`), so the value leaves the end at its own speed, never goes more than `margin`
/// past it and comes back without stopping at a wall. At rest on an end it is exactly the
/// end.
public func rubberBand(_ x: Double, _ lo: Double, _ hi: Double, margin: Double) -> Double {
  guard lo <= hi else { return lo }
  let m = max(0, margin)
  if x > hi { return m > 0 ? hi + m * tanh((x - hi) / m) : hi }
  if x < lo { return m > 0 ? lo - m * tanh((lo - x) / m) : lo }
  return x
}
