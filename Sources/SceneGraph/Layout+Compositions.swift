import Drawing

extension Layout {
  /// A number as presented at the layout's time (its model value when not animated).
  func presented(_ key: String, _ model: Double) -> Double {
    presentation?.number(key, initial: model, at: t) ?? model
  }

  /// Rows stacked from the top, moved up by the scroll offset (clamped to the content).
  func placeList(_ n: Node, _ spec: inout ListSpec, _ inner: Rect) {
    let rowHeight = spec.rowHeight ?? min(inner.height, max(240, (inner.width * 0.8).rounded()))
    let heights = n.children.map { $0.style.height ?? rowHeight }
    let content = heights.reduce(0, +) + spec.spacing * Double(max(0, n.children.count - 1))
    spec.scroll = max(0, min(spec.scroll, content - inner.height))
    let scroll = max(0, min(presented(n.id + ".scroll", spec.scroll), content - inner.height))
    var y = inner.y - scroll
    for (k, c) in n.children.enumerated() {
      let r = Rect(inner.x, y, inner.width, heights[k])
      place(c, in: r)
      var p = Placement()
      p.visible = r.intersects(inner)
      c.placement = p
      y += heights[k] + spec.spacing
    }
  }

  /// The width of a carousel item.
  public static func itemWidth(_ spec: CarouselSpec, _ inner: Rect) -> Double {
    min(inner.width, spec.itemWidth ?? (inner.width * 0.75).rounded())
  }

  /// Items side by side; the one at the centre faces the viewer, the others turn away,
  /// fade and shrink with their distance from it.
  func placeCarousel(_ n: Node, _ spec: inout CarouselSpec, _ inner: Rect) {
    let w = Layout.itemWidth(spec, inner)
    let pitch = w + spec.spacing
    spec.scroll = max(0, min(spec.scroll, pitch * Double(max(0, n.children.count - 1))))
    let scroll = max(0, min(presented(n.id + ".scroll", spec.scroll), pitch * Double(max(0, n.children.count - 1))))
    let h = (inner.height * 0.92).rounded()
    for (k, c) in n.children.enumerated() {
      let cx = inner.midX + Double(k) * pitch - scroll
      place(c, in: Rect(cx - w / 2, inner.midY - h / 2, w, h))
      let d = (cx - inner.midX) / pitch
      var p = Placement()
      p.turn = max(-80, min(80, -d * spec.angle))
      p.opacity = max(0.35, 1 - 0.3 * abs(d))
      p.scale = max(0.7, 1 - 0.08 * abs(d))
      p.visible = c.frame.maxX > inner.minX - w && c.frame.minX < inner.maxX + w
      c.placement = p
    }
  }

  /// Children front to back, following `order` (ids it does not name keep their order).
  public static func cardsOrder(_ n: Node, _ spec: CardsSpec) -> [Node] {
    guard let order = spec.order else { return n.children }
    let named = order.compactMap { id in n.children.first { $0.id == id } }
    return named + n.children.filter { c in !named.contains { $0 === c } }
  }

  /// Every card in the same frame; each deeper card smaller and shifted up so its top edge
  /// shows above the one in front.
  func placeCards(_ n: Node, _ spec: CardsSpec, _ inner: Rect) {
    let cards = Layout.cardsOrder(n, spec)
    let depth = Double(min(cards.count, CompositionMetrics.visibleCards) - 1)
    let room = max(0, depth) * spec.offsetStep
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
      p.offset = Point(0, -depth * spec.offsetStep - shrink)
      if dragged == c.id || presentation?.number(n.id + ".drag." + c.id, initial: 0, at: t) != 0 {
        p.offset.y += presented(n.id + ".drag." + c.id, 0)
      }
      p.visible = depth < Double(CompositionMetrics.visibleCards) - 0.01
      c.placement = p
    }
  }

  /// The selected tab's view above a tab bar.
  func placeTabs(_ n: Node, _ spec: TabsSpec, _ inner: Rect) {
    let content = inner.inset(bottom: min(inner.height, CompositionMetrics.tabBarHeight))
    for (k, c) in n.children.enumerated() {
      place(c, in: content)
      var p = Placement()
      p.visible = k == spec.selected
      // A newly selected tab fades in.
      if k == spec.selected { p.opacity = presented(n.id + ".fade", 1) }
      c.placement = p
    }
  }

  /// The tab bar's rect and one rect per tab.
  public static func tabBar(_ spec: TabsSpec, _ inner: Rect) -> (bar: Rect, tabs: [Rect]) {
    let h = min(inner.height, CompositionMetrics.tabBarHeight)
    let bar = Rect(inner.x, inner.maxY - h, inner.width, h)
    let n = max(1, spec.titles.count)
    let w = bar.width / Double(n)
    return (bar, (0..<spec.titles.count).map { Rect(bar.x + Double($0) * w, bar.y, w, h) })
  }

  /// The sheet a modal card is shown in.
  public static func modalFrame(sceneSize: Size) -> Rect {
    let i = CompositionMetrics.modalInsets
    return Rect(0, 0, sceneSize.width, sceneSize.height).inset(top: i.top, left: i.left, bottom: i.bottom, right: i.right)
  }
}
