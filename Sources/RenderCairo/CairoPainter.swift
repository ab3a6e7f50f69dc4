import CCairo
import Drawing

/// Draws display lists with cairo onto any cairo surface (image, SVG, PDF).
public final class CairoPainter {
  public let text: PangoText
  /// Pixels of `.cached` items, reused from frame to frame.
  let cache = PixelCache()
  /// Whether a raster leaves out what later opaque rectangles cover (`Occlusion`): the
  /// same pixels either way (tests compare the two).
  public var occludes = true
  public init(text: PangoText) { self.text = text }

  /// Paints `list` on `cr`, which is already scaled from scene pixels to device units.
  /// `raster`: `cr` is an image surface at `scale` device pixels a scene pixel, where items
  /// that opaque rectangles drawn after them cover are left out (`Occlusion`; the same
  /// pixels). A vector document keeps every item.
  public func paint(_ list: DisplayList, on cr: OpaquePointer, raster scale: Double? = nil) {
    cairo_save(cr)
    cairo_set_fill_rule(cr, CAIRO_FILL_RULE_EVEN_ODD)
    // Every pixel of the surface gets the background, whatever was there before.
    cairo_save(cr)
    cairo_set_operator(cr, CAIRO_OPERATOR_SOURCE)
    setColor(cr, list.background)
    cairo_paint(cr)
    cairo_restore(cr)
    drawItems(list.items, cr, visibility: occludes ? scale.flatMap { Occlusion.visibility(list.items, scale: $0) } : nil)
    cairo_restore(cr)
  }

  /// Draws items in order, keeping the opacities of open groups; what `visibility` says is
  /// covered later is left out.
  func drawItems(_ items: [DisplayItem], _ cr: OpaquePointer, visibility: [Occlusion.Visibility?]? = nil) {
    var opacities: [Double] = []
    // Inside a transform that shows nothing (nested scales that multiply to 1e-300, a
    // matrix cairo cannot invert): how many pushes deep, until the matching pop.
    var skipped = 0
    for (i, item) in items.enumerated() {
      var hole: Rect? = nil
      switch visibility?[i] {
      case .hidden: continue
      case .outside(let r): hole = r
      case nil: break
      }
      if skipped > 0 {
        switch item {
        case .pushTransform, .pushClip, .pushGroup: skipped += 1
        case .popTransform, .popClip, .popGroup: skipped -= 1
        default: break
        }
        continue
      }
      if case .pushTransform(let a) = item, !Self.shows(a, cr) { skipped = 1; continue }
      switch item {
      case .pushGroup(let opacity):
        opacities.append(opacity)
        cairo_push_group(cr)
      case .popGroup:
        cairo_pop_group_to_source(cr)
        cairo_paint_with_alpha(cr, opacities.popLast() ?? 1)
      default:
        draw(item, cr, hole: hole)
      }
    }
  }

  /// Whether drawing through `a` on top of `cr`'s matrix can show anything: the product is
  /// finite, invertible and not so small or large that cairo's fixed-point numbers break.
  static func shows(_ a: Affine, _ cr: OpaquePointer) -> Bool {
    var m = cairo_matrix_t(), t = cairo_matrix_t(xx: a.a, yx: a.b, xy: a.c, yy: a.d, x0: a.tx, y0: a.ty), r = cairo_matrix_t()
    cairo_get_matrix(cr, &m)
    cairo_matrix_multiply(&r, &t, &m)
    let det = r.xx * r.yy - r.xy * r.yx
    // (Called for every transform of every frame: no array.) The sum is finite only when
    // every entry is.
    let largest = max(abs(r.xx), abs(r.yx), abs(r.xy), abs(r.yy), abs(r.x0), abs(r.y0))
    return (r.xx + r.yx + r.xy + r.yy + r.x0 + r.y0).isFinite && largest < 1e12 && abs(det) > 1e-24
  }

  func setColor(_ cr: OpaquePointer, _ c: Color) { cairo_set_source_rgba(cr, c.r, c.g, c.b, c.a) }

