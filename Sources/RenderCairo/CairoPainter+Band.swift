import CCairo
import Drawing

/// Fills `Band`s (a dense line's outline) straight into an image surface's pixels.
///
/// A band is one vertical interval at every x, its top and bottom linear between samples, so
/// the area of it inside a pixel is an integral of clamped linear functions: exact coverage,
/// a pixel column at a time, in time proportional to the pixels it touches. Cairo's scan
/// converter gets the same pixels (up to antialiasing noise: it samples coverage on a grid)
/// several times slower from the outline polygon, whose thousands of short edges it sorts
/// and walks row by row. Only the plain case is taken here — an ARGB32 image surface drawn
/// directly (no group), the OVER operator, a scale-and-translate matrix, a clip of one
/// rectangle on whole pixels; anything else (SVG, PDF, rotations, masks) fills the path.
extension CairoPainter {
  /// Fills `bands` with `color` on `cr`, or returns false (nothing drawn) when the case is
  /// not the plain one.
  func fillBands(_ bands: [Band], _ color: Color, _ cr: OpaquePointer) -> Bool {
    guard cairo_get_operator(cr) == CAIRO_OPERATOR_OVER, cairo_get_antialias(cr) != CAIRO_ANTIALIAS_NONE else { return false }
    guard let target = cairo_get_target(cr), cairo_get_group_target(cr) == target,
          cairo_surface_get_type(target) == CAIRO_SURFACE_TYPE_IMAGE,
          cairo_image_surface_get_format(target) == CAIRO_FORMAT_ARGB32 else { return false }
    var ox = 0.0, oy = 0.0, sx = 1.0, sy = 1.0
    cairo_surface_get_device_offset(target, &ox, &oy)
    cairo_surface_get_device_scale(target, &sx, &sy)
    guard ox == 0, oy == 0, sx == 1, sy == 1 else { return false }
    var m = cairo_matrix_t()
    cairo_get_matrix(cr, &m)
    guard m.xy == 0, m.yx == 0, m.xx > 0, m.yy > 0, m.xx.isFinite, m.yy.isFinite, m.x0.isFinite, m.y0.isFinite else { return false }
    let width = Int(cairo_image_surface_get_width(target)), height = Int(cairo_image_surface_get_height(target))
    let stride = Int(cairo_image_surface_get_stride(target))
    // The clip: one rectangle on whole device pixels (or nothing at all).
    guard let list = cairo_copy_clip_rectangle_list(cr) else { return false }
    defer { cairo_rectangle_list_destroy(list) }
    guard list.pointee.status == CAIRO_STATUS_SUCCESS else { return false }
    var clipX0 = 0, clipY0 = 0, clipX1 = width, clipY1 = height
    if list.pointee.num_rectangles == 0 { return true }
    guard list.pointee.num_rectangles == 1, let r = list.pointee.rectangles?.pointee else { return false }
    let dev = [m.xx * r.x + m.x0, m.yy * r.y + m.y0, m.xx * (r.x + r.width) + m.x0, m.yy * (r.y + r.height) + m.y0]
    for v in dev { guard v.isFinite, abs(v - v.rounded()) < 1e-6 else { return false } }
    clipX0 = max(clipX0, Int(saturating: dev[0].rounded())); clipY0 = max(clipY0, Int(saturating: dev[1].rounded()))
    clipX1 = min(clipX1, Int(saturating: dev[2].rounded())); clipY1 = min(clipY1, Int(saturating: dev[3].rounded()))
    guard clipX0 < clipX1, clipY0 < clipY1 else { return true }
    guard let data = cairo_image_surface_get_data(target) else { return false }
    cairo_surface_flush(target)
    let a = max(0, min(1, color.a))
    let src = BandSource(a: a * 255, r: max(0, min(1, color.r)) * a * 255, g: max(0, min(1, color.g)) * a * 255,
                         b: max(0, min(1, color.b)) * a * 255)
    var raster = BandRaster(data: data, stride: stride, clipX0: clipX0, clipY0: clipY0, clipX1: clipX1, clipY1: clipY1,
                            src: src, coverage: [Double](repeating: 0, count: height + 1))
    for band in bands {
      raster.fill(band, xx: m.xx, x0: m.x0, yy: m.yy, y0: m.y0)
    }
    cairo_surface_mark_dirty_rectangle(target, Int32(clipX0), Int32(clipY0), Int32(clipX1 - clipX0), Int32(clipY1 - clipY0))
    return true
  }
}

/// The premultiplied source colour, 0...255.
struct BandSource { var a, r, g, b: Double }

/// The coverage of one pixel column at a time, composited (OVER) when the column is done.
struct BandRaster {
  let data: UnsafeMutablePointer<UInt8>
  let stride: Int
  let clipX0, clipY0, clipX1, clipY1: Int
  let src: BandSource
  var coverage: [Double]
  /// The column being summed and its rows with coverage (lo..<hi); none when lo >= hi.
  var column = Int.min
  var lo = Int.max, hi = Int.min

