import Drawing

/// Shortens texts that do not fit with an ellipsis (`…`), at a word boundary when one is near.
public enum TextFit {
  public static func fit(_ text: String, width: Double, font: Font, measurer: TextMeasurer) -> String {
    guard width > 0 else { return "" }
    if measurer.measure(text, font: font).width <= width { return text }
    let chars = Array(text)
    // Binary search for the longest prefix that fits with the ellipsis.
    var lo = 0, hi = chars.count
    while lo < hi {
      let mid = (lo + hi + 1) / 2
      if measurer.measure(String(chars[..<mid]) + "…", font: font).width <= width { lo = mid } else { hi = mid - 1 }
    }
    if lo == 0 { return measurer.measure("…", font: font).width <= width ? "…" : "" }
    var cut = lo
    // Prefer ending at a space when it costs less than a third of what fits.
    if let space = chars[..<lo].lastIndex(of: " "), space >= lo * 2 / 3, space > 0 { cut = space }
    var head = String(chars[..<cut])
    while head.last == " " { head.removeLast() }
    return head + "…"
  }
}
