import Drawing

/// A dense line as one filled outline instead of a stroke.
///
/// A window with more points than pixels arrives as polylines of up to four vertices per pixel
/// column (first, min, max, last) that turn back at every column; cairo stroking that zigzag
/// costs most of a frame. The stroke of a polyline whose x never decreases is, at every x, one
/// vertical interval (each piece of it — a segment's band, a join's bevel, an end's round cap —
/// is convex and touches the next), so it is the region between an upper and a lower edge.
/// `outline` samples both edges every half pixel (and on both sides of each band's sides) from those pieces, exactly as cairo strokes
/// with bevel joins and round caps, and walks them as one polygon (upper edge left to right,
/// lower edge back): the same pixels as the stroke, filled at a fraction of the cost. Gaps
/// stay breaks (one polygon per polyline). The path also carries both edges as `Band`s (one
/// per polygon), which a raster painter fills a pixel column at a time with exact coverage
/// (`CairoPainter+Band`), several times faster than scan-converting the polygon; SVG and PDF
/// get the polygon.
public enum DenseLine {
  /// Samples per pixel along x.
  static let samplesPerPixel = 2.0
  /// Pixels sampled beyond the visible range on either side.
  static let visibleMargin = 64.0

  /// The filled outline of `polylines` stroked at `width` with bevel joins and round caps, or nil
  /// when a polyline goes back in x (then it must be stroked). Polylines of one point are
  /// left out (the caller draws them as dots).
  ///
  /// `visible` is the x range that can be seen (the plot): the edges are sampled only there
  /// and a little beyond, so a polyline far wider than the plot costs no more than the plot.
  public static func outline(_ polylines: [[Point]], width: Double, visible: ClosedRange<Double>? = nil) -> Path? {
    let r = width / 2
    guard r > 0, r.isFinite else { return nil }
    var elements: [Path.Element] = []
    var bands: [Band] = []
    var top: [Double] = [], bottom: [Double] = []
    for pl in polylines where pl.count > 1 {
      var minX = pl[0].x, maxX = pl[0].x
      for k in 1..<pl.count {
        let x = pl[k].x
        guard x >= pl[k - 1].x, x.isFinite, pl[k].y.isFinite else { return nil }
        maxX = x
      }
      guard minX.isFinite, pl[0].y.isFinite else { return nil }
      minX -= r; maxX += r
      if let v = visible {
        // Past the margin nothing shows; the samples that remain keep their half-pixel grid.
        let lo = v.lowerBound - r - visibleMargin, hi = v.upperBound + r + visibleMargin
        if minX < lo { minX += ((lo - minX) / (1 / samplesPerPixel)).rounded(.down) / samplesPerPixel }
        if maxX > hi { maxX = hi }
        guard minX < maxX else { continue }
      }
      // Where the edges are sampled: every half pixel from the left end and from 2r past it,
      // so the sides of each column's band (at whole pixels from a vertex) fall on a sample;
      // each is evaluated just left and just right of its place, so those sides stay sharp.
      let step = 1 / samplesPerPixel, eps = 1e-7
      let shift = (2 * r).truncatingRemainder(dividingBy: step)
      var places: [Double] = []
      places.reserveCapacity(Int(saturating: (maxX - minX) / step * 2) + 4)
      var x0 = minX
      while x0 < maxX {
        places.append(x0)
        if shift > 1e-9 && step - shift > 1e-9 && x0 + shift < maxX { places.append(x0 + shift) }
        x0 += step
      }
      places.append(maxX)
      var xs: [Double] = [], at: [Double] = []
      xs.reserveCapacity(places.count * 2); at.reserveCapacity(places.count * 2)
      for p in places { xs.append(p); at.append(p - eps); xs.append(p); at.append(p + eps) }
      let n = at.count
      top = Array(repeating: .infinity, count: n)
      bottom = Array(repeating: -.infinity, count: n)
      let perStep = places.count > 1 && places[1] - places[0] < step - 1e-9 ? 4 : 2
      at.withUnsafeBufferPointer { at in
        top.withUnsafeMutableBufferPointer { top in
          bottom.withUnsafeMutableBufferPointer { bottom in
            var s = Samples(at: at, top: top, bottom: bottom, minX: minX, step: step, perStep: perStep, r: r)
            s.stroke(pl)
          }
        }
      }
      // The upper edge left to right, then the lower edge back, without vertices that lie
      // on the line through their neighbours.
      var edge: [Point] = []
      edge.reserveCapacity(n)
      func emit(_ p: Point) {
        if let last = edge.last, last == p { return }
        if edge.count >= 2 {
          let a = edge[edge.count - 2], b = edge[edge.count - 1]
          if abs((b.x - a.x) * (p.y - a.y) - (b.y - a.y) * (p.x - a.x)) < 1e-9 { edge[edge.count - 1] = p; return }
        }
        edge.append(p)
      }
      var bx: [Double] = [], bt: [Double] = [], bb: [Double] = []
      bx.reserveCapacity(n); bt.reserveCapacity(n); bb.reserveCapacity(n)
      for k in 0..<n where top[k] <= bottom[k] {
        emit(Point(xs[k], top[k]))
        bx.append(xs[k]); bt.append(top[k]); bb.append(bottom[k])
      }
      guard !edge.isEmpty else { continue }
      bands.append(Band(xs: bx, top: bt, bottom: bb))
      for k in stride(from: n - 1, through: 0, by: -1) where top[k] <= bottom[k] { emit(Point(xs[k], bottom[k])) }
      elements.reserveCapacity(elements.count + edge.count + 1)
      elements.append(.move(edge[0]))
      for p in edge.dropFirst() { elements.append(.line(p)) }
      elements.append(.close)
    }
    // The same region as bands: a raster painter fills those a pixel column at a time.
    return Path(elements: elements, bands: bands)
  }
}

