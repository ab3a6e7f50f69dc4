import ChartModel
import Drawing
import SceneGraph

/// Turns a laid-out scene at time t into a display list. Runs on the thread that owns the
/// scene (canvas views call back into the script); the result is plain values.
public struct DisplayListBuilder {
  public let measurer: TextMeasurer
  public init(measurer: TextMeasurer) { self.measurer = measurer }

  /// Drawing state passed down the tree.
  struct Context {
    var theme: Theme
    var surface: Color
    var t: Double
    var sceneSize: Size
    var presentation: Presentation
  }

  public func build(_ scene: Scene, time t: Double) throws -> DisplayList {
    let bg = scene.background?.resolve(scene.theme) ?? scene.theme.background
    var list = DisplayList(size: Size(scene.width, scene.height), background: bg)
    var overlays: [DisplayItem] = []
    let ctx = Context(theme: scene.theme, surface: bg, t: t, sceneSize: list.size, presentation: scene.presentation)
    try emit(scene.root, ctx, into: &list.items, overlays: &overlays)
    list.items.append(contentsOf: overlays)
    list.items.append(contentsOf: CaptionBuilder.items(scene, size: list.size, time: t, measurer: measurer))
    return list
  }

  func emit(_ n: Node, _ ctx: Context, into items: inout [DisplayItem], overlays: inout [DisplayItem]) throws {
    let s = n.style, p = n.placement
    guard p.visible else { return }
    let frame = n.frame
    // Offset, then scale about the centre: the node's own, then its placement's.
    let own = n.transform
    // Scaled to nothing (or below a millionth): nothing to draw, and no transform that
    // cannot be inverted reaches the painter.
    guard own.scale >= 1e-6 else { return }
    let transform = own == .identity ? Affine.identity : Affine(a: own.scale, b: 0, c: 0, d: own.scale, tx: own.tx, ty: own.ty)
    let opacity = s.opacity * p.opacity
    if !transform.isIdentity { items.append(.pushTransform(transform)) }
    if opacity < 1 { items.append(.pushGroup(opacity: max(0, opacity))) }

    var body: [DisplayItem] = []
    if p.clip { body.append(.pushClip(.rect(frame, radius: s.cornerRadius))) }
    try emitBody(n, ctx, into: &body, overlays: &overlays)
    if p.clip { body.append(.popClip) }
    if let turn = n.drawnTurn {
      // Room for shadows around the node.
      items.append(.layer(Layer3D(items: body, bounds: frame.inset(by: -16), angle: turn.angle, axis: turn.aboutX ? .horizontal : .vertical, perspective: turn.perspective)))
    } else {
      items.append(contentsOf: body)
    }

    if opacity < 1 { items.append(.popGroup) }
    if !transform.isIdentity { items.append(.popTransform) }
  }

  /// The node's background, content and children, without its transform.
  func emitBody(_ n: Node, _ ctx: Context, into items: inout [DisplayItem], overlays: inout [DisplayItem]) throws {
    let s = n.style
    let frame = n.frame
    var ctx = ctx
    if let bgRef = s.background {
      let c = bgRef.resolve(ctx.theme)
      items.append(.path(.rect(frame, radius: s.cornerRadius), .fill(c)))
      if c.a >= 1 { ctx.surface = c }
    }
    let clipped = s.cornerRadius > 0
    if clipped { items.append(.pushClip(.rect(frame, radius: s.cornerRadius))) }

    let content = n.contentFrame
    var children = n.children
    switch n.kind {
    case .chart(let spec):
      // Through the zoom (ZoomBuilder.swift): a plain build unless a day is zoomed into.
      items.append(contentsOf: ChartBuilder.zoomable(spec: spec, isCard: false, frame: content, theme: ctx.theme, surface: ctx.surface,
                                                     measurer: measurer, presentation: ctx.presentation, key: ChartKey(n.identity), t: ctx.t))
    case .card(let spec):
      let radius = s.cornerRadius > 0 ? s.cornerRadius : 12
      items.append(contentsOf: card(spec, content, radius: radius, ctx, key: ChartKey(n.identity)))
      // Deeper cards of a stack are dimmed a little more each, so the edges stay apart
      // (on a dark theme the cards are the colour of the background).
      if n.placement.depth > 0.01 {
        let dim = min(0.5, n.placement.depth * ctx.theme.shadow.a * 0.25)
        items.append(.path(.rect(content, radius: radius), .fill(Color(r: 0, g: 0, b: 0, a: dim))))
      }
    case .text(let spec):
      let font = Font(size: spec.size, weight: spec.weight)
      // A text longer than its frame ends in an ellipsis rather than being cut mid-word.
      let text = TextFit.fit(spec.text, width: content.width, font: font, measurer: measurer)
      let size = measurer.measure(text, font: font)
      let x: Double
      switch spec.align {
      case .left: x = content.x
      case .center: x = content.midX
      case .right: x = content.maxX
      }
      items.append(.pushClip(.rect(frame)))
      items.append(.text(TextRun(text, font: font, color: spec.color.resolve(ctx.theme), origin: Point(x, content.midY - size.height / 2), align: spec.align)))
      items.append(.popClip)
    case .canvas(let spec):
      let recorded = try spec.draw(content.width, content.height, ctx.t, ctx.theme)
      items.append(.pushTransform(.translation(content.x, content.y)))
      items.append(.pushClip(.rect(Rect(0, 0, content.width, content.height))))
      items.append(contentsOf: recorded)
      items.append(.popClip)
      items.append(.popTransform)
    case .view(let spec):
      if let draw = spec.draw {
        let recorded = try draw(content.width, content.height, ctx.t, ctx.theme)
        items.append(.pushTransform(.translation(content.x, content.y)))
        items.append(contentsOf: recorded)
        items.append(.popTransform)
      }
      // A chart child shown in a sheet over everything (a card opened).
      for c in n.children where c.placement.sheet > 0.001 {
        if let chart = c.chart { overlays.append(contentsOf: modal(chart, ctx, progress: c.placement.sheet, key: Layout.sheetKey(c))) }
      }
      // Back to front by `z` (equal: in order).
      children = n.children.enumerated().sorted { ($0.element.placement.z, $0.offset) < ($1.element.placement.z, $1.offset) }.map(\.element)
      if spec.clips {
        items.append(.pushClip(.rect(content)))
        for c in children { try emit(c, ctx, into: &items, overlays: &overlays) }
        items.append(.popClip)
        children = []
      }
    case .stack, .spacer:
      break
    }
    for c in children { try emit(c, ctx, into: &items, overlays: &overlays) }
    if case .view = n.kind, n.children.contains(where: { $0.placement.passing > 0.001 }) { try passing(n, ctx, into: &items, overlays: &overlays) }
    if clipped { items.append(.popClip) }
  }

