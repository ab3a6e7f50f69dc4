import ChartModel
import Drawing

extension Interaction {
  /// Whether `target` names a part of a chart that the chart has but that gave way to the
  /// plot at this size (docs/lua-api.md, "the plot wins at small sizes"): the title, the
  /// mini-map and its handles, or a check mark, of a chart that is shown and would draw
  /// that part with more room. A part the chart never draws (a card's mini-map), a node
  /// not shown, or a name that is no part is not one.
  public func gaveWay(_ target: String) -> Bool {
    var best: Node?
    var rest = ""
    scene.root.walk { n in
      if target.hasPrefix(n.id + "."), n.id.count > (best?.id.count ?? -1) {
        best = n
        rest = String(target.dropFirst(n.id.count + 1))
      }
    }
    guard let node = best, var spec = node.chart else { return false }
    guard rest == "title" || rest.hasPrefix("minimap") || rest.hasPrefix("legend.") else { return false }
    if rest.hasPrefix("legend."), let id = spec.data.lineID(for: String(rest.dropFirst(7))) { rest = "legend." + id }
    var area = node.contentFrame
    var isCard: Bool = { if case .card = node.kind { return true }; return false }()
    if case .cards(let d)? = parent(of: node)?.kind, d.modal == node.id {
      spec.minimap = true; spec.legend = true; spec.indicator = true
      area = Layout.modalFrame(sceneSize: Size(scene.width, scene.height)).inset(top: 14)
      isCard = false
    } else if !node.placement.visible || node.placement.opacity <= 0.001 {
      return false
    }
    let window = p.window(spec.data, at: now)
    let here = ChartParts.make(spec: spec, card: isCard, frame: area, measurer: measurer, window: window)
    if here.named.contains(where: { $0.0 == rest }) { return false }
    // With room for everything (a tall frame), would the chart draw it?
    let roomy = Rect(area.x, area.y, max(area.width, 1), 10_000)
    let tall = ChartParts.make(spec: spec, card: isCard, frame: roomy, measurer: measurer, window: window)
    return tall.named.contains { $0.0 == rest }
  }
}