/// One side of a convex polygon, for its vertical extent at an x.
private struct Edge {
  let x0, x1, px, py, qy, slope: Double
  let vertical: Bool
  @inline(__always) init(_ p: Point, _ q: Point) {
    x0 = Swift.min(p.x, q.x); x1 = Swift.max(p.x, q.x)
    px = p.x; py = p.y; qy = q.y
    vertical = p.x == q.x
    slope = vertical ? 0 : (q.y - p.y) / (q.x - p.x)
  }
  /// Widens t...u to where the side crosses x (both ends of a vertical side at its x).
  @inline(__always) func cut(_ x: Double, _ t: inout Double, _ u: inout Double) {
    guard x0 <= x, x <= x1 else { return }
    if vertical {
      t = Swift.min(t, py, qy); u = Swift.max(u, py, qy)
    } else {
      let y = py + (x - px) * slope
      t = Swift.min(t, y); u = Swift.max(u, y)
    }
  }
}

/// The samples of one polyline's upper and lower edges, and the pieces of its stroke that
/// widen them.
private struct Samples {
  let at: UnsafeBufferPointer<Double>
  let top: UnsafeMutableBufferPointer<Double>
  let bottom: UnsafeMutableBufferPointer<Double>
  let minX, step: Double
  let perStep: Int
  let r: Double
  var vertical: (x: Double, lo: Double, hi: Double)? = nil

  init(at: UnsafeBufferPointer<Double>, top: UnsafeMutableBufferPointer<Double>, bottom: UnsafeMutableBufferPointer<Double>,
       minX: Double, step: Double, perStep: Int, r: Double) {
    self.at = at; self.top = top; self.bottom = bottom; self.minX = minX; self.step = step; self.perStep = perStep; self.r = r
  }

  // The first sample at or after x, and the last at or before it: from where the regular
  // spacing puts it, a step or two either way.
  @inline(__always) func firstSample(atOrAfter x: Double) -> Int {
    let n = at.count
    var k = Swift.max(0, Swift.min(n, Int(saturating: ((x - minX) / step).rounded(.down)) * perStep))
    while k > 0 && at[k - 1] >= x { k -= 1 }
    while k < n && at[k] < x { k += 1 }
    return k
  }
  @inline(__always) func lastSample(atOrBefore x: Double) -> Int {
    let n = at.count
    var k = Swift.max(-1, Swift.min(n - 1, Int(saturating: ((x - minX) / step).rounded(.down)) * perStep))
    while k >= 0 && at[k] > x { k -= 1 }
    while k + 1 < n && at[k + 1] <= x { k += 1 }
    return k
  }

  /// The disc around a vertical segment x = cx, y in lo...hi (a point when lo == hi).
  func disc(_ cx: Double, _ lo: Double, _ hi: Double) {
    let a = firstSample(atOrAfter: cx - r), b = lastSample(atOrBefore: cx + r)
    guard a <= b else { return }
    for k in a...b {
      let d = at[k] - cx
      let h = (Swift.max(0, r * r - d * d)).squareRoot()
      if lo - h < top[k] { top[k] = lo - h }
      if hi + h > bottom[k] { bottom[k] = hi + h }
    }
  }

  /// A convex polygon's vertical extent at every sample it covers. (A triangle repeats a corner.)
  func convex(_ c0: Point, _ c1: Point, _ c2: Point, _ c3: Point) {
    let lo = Swift.min(c0.x, c1.x, c2.x, c3.x), hi = Swift.max(c0.x, c1.x, c2.x, c3.x)
    let a = firstSample(atOrAfter: lo), b = lastSample(atOrBefore: hi)
    guard a <= b else { return }
    let e0 = Edge(c0, c1), e1 = Edge(c1, c2), e2 = Edge(c2, c3), e3 = Edge(c3, c0)
    for k in a...b {
      let x = at[k]
      var t = top[k], u = bottom[k]
      e0.cut(x, &t, &u); e1.cut(x, &t, &u); e2.cut(x, &t, &u); e3.cut(x, &t, &u)
      top[k] = t; bottom[k] = u
    }
  }