  /// A card that has just passed behind the front card is drawn once more over it, clipped
  /// to it and fading out (its texts, lines and grid first, then its empty body): where they
  /// overlap it dissolves into the front card instead of disappearing behind it in one frame,
  /// and no frame shows the two cards' lines through each other.
  func passing(_ deck: Node, _ ctx: Context, into items: inout [DisplayItem], overlays: inout [DisplayItem]) throws {
    guard let front = deck.children.filter({ $0.placement.visible }).min(by: { $0.placement.depth < $1.placement.depth }) else { return }
    for c in deck.children where c !== front && c.placement.visible && c.placement.passing > 0.001 {
      let own = front.transform
      let clip = own.apply(front.contentFrame)
      let radius = (front.style.cornerRadius > 0 ? front.style.cornerRadius : 12) * own.scale
      items.append(.pushClip(.rect(clip, radius: radius)))
      // In two halves (PassingCard.swift): its texts fade first, then the rest of it.
      let passing = min(1, c.placement.passing)
      items.append(.pushGroup(opacity: PassingCard.bodyOpacity(passing)))
      var card: [DisplayItem] = [], ignored: [DisplayItem] = []
      try emit(c, ctx, into: &card, overlays: &ignored)
      items.append(contentsOf: PassingCard.fadingTexts(card, PassingCard.textOpacity(passing)))
      // Its lines and grid fade with its texts (covered by its own body), so in no frame do
      // two cards' lines show through each other: the front card is uncovered by an empty card.
      if case .card = c.kind {
        let r = c.transform.apply(c.contentFrame)
        let cr = (c.style.cornerRadius > 0 ? c.style.cornerRadius : 12) * c.transform.scale
        items.append(.path(.rect(r, radius: cr), .fill(ctx.theme.cardBackground.multipliedAlpha(1 - PassingCard.textOpacity(passing)))))
      }
      items.append(.popGroup)
      items.append(.popClip)
    }
  }

  /// A chart with axes and no controls on an opaque rounded card.
  func card(_ spec: ChartSpec, _ frame: Rect, radius: Double, _ ctx: Context, key: ChartKey) -> [DisplayItem] {
    var items: [DisplayItem] = [
      .shadow(frame, radius: radius, blur: 10, color: ctx.theme.shadow),
      .path(.rect(frame, radius: radius), .fill(ctx.theme.cardBackground)),
      .pushClip(.rect(frame, radius: radius)),
    ]
    var b = ChartBuilder(spec: spec, isCard: true, frame: frame, theme: ctx.theme, surface: ctx.theme.cardBackground, measurer: measurer,
                         presentation: ctx.presentation, key: key, t: ctx.t)
    items.append(contentsOf: b.build())
    items.append(.popClip)
    return items
  }

  /// The presented card: the full ChartView, with mini-map and check marks, on a sheet over
  /// the dimmed scene.
  func modal(_ spec: ChartSpec, _ ctx: Context, progress: Double, key: ChartKey) -> [DisplayItem] {
    // The sheet slides up from the bottom as it is presented.
    let sheet = Layout.modalFrame(sceneSize: ctx.sceneSize).offsetBy(0, (1 - progress) * ctx.sceneSize.height)
    let full = spec.full
    var items: [DisplayItem] = [
      .path(.rect(Rect(0, 0, ctx.sceneSize.width, ctx.sceneSize.height)), .fill(ctx.theme.modalDim.multipliedAlpha(min(1, progress)))),
      .shadow(sheet, radius: 16, blur: 14, color: ctx.theme.shadow),
      .path(.rect(sheet, radius: 16), .fill(ctx.theme.cardBackground)),
      // The grabber that says the sheet can be swiped down.
      .path(.rect(Rect(sheet.midX - 18, sheet.y + 6, 36, 5), radius: 2.5), .fill(ctx.theme.grid.withAlpha(0.3))),
      .pushClip(.rect(sheet, radius: 16)),
    ]
    var b = ChartBuilder(spec: full, isCard: false, frame: Layout.modalChart(in: sheet), theme: ctx.theme, surface: ctx.theme.cardBackground, measurer: measurer,
                         presentation: ctx.presentation, key: key, t: ctx.t)
    items.append(contentsOf: b.build())
    items.append(.popClip)
    return items
  }
}
