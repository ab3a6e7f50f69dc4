import Drawing
import Motion

extension Layout {
  /// A number as presented at the layout's time (its model value when not animated).
  func presented(_ key: String, _ model: Double) -> Double {
    presentation?.number(key, initial: model, at: t) ?? model
  }

  /// A `cs.view`: the script's layout (or the one it gave last, when nothing changed) places
  /// each child in the content frame; a child it leaves alone fills it.
  func placeView(_ n: Node, _ spec: ViewSpec, _ inner: Rect) {
    var placed: [ChildLayout] = []
    if let layout = spec.layout, memo?.failure == nil {
      do { placed = try layout.children(width: inner.width, height: inner.height, t: t) } catch { memo?.failure = error }
    }
    for (k, c) in n.children.enumerated() {
      let l = k < placed.count ? placed[k] : ChildLayout()
      let r = l.frame.map { Rect(inner.x + $0.x, inner.y + $0.y, $0.width, $0.height) } ?? inner
      place(c, in: r)
      var p = Placement()
      p.offset = l.offset
      p.scale = l.scale
      p.opacity = l.opacity
      p.turn = l.turn
      p.turnAboutX = l.turnAboutX
      p.perspective = l.perspective
      p.z = l.z
      p.visible = !l.hidden
      p.clip = l.clip
      c.placement = p
    }
  }

  /// Children front to back, following `order` (ids it does not name keep their order).
  public static func cardsOrder(_ n: Node, _ spec: CardsSpec) -> [Node] {
    guard let order = spec.order else { return n.children }
    let named = order.compactMap { id in n.children.first { $0.id == id } }
    return named + n.children.filter { c in !named.contains { $0 === c } }
  }

  /// The opacity of a card at rest at a depth: 1 down to the deepest shown, then 0
  /// (in between while moving).
  public static func cardAlpha(depth: Double) -> Double { max(0, min(1, Double(CompositionMetrics.visibleCards) - depth)) }

  /// Every card in the same frame; each deeper card smaller and shifted up so its top edge
  /// shows above the one in front.
  func placeCards(_ n: Node, _ spec: CardsSpec, _ inner: Rect) {
    let cards = Layout.cardsOrder(n, spec)
    let depth = Double(min(cards.count, CompositionMetrics.visibleCards) - 1)
    // The front card keeps a useful height: when the stack's steps would leave it less, the
    // steps shrink (the deeper cards peek out less).
    let least = min(inner.height, max(CompositionMetrics.minimumCardHeight, inner.height * 0.6))
    let step = depth > 0 ? max(0, min(spec.offsetStep, (inner.height - least) / depth)) : spec.offsetStep
    let room = max(0, depth) * step
    let frame = Rect(inner.x, inner.y + room, inner.width, max(0, inner.height - room))
    let dragged = presentation?.dragging[n.id]
    for (k, c) in cards.enumerated() {
      place(c, in: frame)
      // Depth animates when the order changes: a card sent back slides behind the others.
      let depth = presented(n.id + ".depth." + c.id, Double(k))
      var p = Placement()
      p.depth = depth
      p.scale = max(0.1, 1 - depth * spec.scaleStep)
      // Scaled about the centre; shift so the top edge peeks out offsetStep above the next.
      let shrink = (1 - p.scale) * frame.height / 2
      p.offset = Point(0, -depth * step - shrink)
      if dragged == c.id || presentation?.number(n.id + ".drag." + c.id, initial: 0, at: t) != 0 {
        p.offset.y += presented(n.id + ".drag." + c.id, 0)
      }
      // A card going deeper than the deepest one shown fades out (and one coming up fades
      // in), so no card appears or vanishes in one frame.
      p.opacity = presented(n.id + ".alpha." + c.id, Layout.cardAlpha(depth: depth))
      p.visible = p.opacity > 0.001
      c.placement = p
    }
    // A card heading deeper (being sent back) that has passed behind the front card
    // dissolves behind it over the next `Layout.passingDepth` of depth.
    if let presentation {
      let front = cards.min { $0.placement.depth < $1.placement.depth }
      for c in cards where c !== front {
        guard let f = front, let target = presentation.target(n.id + ".depth." + c.id), target > c.placement.depth + 1e-9 else { continue }
        let behind = c.placement.depth - f.placement.depth
        // Gone by the time it arrives, however short its way back.
        let frontTarget = presentation.target(n.id + ".depth." + f.id) ?? f.placement.depth
        let span = min(Layout.passingDepth, target - frontTarget)
        if behind > 0, span > 0 { c.placement.passing = max(0, 1 - behind / span) }
      }
    }
  }

  /// Depth over which a card sent back dissolves behind the front card.
  public static let passingDepth = 2.0

  /// The sheet a modal card is shown in.
  public static func modalFrame(sceneSize: Size) -> Rect {
    let i = CompositionMetrics.modalInsets
    // Scenes under 640 px high give the sheet more of their height (the chart wins).
    let k = max(0.25, min(1, sceneSize.height / 640))
    return Rect(0, 0, sceneSize.width, sceneSize.height).inset(top: (i.top * k).rounded(), left: i.left, bottom: (i.bottom * k).rounded(), right: i.right)
  }

  /// Where the chart of a modal sheet is drawn: the sheet below its grabber.
  public static func modalChart(in sheet: Rect) -> Rect { sheet.inset(top: 14) }
}