  /// An upright rectangle: lo...hi at every sample from x0 to x1.
  func rect(_ x0: Double, _ x1: Double, _ lo: Double, _ hi: Double) {
    let a = firstSample(atOrAfter: x0), b = lastSample(atOrBefore: x1)
    guard a <= b else { return }
    for k in a...b {
      if lo < top[k] { top[k] = lo }
      if hi > bottom[k] { bottom[k] = hi }
    }
  }

  /// The band of the vertical segments of one column, once the column is done.
  mutating func flush() {
    guard let v = vertical else { return }
    rect(v.x - r, v.x + r, v.lo, v.hi)
    vertical = nil
  }

  /// The stroke as cairo draws it with bevel joins: each segment's butt-ended band, at each
  /// turn the bevel triangle on the outer side, round caps at both ends.
  mutating func stroke(_ pl: [Point]) {
    disc(pl[0].x, pl[0].y, pl[0].y)
    disc(pl[pl.count - 1].x, pl[pl.count - 1].y, pl[pl.count - 1].y)
    var prevNormal: Point? = nil
    var prevDir = Point(0, 0)
    for k in 0..<(pl.count - 1) {
      let p = pl[k], q = pl[k + 1]
      let dx = q.x - p.x, dy = q.y - p.y
      let len = (dx * dx + dy * dy).squareRoot()
      guard len > 0 else { continue }
      let n = Point(-dy / len * r, dx / len * r)
      if dx == 0 {
        // The vertical segments of one column (first, min, max, last) make one band.
        if let v = vertical, v.x == p.x {
          vertical = (p.x, Swift.min(v.lo, p.y, q.y), Swift.max(v.hi, p.y, q.y))
        } else {
          flush()
          vertical = (p.x, Swift.min(p.y, q.y), Swift.max(p.y, q.y))
        }
      } else {
        flush()
        convex(Point(p.x + n.x, p.y + n.y), Point(q.x + n.x, q.y + n.y), Point(q.x - n.x, q.y - n.y), Point(p.x - n.x, p.y - n.y))
      }
      if let m = prevNormal {
        let turn = prevDir.x * dy - prevDir.y * dx
        if turn != 0 {
          let sg = turn > 0 ? -1.0 : 1.0
          convex(p, Point(p.x + sg * m.x, p.y + sg * m.y), Point(p.x + sg * n.x, p.y + sg * n.y), p)
        }
      }
      prevNormal = n; prevDir = Point(dx, dy)
    }
    flush()
  }
}

extension DenseLine {
  /// A line of more points than pixels in the mini-map, as a filled band: at each pixel
  /// column, the range of its points and of its neighbours' (one column either side),
  /// `halfWidth` wider up and down. Stroking the column zigzag instead shows a moiré of beads
  /// where the data's own rhythm beats against the columns (a daily cycle over a year of
  /// hourly points: each column holds half a day, whose range rises and falls with the
  /// phase); a column and its neighbours hold a day and more, so the band is even. Columns
  /// are the decimated polylines' (`Decimation`: whole-pixel x); gaps stay breaks.
  public static func envelope(_ polylines: [[Point]], halfWidth: Double) -> Path {
    var path = Path()
    for pl in polylines where pl.count > 1 {
      var cols: [(x: Double, lo: Double, hi: Double)] = []
      for p in pl {
        if let last = cols.last, last.x == p.x {
          cols[cols.count - 1].lo = min(last.lo, p.y)
          cols[cols.count - 1].hi = max(last.hi, p.y)
        } else {
          cols.append((p.x, p.y, p.y))
        }
      }
      var top: [Point] = [], bottom: [Point] = []
      for k in cols.indices {
        var lo = cols[k].lo, hi = cols[k].hi
        for j in max(0, k - 1)...min(cols.count - 1, k + 1) { lo = min(lo, cols[j].lo); hi = max(hi, cols[j].hi) }
        let x0 = cols[k].x, x1 = k + 1 < cols.count ? min(cols[k + 1].x, cols[k].x + 1) : cols[k].x + 1
        top += [Point(x0, lo - halfWidth), Point(x1, lo - halfWidth)]
        bottom += [Point(x0, hi + halfWidth), Point(x1, hi + halfWidth)]
      }
      path.polygon(top + bottom.reversed())
    }
    return path
  }
}