  /// The mean over a piece of clamp(u, 0, 1) for u linear from u0 to u1.
  @inline(__always) static func meanClamped(_ u0: Double, _ u1: Double) -> Double {
    @inline(__always) func h(_ u: Double) -> Double { u <= 0 ? 0 : (u >= 1 ? u - 0.5 : u * u / 2) }
    let d = u1 - u0
    if abs(d) < 1e-9 { return max(0, min(1, (u0 + u1) / 2)) }
    return (h(u1) - h(u0)) / d
  }

  mutating func fill(_ band: Band, xx: Double, x0: Double, yy: Double, y0: Double) {
    let n = band.xs.count
    guard n > 1 else { return }
    band.xs.withUnsafeBufferPointer { xs in
      band.top.withUnsafeBufferPointer { top in
        band.bottom.withUnsafeBufferPointer { bottom in
          var px = xx * xs[0] + x0, pt = yy * top[0] + y0, pb = yy * bottom[0] + y0
          for k in 1..<n {
            let qx = xx * xs[k] + x0, qt = yy * top[k] + y0, qb = yy * bottom[k] + y0
            // (Pieces left or right of the clip add nothing.)
            if qx - px > 1e-6 && qx > Double(clipX0) && px < Double(clipX1) {
              // Split the piece at whole pixels.
              // Only the columns inside the clip are visited (a piece may be far wider).
              var ax = px, at = pt, ab = pb
              if ax < Double(clipX0) {
                let f = (Double(clipX0) - px) / (qx - px)
                ax = Double(clipX0); at = pt + (qt - pt) * f; ab = pb + (qb - pb) * f
              }
              let end = min(qx, Double(clipX1))
              while ax < end {
                let c = ax.rounded(.down)
                let bx = min(end, c + 1)
                let f = (bx - px) / (qx - px)
                let bt = bx == qx ? qt : pt + (qt - pt) * f, bb = bx == qx ? qb : pb + (qb - pb) * f
                if bx - ax > 1e-9 { add(column: Int(c), width: bx - ax, at, bt, ab, bb) }
                ax = bx; at = bt; ab = bb
              }
            }
            px = qx; pt = qt; pb = qb
          }
        }
      }
    }
    flush()
  }

  /// Adds the area of a piece (x from the left to the right of `width`, top from t0 to t1,
  /// bottom from b0 to b1) inside pixel column `c` to its rows.
  @inline(__always) mutating func add(column c: Int, width w: Double, _ t0: Double, _ t1: Double, _ b0: Double, _ b1: Double) {
    guard c >= clipX0, c < clipX1 else { return }
    if c != column { flush(); column = c }
    let tmin = min(t0, t1), tmax = max(t0, t1), bmin = min(b0, b1), bmax = max(b0, b1)
    guard bmax > tmin, tmin.isFinite, bmax.isFinite else { return }
    let j0 = max(clipY0, Int(saturating: tmin.rounded(.down))), j1 = min(clipY1, Int(saturating: bmax.rounded(.up)))
    guard j0 < j1 else { return }
    lo = min(lo, j0); hi = max(hi, j1)
    coverage.withUnsafeMutableBufferPointer { cov in
      for j in j0..<j1 {
        let y = Double(j)
        let cb = y >= bmax ? 0 : (y + 1 <= bmin ? 1 : BandRaster.meanClamped(b0 - y, b1 - y))
        let ct = y >= tmax ? 0 : (y + 1 <= tmin ? 1 : BandRaster.meanClamped(t0 - y, t1 - y))
        cov[j] += w * (cb - ct)
      }
    }
  }

  /// Composites the finished column and clears its coverage.
  mutating func flush() {
    guard lo < hi, column >= clipX0, column < clipX1 else { lo = .max; hi = .min; return }
    let x = column
    let s = src
    coverage.withUnsafeMutableBufferPointer { cov in
      for j in lo..<hi {
        let c = max(0, min(1, cov[j]))
        cov[j] = 0
        guard c * s.a >= 0.25 else { continue }
        let p = UnsafeMutableRawPointer(data + j * stride + x * 4).assumingMemoryBound(to: UInt32.self)
        if c >= 1 && s.a >= 255 {
          p.pointee = 0xFF00_0000 | UInt32(s.r.rounded()) << 16 | UInt32(s.g.rounded()) << 8 | UInt32(s.b.rounded())
          continue
        }
        let d = p.pointee
        let keep = 1 - c * s.a / 255
        @inline(__always) func ch(_ sv: Double, _ shift: UInt32) -> UInt32 {
          let dv = Double((d >> shift) & 0xFF)
          return UInt32(min(255, (sv * c + dv * keep).rounded())) << shift
        }
        p.pointee = ch(s.a, 24) | ch(s.r, 16) | ch(s.g, 8) | ch(s.b, 0)
      }
    }
    lo = .max; hi = .min
  }
}
