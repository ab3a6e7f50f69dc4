import Drawing
import SceneGraph

/// The scene's caption at a time (`captions = ...` on `cs.scene`), burned into the frame: the
/// cue's lines, wrapped to fit, centred near the bottom on a box in the theme's poster
/// colours, fading in and out at the cue's ends.
enum CaptionBuilder {
  static func items(_ scene: Scene, size: Size, time t: Double, measurer: TextMeasurer) -> [DisplayItem] {
    guard let (cue, opacity) = scene.narration.caption(at: t), opacity > 0.001 else { return [] }
    let theme = scene.theme
    let fontSize = min(64, max(12, min(size.width, size.height) * 0.042))
    let font = Font(size: fontSize, weight: .semibold)
    let padX = fontSize * 0.7, padY = fontSize * 0.4
    let maxWidth = max(fontSize * 4, size.width * 0.86 - 2 * padX)
    var lines: [String] = []
    for paragraph in cue.text.split(separator: "\n", omittingEmptySubsequences: true) {
      lines += wrap(String(paragraph), width: maxWidth, font: font, measurer: measurer)
    }
    guard !lines.isEmpty else { return [] }
    let lineHeight = measurer.measure("Ag", font: font).height
    let widest = lines.map { min(maxWidth, measurer.measure($0, font: font).width) }.max() ?? 0
    let boxW = widest + 2 * padX, boxH = Double(lines.count) * lineHeight + 2 * padY
    let bottom = size.height - max(8, size.height * 0.06)
    let box = Rect(size.width / 2 - boxW / 2, bottom - boxH, boxW, boxH)
    let radius = min(12, fontSize * 0.45)
    var items: [DisplayItem] = []
    if opacity < 1 { items.append(.pushGroup(opacity: opacity)) }
    items.append(.shadow(box, radius: radius, blur: 8, color: theme.shadow))
    items.append(.path(.rect(box, radius: radius), .fill(theme.posterBackground.withAlpha(theme.posterBackground.a * 0.94))))
    items.append(.path(.rect(box, radius: radius), .stroke(theme.posterBorder, width: 1)))
    for (k, line) in lines.enumerated() {
      items.append(.text(TextRun(line, font: font, color: theme.text, origin: Point(size.width / 2, box.y + padY + Double(k) * lineHeight), align: .center)))
    }
    if opacity < 1 { items.append(.popGroup) }
    return items
  }

  /// Greedy word wrap; a word wider than the line is left to overflow (it is rare in
  /// subtitles, and cutting it would lose text).
  static func wrap(_ text: String, width: Double, font: Font, measurer: TextMeasurer) -> [String] {
    var lines: [String] = []
    var current = ""
    for word in text.split(separator: " ", omittingEmptySubsequences: true) {
      let candidate = current.isEmpty ? String(word) : current + " " + word
      if current.isEmpty || measurer.measure(candidate, font: font).width <= width {
        current = candidate
      } else {
        lines.append(current)
        current = String(word)
      }
    }
    if !current.isEmpty { lines.append(current) }
    return lines
  }
}
