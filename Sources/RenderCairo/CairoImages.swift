import CCairo
import Drawing

/// Pictures (`cs.image`): PNG files decoded by cairo, and drawn scaled into a rectangle.
public enum CairoImages {
  /// The pixels of a PNG file, or nil when cairo cannot read it.
  public static func decode(_ path: String) -> RasterImage? {
    guard let surface = cairo_image_surface_create_from_png(path) else { return nil }
    defer { cairo_surface_destroy(surface) }
    guard cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS else { return nil }
    // Whatever the file's format, ARGB32 (premultiplied) like every raster here.
    let w = Int(cairo_image_surface_get_width(surface)), h = Int(cairo_image_surface_get_height(surface))
    guard w > 0, h > 0 else { return nil }
    let stride = Int(cairo_format_stride_for_width(CAIRO_FORMAT_ARGB32, Int32(w)))
    var ok = true
    let pixels = [UInt8](unsafeUninitializedCapacity: stride * h) { buf, count in
      buf.initialize(repeating: 0)
      let target = cairo_image_surface_create_for_data(buf.baseAddress!, CAIRO_FORMAT_ARGB32, Int32(w), Int32(h), Int32(stride))
      let cr = cairo_create(target)!
      cairo_set_source_surface(cr, surface, 0, 0)
      cairo_set_operator(cr, CAIRO_OPERATOR_SOURCE)
      cairo_paint(cr)
      cairo_surface_flush(target)
      ok = cairo_status(cr) == CAIRO_STATUS_SUCCESS
      cairo_destroy(cr)
      cairo_surface_destroy(target)
      count = stride * h
    }
    return ok ? RasterImage(width: w, height: h, stride: stride, pixels: pixels) : nil
  }
}

extension CairoPainter {
  /// Draws `image` scaled to fit `r` (proportions kept, centred) at `opacity`.
  func drawImage(_ image: ImageRef, in r: Rect, opacity: Double, _ cr: OpaquePointer) {
    let p = image.pixels
    guard p.width > 0, p.height > 0, r.width > 0, r.height > 0, opacity > 0 else { return }
    let s = min(r.width / Double(p.width), r.height / Double(p.height))
    // A surface of cairo's own holding a copy (an SVG or PDF surface may keep its source
    // until the document ends, past these pixels' lifetime).
    guard let surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Int32(p.width), Int32(p.height)) else { return }
    defer { cairo_surface_destroy(surface) }
    guard cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS, let data = cairo_image_surface_get_data(surface) else { return }
    let stride = Int(cairo_image_surface_get_stride(surface))
    cairo_surface_flush(surface)
    p.pixels.withUnsafeBytes { raw in
      guard let base = raw.baseAddress else { return }
      for y in 0..<p.height { (data + y * stride).update(from: (base + y * p.stride).assumingMemoryBound(to: UInt8.self), count: min(stride, p.stride)) }
    }
    cairo_surface_mark_dirty(surface)
    do {
      cairo_save(cr)
      cairo_translate(cr, r.x + (r.width - Double(p.width) * s) / 2, r.y + (r.height - Double(p.height) * s) / 2)
      cairo_scale(cr, s, s)
      cairo_set_source_surface(cr, surface, 0, 0)
      cairo_pattern_set_filter(cairo_get_source(cr), CAIRO_FILTER_GOOD)
      cairo_paint_with_alpha(cr, min(1, opacity))
      cairo_restore(cr)
    }
  }
}
