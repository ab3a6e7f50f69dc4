import ChartModel
import Drawing

extension Interaction {
  /// Whether `target` names a part of a chart that the chart has but that gave way to the
  /// plot at this size (docs/lua-api.md, "the plot wins at small sizes"): the title, the
  /// mini-map and its handles, or a check mark, of a chart that is shown and would draw
  /// that part with more room. A part the chart never draws (a card's mini-map), a node
  /// not shown, or a name that is no part is not one.
  public func gaveWay(_ target: String) -> Bool {
    guard let (node, rest) = resolve(target), let spec = node.chart else { return false }
    guard rest == "title" || rest.hasPrefix("minimap") || rest.hasPrefix("legend.") else { return false }
    let c = chartLayout(node, spec)
    if !c.modal && (!node.placement.visible || node.placement.opacity <= 0.001) { return false }
    let window = p.window(spec.data, at: now)
    let here = ChartParts.make(spec: c.spec, card: c.card, frame: c.area, measurer: measurer, window: window)
    if here.named.contains(where: { $0.0 == rest }) { return false }
    // With room for everything (a tall frame), would the chart draw it?
    let roomy = Rect(c.area.x, c.area.y, max(c.area.width, 1), 10_000)
    let tall = ChartParts.make(spec: c.spec, card: c.card, frame: roomy, measurer: measurer, window: window)
    return tall.named.contains { $0.0 == rest }
  }
}
