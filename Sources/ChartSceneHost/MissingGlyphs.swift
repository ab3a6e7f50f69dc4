import Drawing
import RenderCairo
import SceneGraph

/// The characters of a scene's texts that no font has (Pango would draw boxes), found when
/// the scene loads: one warning line per text, naming the characters and where the text is
/// (`s.lua:7: no font has U+1F9D1 in the title of 'sales'`).
enum MissingGlyphs {
  /// Characters listed in one warning; the rest are counted.
  static let listed = 5

  static func warnings(_ scene: Scene, text: PangoText, places: [ObjectIdentifier: String], file: String) -> [String] {
    var out: [String] = []
    scene.root.walk { n in
      let place = places[ObjectIdentifier(n)].map { $0.hasSuffix(":") ? $0 + " " : $0 } ?? "\(file): "
      func check(_ s: String?, _ font: Font, _ what: String) {
        guard let s, !s.isEmpty else { return }
        let missing = text.missingCharacters(s, font: font)
        guard !missing.isEmpty else { return }
        out.append(place + "no font has " + describe(missing) + " in " + what)
      }
      switch n.kind {
      case .text(let spec):
        check(spec.text, Font(size: spec.size, weight: spec.weight), "the text '\(n.id)'")
      case .chart(let spec), .card(let spec):
        check(spec.title, ChartMetrics.titleFont, "the title of '\(n.id)'")
        for line in spec.base.lines { check(line.name, ChartMetrics.chipFont, "the name of line '\(line.id)' of '\(n.id)'") }
      default: break
      }
    }
    return out
  }

  /// `U+1F9D1`, `U+1F9D1, U+0D9E and 3 more`.
  static func describe(_ scalars: [Unicode.Scalar]) -> String {
    let names = scalars.prefix(listed).map(code)
    let more = scalars.count - names.count
    return names.joined(separator: ", ") + (more > 0 ? " and \(more) more" : "")
  }

  static func code(_ u: Unicode.Scalar) -> String {
    let hex = String(u.value, radix: 16, uppercase: true)
    return "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
  }
}
