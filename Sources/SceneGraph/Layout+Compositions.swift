import Drawing
import Motion

extension Layout {
  /// A `cs.view`: the script's layout (or the one it gave last, when nothing changed) places
  /// each child in the content frame; a child it leaves alone fills it.
  func placeView(_ n: Node, _ spec: ViewSpec, _ inner: Rect) {
    var placed: [ChildLayout] = []
    var gone: Set<ObjectIdentifier> = []
    if let layout = spec.layout, memo?.failure == nil {
      do { placed = try layout.children(width: inner.width, height: inner.height, t: t) } catch { memo?.failure = error }
      if !layout.leaving.isEmpty {
        // Children removed inside cs.animate are the last ones, after the layout's records.
        let live = n.children.count - layout.leaving.count
        while placed.count < live { placed.append(ChildLayout()) }
        placed = Array(placed.prefix(live)) + layout.leaving.map { $0.record(at: t, content: inner.size) }
        for g in layout.leaving where t >= g.end { gone.insert(g.node) }
      }
      if !layout.motions.isEmpty {
        placed = layout.presented(placed, n.children.map { ObjectIdentifier($0) }, content: inner.size, t: t)
      }
    }
    let live = n.children.count - ((spec.layout?.leaving.count) ?? 0)
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
      p.depth = l.depth
      p.passing = l.passing
      p.sheet = l.sheet
      p.modal = l.modal
      p.leaving = k >= live
      c.placement = p
    }
    if !gone.isEmpty, let layout = spec.layout {
      // Left: gone from the tree.
      layout.leaving.removeAll { gone.contains($0.node) }
      n.children.removeAll { gone.contains(ObjectIdentifier($0)) }
    }
  }

  /// The key of the chart a child shows in a sheet (its axis animation): the sheet is
  /// keyed by its child.
  public static func sheetKey(_ n: Node) -> ChartKey { ChartKey(n.identity, role: .sheet) }

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
