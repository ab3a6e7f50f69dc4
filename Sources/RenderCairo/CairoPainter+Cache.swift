import CCairo
import Drawing

/// Pixels of `.cached` display items, kept by a raster painter between frames.
final class PixelCache {
  struct Entry { let surface: OpaquePointer; var used: Int }
  var entries: [String: Entry] = [:]
  var clock = 0
  static let capacity = 48

  deinit { for e in entries.values { cairo_surface_destroy(e.surface) } }

  func get(_ key: String) -> OpaquePointer? {
    guard var e = entries[key] else { return nil }
    clock += 1
    e.used = clock
    entries[key] = e
    return e.surface
  }

  func put(_ key: String, _ surface: OpaquePointer) {
    if entries.count >= PixelCache.capacity, let oldest = entries.min(by: { $0.value.used < $1.value.used }) {
      cairo_surface_destroy(oldest.value.surface)
      entries.removeValue(forKey: oldest.key)
    }
    clock += 1
    entries[key] = Entry(surface: surface, used: clock)
  }
}

extension CairoPainter {
  /// Draws cached items: on an image surface through a kept offscreen picture (rendered
  /// at the device's scale and sub-pixel offset, so a hit and a miss give the same pixels);
  /// on SVG and PDF as vectors.
  func drawCached(key: String, bounds: Rect, items: [DisplayItem], _ cr: OpaquePointer) {
    // Nothing to do outside the clip (a band of a still, a part scrolled away).
    var cx0 = 0.0, cy0 = 0.0, cx1 = 0.0, cy1 = 0.0
    cairo_clip_extents(cr, &cx0, &cy0, &cx1, &cy1)
    if !Rect(cx0, cy0, cx1 - cx0, cy1 - cy0).intersects(bounds) { return }
    let target = cairo_get_target(cr)
    guard cairo_surface_get_type(target) == CAIRO_SURFACE_TYPE_IMAGE else {
      drawItems(items, cr)
      return
    }
    var xx = 1.0, xy = 0.0, yx = 0.0, yy = 1.0
    cairo_user_to_device_distance(cr, &xx, &yx)
    cairo_user_to_device_distance(cr, &xy, &yy)
    // Only for plain scales and translations; anything else draws directly.
    guard abs(yx) < 1e-9, abs(xy) < 1e-9, xx > 0, abs(xx - yy) < 1e-9 else {
      drawItems(items, cr)
      return
    }
    let ds = xx
    var ox = bounds.x, oy = bounds.y
    cairo_user_to_device(cr, &ox, &oy)
    let fx = ((ox - ox.rounded(.down)) * 64).rounded() / 64, fy = ((oy - oy.rounded(.down)) * 64).rounded() / 64
    let fullKey = "\(key) @\(ds) +\(fx),\(fy)"
    let surface: OpaquePointer
    if let hit = cache.get(fullKey) {
      surface = hit
    } else {
      let w = (DevicePixels.int32((bounds.width * ds + fx).rounded(.up)) ?? -1) + 1, h = (DevicePixels.int32((bounds.height * ds + fy).rounded(.up)) ?? -1) + 1
      guard w > 0, h > 0, w < 16384, h < 16384, let s = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, w, h) else {
        drawItems(items, cr)
        return
      }
      let c = cairo_create(s)!
      cairo_translate(c, fx, fy)
      cairo_scale(c, ds, ds)
      cairo_translate(c, -bounds.x, -bounds.y)
      cairo_set_fill_rule(c, CAIRO_FILL_RULE_EVEN_ODD)
      drawItems(items, c)
      cairo_destroy(c)
      cairo_surface_flush(s)
      cache.put(fullKey, s)
      surface = s
    }
    // Paint it in device space, on whole pixels.
    cairo_save(cr)
    cairo_identity_matrix(cr)
    cairo_set_source_surface(cr, surface, (ox - fx).rounded(), (oy - fy).rounded())
    cairo_paint(cr)
    cairo_restore(cr)
  }
}