  /// `hole`: a rectangle inside the fill or shadow `item` that is left undrawn (even-odd).
  func draw(_ item: DisplayItem, _ cr: OpaquePointer, hole: Rect? = nil) {
    switch item {
    case .path(let p, let paint):
      // A dense line's outline: its bands straight into the pixels when the case is plain.
      if case .fill(let c) = paint, let bands = p.bands, fillBands(bands, c, cr) { return }
      addPath(p, cr)
      if let hole { cairo_rectangle(cr, hole.x, hole.y, hole.width, hole.height) }
      switch paint {
      case .fill(let c):
        setColor(cr, c)
        cairo_fill(cr)
      case .stroke(let c, let width, let cap, let join, let dash):
        setColor(cr, c)
        cairo_set_line_width(cr, width)
        switch cap {
        case .butt: cairo_set_line_cap(cr, CAIRO_LINE_CAP_BUTT)
        case .round: cairo_set_line_cap(cr, CAIRO_LINE_CAP_ROUND)
        case .square: cairo_set_line_cap(cr, CAIRO_LINE_CAP_SQUARE)
        }
        switch join {
        case .miter: cairo_set_line_join(cr, CAIRO_LINE_JOIN_MITER)
        case .round: cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND)
        case .bevel: cairo_set_line_join(cr, CAIRO_LINE_JOIN_BEVEL)
        }
        if dash.isEmpty { cairo_set_dash(cr, nil, 0, 0) } else { dash.withUnsafeBufferPointer { cairo_set_dash(cr, $0.baseAddress, Int32($0.count), 0) } }
        cairo_stroke(cr)
      }
    case .text(let run):
      // Text larger than any image or far below a pixel (freetype fails on such sizes).
      var fx = run.font.size, fy = 0.0
      cairo_user_to_device_distance(cr, &fx, &fy)
      let deviceSize = (fx * fx + fy * fy).squareRoot()
      guard deviceSize.isFinite, deviceSize > 1e-3, deviceSize < 100_000 else { return }
      let layout = text.layout(run.text, font: run.font)
      var x = run.origin.x
      if run.align != .left {
        let w = text.measure(run.text, font: run.font).width
        x -= run.align == .center ? w / 2 : w
      }
      if let halo = run.halo {
        cairo_move_to(cr, x, run.origin.y)
        pango_cairo_layout_path(cr, layout)
        setColor(cr, halo.withAlpha(halo.a * 0.85))
        cairo_set_line_width(cr, 3)
        cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND)
        cairo_stroke(cr)
      }
      setColor(cr, run.color)
      cairo_move_to(cr, x, run.origin.y)
      pango_cairo_show_layout(cr, layout)
      cairo_new_path(cr)
    case .pushClip(let p):
      cairo_save(cr)
      if p.elements.count == 1, case .rect(let r, let radius) = p.elements[0], radius == 0 {
        // A rectangle on whole device pixels: cairo clips it without a mask.
        var x0 = r.minX, y0 = r.minY, x1 = r.maxX, y1 = r.maxY
        cairo_user_to_device(cr, &x0, &y0)
        cairo_user_to_device(cr, &x1, &y1)
        x0 = x0.rounded(); y0 = y0.rounded(); x1 = x1.rounded(); y1 = y1.rounded()
        cairo_device_to_user(cr, &x0, &y0)
        cairo_device_to_user(cr, &x1, &y1)
        cairo_new_path(cr)
        cairo_rectangle(cr, x0, y0, x1 - x0, y1 - y0)
      } else {
        addPath(p, cr)
      }
      cairo_clip(cr)
    case .popClip, .popTransform:
      cairo_restore(cr)
    case .pushTransform(let a):
      cairo_save(cr)
      var m = cairo_matrix_t(xx: a.a, yx: a.b, xy: a.c, yy: a.d, x0: a.tx, y0: a.ty)
      cairo_transform(cr, &m)
    case .pushGroup, .popGroup:
      break  // handled in drawItems, which keeps the opacities
    case .image(let image, let r, let opacity):
      drawImage(image, in: r, opacity: opacity, cr)
    case .layer(let layer):
      drawLayer(layer, cr)
    case .cached(let key, let bounds, let items):
      drawCached(key: key, bounds: bounds, items: items, cr)
    case .shadow(let r, let radius, let blur, let c):
      // Cairo has no blur: a few widening translucent outlines approximate a soft shadow.
      let steps = 4
      for k in 0..<steps {
        let grow = blur * Double(k + 1) / Double(steps)
        let a = c.a / Double(steps) * (1 - Double(k) / Double(steps + 1))
        addPath(.rect(r.offsetBy(0, blur / 3).inset(by: -grow), radius: radius + grow), cr)
        if let hole { cairo_rectangle(cr, hole.x, hole.y, hole.width, hole.height) }
        setColor(cr, c.withAlpha(a))
        cairo_fill(cr)
      }
    }
  }

  func addPath(_ p: Path, _ cr: OpaquePointer) {
    cairo_new_path(cr)
    for e in p.elements {
      switch e {
      case .move(let q): cairo_move_to(cr, q.x, q.y)
      case .line(let q): cairo_line_to(cr, q.x, q.y)
      case .curve(let a, let b, let q): cairo_curve_to(cr, a.x, a.y, b.x, b.y, q.x, q.y)
      case .circle(let c, let r):
        cairo_new_sub_path(cr)
        cairo_arc(cr, c.x, c.y, r, 0, 2 * Double.pi)
        cairo_close_path(cr)
      case .rect(let r, let radius):
        let rad = min(radius, r.width / 2, r.height / 2)
        if rad <= 0 {
          cairo_rectangle(cr, r.x, r.y, r.width, r.height)
        } else {
          cairo_new_sub_path(cr)
          cairo_arc(cr, r.maxX - rad, r.minY + rad, rad, -Double.pi / 2, 0)
          cairo_arc(cr, r.maxX - rad, r.maxY - rad, rad, 0, Double.pi / 2)
          cairo_arc(cr, r.minX + rad, r.maxY - rad, rad, Double.pi / 2, Double.pi)
          cairo_arc(cr, r.minX + rad, r.minY + rad, rad, Double.pi, 3 * Double.pi / 2)
          cairo_close_path(cr)
        }
      case .close: cairo_close_path(cr)
      }
    }
  }
}
