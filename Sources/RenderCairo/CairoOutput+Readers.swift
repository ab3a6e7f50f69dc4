import CCairo
import Drawing

/// What the vector documents carry for readers who do not see the picture (`DocumentInfo`).
///
/// cairo's SVG surface writes every glyph as a path (a `<symbol>` used where it is drawn),
/// which draws the same in every viewer but leaves nothing to select, search or read. The
/// SVG therefore gets, after cairo has written it: `role="graphics-document"`, a `<title>`
/// and `<desc>` first in the document (`aria-labelledby`, `aria-describedby`), and one layer
/// over the picture that draws nothing: a `<g>` per chart and, inside it, one `<g>` per series
/// with an `aria-label` (its name) and a `<desc>` (what it does), then every text of the
/// picture as a real `<text>`, transparent, at the place and size of its glyphs (`textLength`
/// stretches it over the drawn glyphs whatever font the viewer picks), so it can be selected,
/// searched and read. The glyph paths stay what is seen: a viewer without the bundled fonts
/// (rsvg-convert, a browser) draws them faithfully.
enum ReadableSVG {
  /// `svg` (cairo's document) with the title, the description, the series and the texts.
  static func annotate(_ svg: [UInt8], list: DisplayList, scale: Double, info: DocumentInfo, text: PangoText) -> [UInt8] {
    // The end of the root's start tag, and the root's end tag.
    guard let open = find(Array("<svg".utf8), in: svg, from: 0),
          let openEnd = find([UInt8(ascii: ">")], in: svg, from: open),
          let close = findLast(Array("</svg>".utf8), in: svg), close > openEnd else { return svg }
    // A root without content ("<svg .../>") is not what cairo writes for a page.
    if svg[openEnd - 1] == UInt8(ascii: "/") { return svg }
    let head = " role=\"graphics-document\" aria-roledescription=\"chart\" aria-labelledby=\"cs-title\" aria-describedby=\"cs-desc\" xml:lang=\"\(escape(info.language))\">\n"
      + "<title id=\"cs-title\">\(escape(info.title))</title>\n<desc id=\"cs-desc\">\(escape(info.description))</desc>"
    var layer = "<g id=\"cs-readable\" style=\"fill:rgb(0%,0%,0%);fill-opacity:0;stroke:none\">\n"
    for chart in info.charts {
      layer += "<g role=\"graphics-object\" aria-roledescription=\"chart\" aria-label=\"\(escape(chart.title))\">"
      layer += "<desc>\(escape(chart.description))</desc>\n"
      for s in chart.series {
        layer += "<g role=\"graphics-symbol\" aria-roledescription=\"series\" aria-label=\"\(escape(s.name))\"><desc>\(escape(s.name + " " + s.summary))</desc></g>\n"
      }
      layer += "</g>\n"
    }
    var texts = TextCollector(text: text)
    texts.collect(list.items, Affine.scale(scale, scale), opacity: 1)
    layer += texts.out
    layer += "</g>\n"
    var out = [UInt8]()
    out.reserveCapacity(svg.count + head.utf8.count + layer.utf8.count)
    out += svg[..<openEnd]
    out += Array(head.utf8)
    out += svg[(openEnd + 1)..<close]
    out += Array(layer.utf8)
    out += svg[close...]
    return out
  }

  /// Every visible text run as a transparent `<text>` where its glyphs are drawn.
  struct TextCollector {
    let text: PangoText
    var out = ""

    mutating func collect(_ items: [DisplayItem], _ base: Affine, opacity: Double) {
      var transforms: [Affine] = [base]
      var opacities: [Double] = [opacity]
      for item in items {
        let m = transforms.last ?? base, o = opacities.last ?? opacity
        switch item {
        case .pushTransform(let a): transforms.append(m.then(a))
        case .popTransform: if transforms.count > 1 { transforms.removeLast() }
        case .pushGroup(let g): opacities.append(o * g)
        case .popGroup: if opacities.count > 1 { opacities.removeLast() }
        case .cached(_, _, let inner): collect(inner, m, opacity: o)
        case .layer(let l):
          // A layer turned in 3D is placed as one image; its texts are kept while it is
          // (nearly) facing the viewer, where their flat places are where they are seen.
          if abs(l.angle) < 1 { collect(l.items, m, opacity: o) }
        case .text(let run): add(run, m, opacity: o * run.color.a)
        case .path, .pushClip, .popClip, .shadow, .image: break
        }
      }
    }

