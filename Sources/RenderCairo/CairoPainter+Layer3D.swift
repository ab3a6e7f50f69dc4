import CCairo
import Drawing
import Glibc

extension CairoPainter {
  /// Draws a layer turned in 3D. Cairo only has affine transforms, but a turn about the
  /// vertical axis maps every vertical line of the layer to a vertical line, scaled about
  /// the horizon: so the layer is drawn flat offscreen, then copied in narrow vertical
  /// strips, each with its own scale (exact at the strip's centre). The outline, a
  /// trapezoid, is the antialiased clip; the strips inside it are drawn without
  /// antialiasing, one device pixel wide on pixel boundaries, so they neither overlap nor
  /// leave a seam. A turn about the horizontal
  /// axis does the same with horizontal strips.
  ///
  /// On SVG and PDF the strips are not written as such: many one-pixel strips of one image
  /// leave hairline seams wherever a viewer antialiases their edges (an SVG scaled up), and
  /// cairo 1.16 lists the image once per strip in the PDF page's resources (duplicated keys
  /// that `qpdf --check` rejects). There the turned layer is composed offscreen at twice
  /// the document's resolution, as on a raster surface, and placed as one image.
  func drawLayer(_ layer: Layer3D, _ cr: OpaquePointer) {
    if cairo_surface_get_type(cairo_get_target(cr)) != CAIRO_SURFACE_TYPE_IMAGE {
      drawLayerAsImage(layer, cr)
      return
    }
    var dx = 1.0, dy = 0.0
    cairo_user_to_device_distance(cr, &dx, &dy)
    let ds = max(0.01, (dx * dx + dy * dy).squareRoot())
    let b = layer.bounds
    guard let wpx = DevicePixels.int32((b.width * ds).rounded(.up)), let hpx = DevicePixels.int32((b.height * ds).rounded(.up)),
          wpx > 0, hpx > 0, wpx < 32768, hpx < 32768 else { return }
    let surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, wpx, hpx)!
    defer { cairo_surface_destroy(surface) }
    let flat = cairo_create(surface)!
    cairo_scale(flat, ds, ds)
    cairo_translate(flat, -b.x, -b.y)
    cairo_set_fill_rule(flat, CAIRO_FILL_RULE_EVEN_ODD)
    drawItems(layer.items, flat)
    cairo_destroy(flat)
    cairo_surface_flush(surface)

    let vertical = layer.axis == .vertical
    // The one perspective (Drawing/Perspective.swift), which hit testing inverts.
    let persp = layer.projection
    // Along the turning direction: the layer's half length, and its centre.
    let half = (vertical ? b.width : b.height) / 2
    let across = (vertical ? b.height : b.width) / 2
    let cAlong = vertical ? b.midX : b.midY, cAcross = vertical ? b.midY : b.midX
    func depthScale(_ u: Double) -> Double { persp.depthScale(u) }
    func along(_ u: Double) -> Double { cAlong + persp.along(u) }

    // The outline.
    cairo_save(cr)
    let corners = [(-half, -1.0), (half, -1.0), (half, 1.0), (-half, 1.0)].map { (u, side) -> (Double, Double) in
      let a = along(u), c = cAcross + side * across * depthScale(u)
      return vertical ? (a, c) : (c, a)
    }
    cairo_move_to(cr, corners[0].0, corners[0].1)
    for c in corners.dropFirst() { cairo_line_to(cr, c.0, c.1) }
    cairo_close_path(cr)
    cairo_clip(cr)

