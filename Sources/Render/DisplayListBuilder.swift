import ChartModel
import Drawing
import SceneGraph

/// Turns a laid-out scene at time t into a display list. Runs on the thread that owns the
/// scene (canvas views call back into the script); the result is plain values.
public struct DisplayListBuilder {
  public let measurer: TextMeasurer
  public init(measurer: TextMeasurer) { self.measurer = measurer }

  public func build(_ scene: Scene, time t: Double) throws -> DisplayList {
    let bg = scene.background?.resolve(scene.theme) ?? scene.theme.background
    var list = DisplayList(size: Size(scene.width, scene.height), background: bg)
    try emit(scene.root, theme: scene.theme, surface: bg, t: t, into: &list.items)
    return list
  }

  func emit(_ n: Node, theme: Theme, surface: Color, t: Double, into items: inout [DisplayItem]) throws {
    let s = n.style
    let frame = n.frame
    var transform = Affine.identity
    if s.offset != .zero { transform = .translation(s.offset.x, s.offset.y) }
    if s.scale != 1 {
      let c = frame.center
      transform = Affine(a: s.scale, b: 0, c: 0, d: s.scale, tx: transform.tx + c.x - s.scale * c.x, ty: transform.ty + c.y - s.scale * c.y)
    }
    if !transform.isIdentity { items.append(.pushTransform(transform)) }
    if s.opacity < 1 { items.append(.pushGroup(opacity: max(0, s.opacity))) }
    var surface = surface
    if let bgRef = s.background {
      let c = bgRef.resolve(theme)
      items.append(.path(.rect(frame, radius: s.cornerRadius), .fill(c)))
      if c.a >= 1 { surface = c }
    }
    let clipped = s.cornerRadius > 0
    if clipped { items.append(.pushClip(.rect(frame, radius: s.cornerRadius))) }

    let content = n.contentFrame
    switch n.kind {
    case .chart(let spec):
      var b = ChartBuilder(spec: spec, isCard: false, frame: content, theme: theme, surface: surface, measurer: measurer)
      items.append(contentsOf: b.build())
    case .card(let spec):
      let radius = s.cornerRadius > 0 ? s.cornerRadius : 12
      items.append(.shadow(content, radius: radius, blur: 10, color: theme.shadow))
      items.append(.path(.rect(content, radius: radius), .fill(theme.cardBackground)))
      items.append(.pushClip(.rect(content, radius: radius)))
      var b = ChartBuilder(spec: spec, isCard: true, frame: content, theme: theme, surface: theme.cardBackground, measurer: measurer)
      items.append(contentsOf: b.build())
      items.append(.popClip)
    case .text(let spec):
      let font = Font(size: spec.size, weight: spec.weight)
      let size = measurer.measure(spec.text, font: font)
      let x: Double
      switch spec.align {
      case .left: x = content.x
      case .center: x = content.midX
      case .right: x = content.maxX
      }
      items.append(.pushClip(.rect(frame)))
      items.append(.text(TextRun(spec.text, font: font, color: spec.color.resolve(theme), origin: Point(x, content.midY - size.height / 2), align: spec.align)))
      items.append(.popClip)
    case .canvas(let spec):
      let recorded = try spec.draw(content.width, content.height, t, theme)
      items.append(.pushTransform(.translation(content.x, content.y)))
      items.append(.pushClip(.rect(Rect(0, 0, content.width, content.height))))
      items.append(contentsOf: recorded)
      items.append(.popClip)
      items.append(.popTransform)
    case .stack, .spacer:
      break
    }
    for c in n.children { try emit(c, theme: theme, surface: surface, t: t, into: &items) }

    if clipped { items.append(.popClip) }
    if s.opacity < 1 { items.append(.popGroup) }
    if !transform.isIdentity { items.append(.popTransform) }
  }
}
