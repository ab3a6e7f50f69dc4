import Drawing

/// How a card that has just passed behind the front card dissolves into it (drawn once
/// more over the front card, clipped to it): in two halves, as the Y labels cross-fade, so
/// the two cards' texts never show on top of each other. While `passing` goes from 1 to
/// 0.5 the card stays opaque over the front card and its texts, lines and grid fade out
/// (covered by its own body colour); from 0.5 to 0 its empty body fades, uncovering the
/// front card: no double exposure of two cards' lines.
enum PassingCard {
  /// The opacity of the whole card drawn over the front card.
  static func bodyOpacity(_ passing: Double) -> Double { max(0, min(1, 2 * passing)) }
  /// The opacity of its texts, within the body.
  static func textOpacity(_ passing: Double) -> Double { max(0, min(1, 2 * passing - 1)) }

  /// `items` with every text's colour (and halo) multiplied by `f`; texts under `f` ≈ 0 are
  /// left out.
  static func fadingTexts(_ items: [DisplayItem], _ f: Double) -> [DisplayItem] {
    items.compactMap { item in
      switch item {
      case .text(var run):
        if f <= 0.001 { return nil }
        run.color = run.color.multipliedAlpha(f)
        run.halo = run.halo?.multipliedAlpha(f)
        return .text(run)
      case .layer(var layer):
        layer.items = fadingTexts(layer.items, f)
        return .layer(layer)
      case .cached(let key, let bounds, let inner):
        return .cached(key: key + "#texts\(f)", bounds: bounds, items: fadingTexts(inner, f))
      default:
        return item
      }
    }
  }
}
