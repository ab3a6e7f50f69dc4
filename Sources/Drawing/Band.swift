/// A region that is one vertical interval at every x: between `top` and `bottom` (top ≤
/// bottom, y down) over `xs` (never decreasing), linear between samples. Two samples at one
/// x make a vertical step. A dense line's outline is made of these (`DenseLine`), so a
/// raster painter can fill it a pixel column at a time, with exact area coverage, instead of
/// scan-converting the polygon.
public struct Band: Sendable, Equatable {
  public var xs: [Double]
  public var top: [Double]
  public var bottom: [Double]
  public init(xs: [Double], top: [Double], bottom: [Double]) {
    precondition(xs.count == top.count && xs.count == bottom.count)
    self.xs = xs; self.top = top; self.bottom = bottom
  }
}
