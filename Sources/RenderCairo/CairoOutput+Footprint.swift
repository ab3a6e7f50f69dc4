import Drawing

/// What cairo holds while it writes an SVG or PDF: both surfaces keep the whole page in memory
/// until it is finished (an SVG as its text, a PDF as its content stream and the glyphs'
/// subsets), so a document's memory grows with what is drawn, not with the picture's size —
/// 100,000 `g:text` calls wrote a 467 MB SVG at 1.2 GB resident (issue 37). The estimate is
/// made from the display list before cairo sees it, and charged against `--max-memory`.
///
/// Measured on cairo 1.18 (release build, `/usr/bin/time -f %M`): a short text (17 glyphs) in
/// an SVG costs about 3.8 KB resident and 1.1 KB of file (about 60 bytes of file a glyph), in
/// a PDF about 1.7 KB resident; the estimate below gives 4.6 KB, so it errs on the safe side.
public enum VectorFootprint {
  /// Bytes charged for every display item (a shape, a text, a clip, a transform, a group).
  public static let perItem = 256
  /// Bytes charged for each character of a text (a glyph placed), twice with a halo.
  public static let perGlyph = 256
  /// Bytes charged for each element of a path (a point, a curve, a circle, a rectangle).
  public static let perPathElement = 128
  /// Bytes charged for each device pixel of a picture cairo embeds (an image, a layer turned
  /// in 3D, which is composed at twice the document's resolution): its pixels and their
  /// encoded copy.
  public static let perPixel = 8

  /// The estimate for `list` drawn at `scale`, and the number of display items in it.
  public static func estimate(_ list: DisplayList, scale: Double) -> (bytes: Int, items: Int) {
    var bytes = 0, items = 0
    func add(_ n: Int) { bytes = bytes.addingReportingOverflow(n).overflow ? .max : bytes + n }
    func pixels(_ r: Rect, _ s: Double) -> Int {
      // A layer is composed only where the page is (`drawLayerAsImage` clips it to the clip, the page at most).
      let w = (min(r.width, list.size.width) * s).rounded(.up), h = (min(r.height, list.size.height) * s).rounded(.up)
      guard w.isFinite, h.isFinite, w > 0, h > 0 else { return 0 }
      let p = w * h * Double(perPixel)
      return p < Double(Int.max / 2) ? Int(p) : Int.max / 2
    }
    func walk(_ list: [DisplayItem]) {
      for item in list {
        items += 1
        add(perItem)
        switch item {
        case .path(let p, _), .pushClip(let p): add(p.elements.count * perPathElement)
        case .text(let run): add(run.text.unicodeScalars.count * perGlyph * (run.halo == nil ? 1 : 2))
        case .layer(let layer):
          add(pixels(layer.bounds, 2 * scale))
          walk(layer.items)
        case .cached(_, _, let inner): walk(inner)
        case .image(let image, _, _): add(image.pixels.width * image.pixels.height * perPixel)
        case .popClip, .pushTransform, .popTransform, .pushGroup, .popGroup, .shadow: break
        }
      }
    }
    walk(list.items)
    return (bytes, items)
  }
}