    let pattern = cairo_pattern_create_for_surface(surface)!
    defer { cairo_pattern_destroy(pattern) }
    cairo_pattern_set_filter(pattern, CAIRO_FILTER_GOOD)
    cairo_pattern_set_extend(pattern, CAIRO_EXTEND_PAD)
    cairo_set_antialias(cr, CAIRO_ANTIALIAS_NONE)
    // The inverse of along(u): which point of the flat layer shows at a position.
    func source(_ a: Double) -> Double { persp.source(a - cAlong) }
    // Strips one device pixel wide, on pixel boundaries: they neither overlap nor leave gaps.
    let ends = [along(-half), along(half)]
    var lo = ends.min()!, hi = ends.max()!
    var x0 = vertical ? lo : 0, y0 = vertical ? 0 : lo, x1 = vertical ? hi : 0, y1 = vertical ? 0 : hi
    cairo_user_to_device(cr, &x0, &y0)
    cairo_user_to_device(cr, &x1, &y1)
    // (Clamped: strips far outside any image draw nothing, and an edge-on turn must not
    // trap or loop for ever.)
    guard let first = DevicePixels.clamped((vertical ? x0 : y0).rounded(.down)),
          let last = DevicePixels.clamped((vertical ? x1 : y1).rounded(.up)) else { return }
    for px in first..<max(first, last) {
      var da = Double(px), db = Double(px + 1), other = 0.0, other2 = 0.0
      if vertical {
        cairo_device_to_user(cr, &da, &other); cairo_device_to_user(cr, &db, &other2)
      } else {
        cairo_device_to_user(cr, &other, &da); cairo_device_to_user(cr, &other2, &db)
      }
      lo = da; hi = db
      let u0 = source(lo), u1 = source(hi)
      let s = depthScale((u0 + u1) / 2)
      let extent = across * s
      // Destination → source: along the axis linear from [lo, hi] to [u0, u1]; across it,
      // scaled by 1/s about the centre line.
      let k1 = (u1 - u0) / (hi - lo)
      var m = cairo_matrix_t()
      if vertical {
        m = cairo_matrix_t(xx: k1 * ds, yx: 0, xy: 0, yy: ds / s, x0: (u0 + half - lo * k1) * ds, y0: (across - cAcross / s) * ds)
        cairo_rectangle(cr, lo, cAcross - extent - 1, hi - lo, 2 * extent + 2)
      } else {
        m = cairo_matrix_t(xx: ds / s, yx: 0, xy: 0, yy: k1 * ds, x0: (across - cAcross / s) * ds, y0: (u0 + half - lo * k1) * ds)
        cairo_rectangle(cr, cAcross - extent - 1, lo, 2 * extent + 2, hi - lo)
      }
      // A strip seen almost edge-on (a perspective of a few pixels): nothing cairo can invert.
      let det = m.xx * m.yy - m.xy * m.yx
      // (pixman samples through 16.16 fixed-point numbers: scales past 30000 fail as "out of memory".)
      guard abs(m.xx) < 30000, abs(m.yy) < 30000, abs(m.x0) < 1e7, abs(m.y0) < 1e7, det.isFinite, abs(det) > 1e-24 else {
        cairo_new_path(cr)
        continue
      }
      cairo_pattern_set_matrix(pattern, &m)
      cairo_set_source(cr, pattern)
      cairo_fill(cr)
    }
    cairo_restore(cr)
  }

  /// The turned layer composed on an image surface (`drawLayer` on it), placed on `cr` as
  /// one image, `oversample` image pixels per device unit.
  private func drawLayerAsImage(_ layer: Layer3D, _ cr: OpaquePointer, oversample: Double = 2) {
    // The turned layer stays inside its flat bounds stretched by the largest depth scale
    // (the near edge): bound it generously in user space, then in device space.
    let b = layer.bounds
    let persp = layer.projection
    let half = (layer.axis == .vertical ? b.width : b.height) / 2
    let grow = persp.distance / max(1, persp.distance - half * abs(persp.sinT))
    let gw = b.width * (layer.axis == .vertical ? 1 : grow), gh = b.height * (layer.axis == .vertical ? grow : 1)
    let box = Rect(b.midX - gw / 2 - 2, b.midY - gh / 2 - 2, gw + 4, gh + 4)
    var lo = (Double.infinity, Double.infinity), hi = (-Double.infinity, -Double.infinity)
    for (x, y) in [(box.x, box.y), (box.maxX, box.y), (box.x, box.maxY), (box.maxX, box.maxY)] {
      var dx = x, dy = y
      cairo_user_to_device(cr, &dx, &dy)
      lo = (min(lo.0, dx), min(lo.1, dy)); hi = (max(hi.0, dx), max(hi.1, dy))
    }
    // Only what the clip lets through (a turn so steep that the near edge passes the eye).
    var cx0 = 0.0, cy0 = 0.0, cx1 = 0.0, cy1 = 0.0
    cairo_clip_extents(cr, &cx0, &cy0, &cx1, &cy1)
    var clo = (Double.infinity, Double.infinity), chi = (-Double.infinity, -Double.infinity)
    for (x, y) in [(cx0, cy0), (cx1, cy0), (cx0, cy1), (cx1, cy1)] {
      var dx = x, dy = y
      cairo_user_to_device(cr, &dx, &dy)
      clo = (min(clo.0, dx), min(clo.1, dy)); chi = (max(chi.0, dx), max(chi.1, dy))
    }
    lo = (max(lo.0, clo.0), max(lo.1, clo.1)); hi = (min(hi.0, chi.0), min(hi.1, chi.1))
    guard lo.0 < hi.0, lo.1 < hi.1 else { return }
    let x0 = lo.0.rounded(.down), y0 = lo.1.rounded(.down)
    let w = Int32(((hi.0.rounded(.up) - x0) * oversample).rounded(.up)), h = Int32(((hi.1.rounded(.up) - y0) * oversample).rounded(.up))
    guard w > 0, h > 0, w < 16384, h < 16384, let image = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, w, h) else { return }
    defer { cairo_surface_destroy(image) }
    var m = cairo_matrix_t()
    cairo_get_matrix(cr, &m)
    let c = cairo_create(image)!
    cairo_scale(c, oversample, oversample)
    cairo_translate(c, -x0, -y0)
    cairo_transform(c, &m)
    cairo_set_fill_rule(c, CAIRO_FILL_RULE_EVEN_ODD)
    drawLayer(layer, c)
    cairo_destroy(c)
    cairo_surface_flush(image)
    cairo_save(cr)
    cairo_identity_matrix(cr)
    cairo_translate(cr, x0, y0)
    cairo_scale(cr, 1 / oversample, 1 / oversample)
    cairo_set_source_surface(cr, image, 0, 0)
    cairo_paint(cr)
    cairo_restore(cr)
  }
}
