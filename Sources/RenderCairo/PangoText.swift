import CCairo
import Drawing

/// Text for one thread: a Pango font map and context on the bundled fonts, with layouts
/// cached per (string, font). Measures text for layout and lays it out for the painter.
public final class PangoText: TextMeasurer {
  let fontMap: UnsafeMutablePointer<PangoFontMap>
  let context: OpaquePointer
  private var descriptions: [Font: OpaquePointer] = [:]
  private var layouts: [LayoutKey: OpaquePointer] = [:]
  private var sizes: [LayoutKey: Size] = [:]

  struct LayoutKey: Hashable { var text: String; var font: Font }

  public init() {
    FontRegistry.ensureRegistered()
    fontMap = pango_cairo_font_map_new()
    context = pango_font_map_create_context(fontMap)
    // Unhinted outlines and linear metrics: the same geometry at every scale and machine.
    let options = cairo_font_options_create()
    cairo_font_options_set_antialias(options, CAIRO_ANTIALIAS_GRAY)
    cairo_font_options_set_hint_style(options, CAIRO_HINT_STYLE_NONE)
    cairo_font_options_set_hint_metrics(options, CAIRO_HINT_METRICS_OFF)
    pango_cairo_context_set_font_options(context, options)
    cairo_font_options_destroy(options)
    pango_context_set_round_glyph_positions(context, 0)
  }

  deinit {
    for l in layouts.values { g_object_unref(UnsafeMutableRawPointer(l)) }
    for d in descriptions.values { pango_font_description_free(d) }
    g_object_unref(UnsafeMutableRawPointer(context))
    g_object_unref(UnsafeMutableRawPointer(fontMap))
  }

  func description(_ font: Font) -> OpaquePointer {
    if let d = descriptions[font] { return d }
    let d = pango_font_description_new()!
    pango_font_description_set_family(d, FontRegistry.family)
    let weight: PangoWeight
    switch font.weight {
    case .regular: weight = PANGO_WEIGHT_NORMAL
    case .medium: weight = PANGO_WEIGHT_MEDIUM
    case .semibold: weight = PANGO_WEIGHT_SEMIBOLD
    case .bold: weight = PANGO_WEIGHT_BOLD
    }
    pango_font_description_set_weight(d, weight)
    pango_font_description_set_absolute_size(d, font.size * Double(PANGO_SCALE))
    descriptions[font] = d
    return d
  }

  /// A laid-out line of text (owned by the cache).
  func layout(_ text: String, font: Font) -> OpaquePointer {
    let text = TextLimits.clipped(text)
    let key = LayoutKey(text: text, font: font)
    if let l = layouts[key] { return l }
    let l = pango_layout_new(context)!
    pango_layout_set_font_description(l, description(font))
    pango_layout_set_text(l, text, -1)
    if layouts.count > 20_000 { clearCache() }
    layouts[key] = l
    return l
  }

  func clearCache() {
    for l in layouts.values { g_object_unref(UnsafeMutableRawPointer(l)) }
    layouts.removeAll()
    sizes.removeAll()
  }

  public func measure(_ text: String, font: Font) -> Size {
    let text = TextLimits.clipped(text)
    let key = LayoutKey(text: text, font: font)
    if let s = sizes[key] { return s }
    var ink = PangoRectangle(), logical = PangoRectangle()
    pango_layout_get_extents(layout(text, font: font), &ink, &logical)
    let s = Size(Double(logical.width) / Double(PANGO_SCALE), Double(logical.height) / Double(PANGO_SCALE))
    sizes[key] = s
    return s
  }
}