    mutating func add(_ run: TextRun, _ m: Affine, opacity: Double) {
      guard opacity > 0.01, run.font.size > 0, run.text.contains(where: { !$0.isWhitespace }) else { return }
      let size = run.font.size
      let width = text.measure(run.text, font: run.font).width
      var x = run.origin.x
      if run.align == .center { x -= width / 2 } else if run.align == .right { x -= width }
      let y = run.origin.y + text.baseline(run.text, font: run.font)
      guard x.isFinite, y.isFinite, width.isFinite, width > 0 else { return }
      let weight: Int
      switch run.font.weight {
      case .regular: weight = 400
      case .medium: weight = 500
      case .semibold: weight = 600
      case .bold: weight = 700
      }
      var line = "<text"
      if m.b == 0, m.c == 0, m.a == m.d, m.a > 0 {
        // Moved and scaled alike in both directions: plain coordinates (most texts).
        line += " x=\"\(num(m.a * x + m.tx))\" y=\"\(num(m.d * y + m.ty))\" font-size=\"\(num(size * m.a))\" textLength=\"\(num(width * m.a))\""
      } else {
        line += " transform=\"matrix(\(num(m.a)) \(num(m.b)) \(num(m.c)) \(num(m.d)) \(num(m.tx)) \(num(m.ty)))\" x=\"\(num(x))\" y=\"\(num(y))\" font-size=\"\(num(size))\" textLength=\"\(num(width))\""
      }
      line += " lengthAdjust=\"spacingAndGlyphs\" font-family=\"Inter, sans-serif\""
      if weight != 400 { line += " font-weight=\"\(weight)\"" }
      line += " xml:space=\"preserve\">\(escape(run.text))</text>\n"
      out += line
    }
  }

  /// A coordinate with at most two decimals (what cairo writes is finer; a selection box
  /// needs no more).
  static func num(_ v: Double) -> String {
    let r = (v * 100).rounded() / 100
    if r == r.rounded(), abs(r) < 1e15 { return String(Int(r)) }
    return String(r)
  }

  /// Text for XML content and attribute values: the five special characters escaped, and
  /// the characters XML 1.0 cannot hold left out.
  static func escape(_ s: String) -> String {
    var out = ""
    out.reserveCapacity(s.utf8.count)
    for u in s.unicodeScalars {
      switch u {
      case "&": out += "&amp;"
      case "<": out += "&lt;"
      case ">": out += "&gt;"
      case "\"": out += "&quot;"
      case "'": out += "&apos;"
      case "\t", "\n", "\r": out.unicodeScalars.append(u)
      default:
        let v = u.value
        if v < 0x20 || (0xFFFE...0xFFFF).contains(v) { continue }
        out.unicodeScalars.append(u)
      }
    }
    return out
  }

  /// Text for a PDF's information dictionary: one line, no control characters.
  static func plain(_ s: String) -> String {
    String(String.UnicodeScalarView(s.unicodeScalars.compactMap { u -> Unicode.Scalar? in
      if u == "\n" || u == "\t" || u == "\r" { return " " }
      return u.value < 0x20 ? nil : u
    }))
  }

  static func find(_ needle: [UInt8], in hay: [UInt8], from: Int) -> Int? {
    guard needle.count <= hay.count else { return nil }
    var i = from
    while i + needle.count <= hay.count {
      if hay[i] == needle[0], hay[i..<(i + needle.count)].elementsEqual(needle) { return i }
      i += 1
    }
    return nil
  }

  static func findLast(_ needle: [UInt8], in hay: [UInt8]) -> Int? {
    guard needle.count <= hay.count else { return nil }
    var i = hay.count - needle.count
    while i >= 0 {
      if hay[i] == needle[0], hay[i..<(i + needle.count)].elementsEqual(needle) { return i }
      i -= 1
    }
    return nil
  }
}
