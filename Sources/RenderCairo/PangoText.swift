import CCairo
import Drawing

/// Which fonts a scene's texts are set in: its own font files in front of the bundled ones,
/// and the family asked for first (Inter when nil).
public struct TextFonts: Sendable, Hashable {
  /// Font files (absolute or relative to the current folder), in front of the bundled ones.
  public var files: [String]
  /// The family of every text; the bundled fonts still supply characters it lacks.
  public var family: String?
  public init(files: [String] = [], family: String? = nil) { self.files = files; self.family = family }
  public static let bundled = TextFonts()
}

/// Text for one thread: a Pango font map and context on the bundled fonts, with layouts
/// cached per (string, font). Measures text for layout and lays it out for the painter.
public final class PangoText: TextMeasurer {
  let fontMap: UnsafeMutablePointer<PangoFontMap>
  let context: OpaquePointer
  /// The fonts this text is set in.
  public let fonts: TextFonts
  private let familyList: String
  private var descriptions: [Font: OpaquePointer] = [:]
  private var layouts: [LayoutKey: OpaquePointer] = [:]
  private var sizes: [LayoutKey: Size] = [:]
  /// Whether the font map has the fallback fonts (set at the first text Inter cannot set).
  private var fallbacks = false

  struct LayoutKey: Hashable { var text: String; var font: Font }

  public init(fonts: TextFonts = .bundled) {
    self.fonts = fonts
    familyList = fonts.family.map { $0 + "," + FontRegistry.family } ?? FontRegistry.family
    let config = FontRegistry.config(userFiles: fonts.files, fallbacks: false)
    fontMap = pango_cairo_font_map_new()
    if let config { pango_fc_font_map_set_config(OpaquePointer(fontMap), config) }
    context = pango_font_map_create_context(fontMap)
    // A fixed language: the environment's would change glyph forms and fallback order.
    pango_context_set_language(context, pango_language_from_string("en"))
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
    pango_font_description_set_family(d, familyList)
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
    if !fallbacks && !FontRegistry.interCovers(text) { addFallbacks() }
    let l = pango_layout_new(context)!
    pango_layout_set_font_description(l, description(font))
    pango_layout_set_text(l, text, -1)
    if layouts.count > 20_000 { clearCache() }
    layouts[key] = l
    return l
  }

  /// Moves the font map to the configuration with the fallback fonts. Texts laid out
  /// before are Inter's alone and are set the same in it, so the caches stay.
  private func addFallbacks() {
    fallbacks = true
    guard let config = FontRegistry.config(userFiles: fonts.files, fallbacks: true) else { return }
    pango_fc_font_map_set_config(OpaquePointer(fontMap), config)
  }

  func clearCache() {
    for l in layouts.values { g_object_unref(UnsafeMutableRawPointer(l)) }
    layouts.removeAll()
    sizes.removeAll()
  }

  /// The distance from the top of a line of text to its baseline.
  public func baseline(_ text: String, font: Font) -> Double {
    Double(pango_layout_get_baseline(layout(text, font: font))) / Double(PANGO_SCALE)
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

  /// The characters of `text` that no font has (drawn as boxes), in order, each once.
  public func missingCharacters(_ text: String, font: Font) -> [Unicode.Scalar] {
    let text = TextLimits.clipped(text)
    let l = layout(text, font: font)
    guard pango_layout_get_unknown_glyphs_count(l) > 0 else { return [] }
    // Which ones: walk the runs and take the characters of glyphs marked unknown.
    var out: [Unicode.Scalar] = []
    guard let iter = pango_layout_get_iter(l) else { return [] }
    defer { pango_layout_iter_free(iter) }
    repeat {
      guard let run = pango_layout_iter_get_run_readonly(iter), let glyphs = run.pointee.glyphs else { continue }
      let g = glyphs.pointee
      for i in 0..<Int(g.num_glyphs) where g.glyphs[i].glyph & PANGO_GLYPH_UNKNOWN_FLAG != 0 {
        // An unknown glyph's number is the character with the flag added.
        let code = g.glyphs[i].glyph & ~PANGO_GLYPH_UNKNOWN_FLAG
        if let u = Unicode.Scalar(code), !out.contains(u) { out.append(u) }
      }
    } while pango_layout_iter_next_run(iter) != 0
    return out
  }
}
