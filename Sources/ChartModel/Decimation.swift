import Drawing

/// Turns a line's points into polylines in pixel space, splitting at gaps and keeping at
/// most four points per pixel column (first, min, max, last, as uPlot does), so a path
/// never holds more than a few vertices per pixel however many points the data has.
public enum Decimation {
  /// Up to this many points, every point is drawn.
  public static let exactLimit = 4096

  public static func polylines(
    xs: [Double], ys: [Double], indices: Range<Int>,
    xToPixel: (Double) -> Double, yToPixel: (Double) -> Double, forceColumns: Bool = false
  ) -> [[Point]] {
    var out: [[Point]] = []
    var current: [Point] = []
    let decimate = forceColumns || indices.count > exactLimit
    var colX = Double.nan
    var first = 0.0, last = 0.0, lo = 0.0, hi = 0.0, loFirst = true
    func flushColumn() {
      guard !colX.isNaN else { return }
      current.append(Point(colX, yToPixel(first)))
      if loFirst {
        if lo != first { current.append(Point(colX, yToPixel(lo))) }
        if hi != lo { current.append(Point(colX, yToPixel(hi))) }
      } else {
        if hi != first { current.append(Point(colX, yToPixel(hi))) }
        if lo != hi { current.append(Point(colX, yToPixel(lo))) }
      }
      if last != (loFirst ? hi : lo) { current.append(Point(colX, yToPixel(last))) }
      colX = .nan
    }
    for i in indices where i < ys.count {
      let v = ys[i]
      if v.isNaN {
        flushColumn()
        if !current.isEmpty { out.append(current); current = [] }
        continue
      }
      let px = xToPixel(xs[i])
      if !decimate {
        current.append(Point(px, yToPixel(v)))
        continue
      }
      let column = px.rounded(.down)
      if column != colX {
        flushColumn()
        colX = column; first = v; last = v; lo = v; hi = v; loFirst = true
      } else {
        last = v
        if v < lo { lo = v; if hi == first { loFirst = true } }
        if v > hi { hi = v; if lo == first { loFirst = false } }
      }
    }
    flushColumn()
    if !current.isEmpty { out.append(current) }
    return out
  }
}
