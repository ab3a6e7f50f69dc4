import Glibc
import ChartModel
import Drawing
import Gestures
import Motion

/// Turns pointer input into changes of the scene: the built-in behaviour of every view,
/// the same for scripted and live pointers. One pointer at a time.
public final class Interaction {
  let scene: Scene
  let measurer: TextMeasurer
  var recognizer = GestureRecognizer()
  var grab: Grab = .none
  /// The scroll container around the grabbed view: a drag along its axis or a wheel
  /// scrolls it instead (decided at the drag's first movement).
  var scroller: Grab?

  /// What the pointer took hold of when it went down.
  enum Grab {
    case none
    case chart(Node, part: ChartPart, frame: Rect, start: TimeWindow)
    case card(deck: Node, card: String)
    case modal(deck: Node)
    case scroll(Node, start: Double, horizontal: Bool)
    case tabs(Node)
  }

  enum ChartPart: Equatable { case window, left, right, plot, legend(String) }

  public init(scene: Scene, measurer: TextMeasurer) {
    self.scene = scene
    self.measurer = measurer
  }

  var p: Presentation { scene.presentation }
  var now: Double { p.now }

  /// Feeds one pointer event (at the current tick).
  public func handle(_ e: PointerEvent) {
    switch e.phase {
    case .down: (grab, scroller) = targets(at: e.location)
    case .scroll:
      let (g, s) = targets(at: e.location)
      grab = s ?? g
      scroller = nil
    default: break
    }
    for g in recognizer.feed(e) { route(g) }
    if case .up = e.phase { grab = .none; scroller = nil }
  }

  /// Hands a gesture to the grab; a drag along a scroll container's axis that did not start
  /// on a control of its own (a mini-map, a card) scrolls the container instead.
  func route(_ g: Gesture) {
    if let s = scroller, case .dragChanged(let a, let b) = g {
      scroller = nil
      if case .scroll(_, _, let horizontal) = s, case .chart(_, let part, _, _) = grab, part == .plot {
        let along = horizontal ? abs(b.x - a.x) > abs(b.y - a.y) : abs(b.y - a.y) > abs(b.x - a.x)
        if along {
          grab = s
          dispatch(.dragBegan(start: a))
        }
      }
    }
    dispatch(g)
  }

  /// Advances the recogniser's clock (a held press becomes a long press).
  public func tick(_ t: Double) {
    for g in recognizer.tick(t) { route(g) }
  }

  // MARK: - Hit testing

  /// The nodes under a point, root first, with the point in the innermost node's layout
  /// coordinates (through offsets, scales and 3D turns).
  public func hit(_ point: Point) -> [(Node, Point)] {
    var chain: [(Node, Point)] = []
    _ = hit(scene.root, point, &chain)
    return chain
  }

  func hit(_ n: Node, _ point: Point, _ chain: inout [(Node, Point)]) -> Bool {
    guard n.placement.visible else { return false }
    let local = Interaction.toLocal(n, point)
    guard n.frame.contains(local) else { return false }
    chain.append((n, local))
    var children = n.children
    switch n.kind {
    case .cards: children.sort { $0.placement.depth < $1.placement.depth }
    case .list, .carousel: children.sort { abs($0.placement.turn) < abs($1.placement.turn) }
    case .tabs(let spec):
      let bar = Layout.tabBar(spec, n.contentFrame).bar
      if bar.contains(local) { return true }
    default: children.reverse()  // later children are drawn on top
    }
    for c in children where hit(c, local, &chain) { return true }
    return true
  }

  /// Undoes a node's placement and style transforms (the inverse of what is drawn).
  static func toLocal(_ n: Node, _ q: Point) -> Point {
    let s = n.style, pl = n.placement
    let c = n.frame.center
    let scale = s.scale * pl.scale
    var x = (q.x - c.x - s.offset.x - pl.offset.x) / max(1e-6, scale) + c.x
    var y = (q.y - c.y - s.offset.y - pl.offset.y) / max(1e-6, scale) + c.y
    let turn = pl.turn + (s.rotation3d?.angle ?? 0)
    if turn != 0 {
      let theta = turn * Double.pi / 180, persp = s.rotation3d?.perspective ?? 1000
      let a = x - c.x
      let u = a * persp / max(1e-9, persp * cos(theta) - a * sin(theta))
      let k = persp / max(1, persp + u * sin(theta))
      x = c.x + u
      y = c.y + (y - c.y) / k
    }
    return Point(x, y)
  }

  /// What a pointer going down at `point` takes hold of, and the scroll container around it.
  func targets(at point: Point) -> (Grab, Grab?) {
    let g = target(at: point)
    var s: Grab? = nil
    for (node, _) in hit(point).reversed() {
      if case .list = node.kind { s = .scroll(node, start: 0, horizontal: false); break }
      if case .carousel = node.kind { s = .scroll(node, start: 0, horizontal: true); break }
    }
    if case .scroll = g { return (g, nil) }
    return (g, s)
  }

  /// Decides what a pointer going down at `point` takes hold of.
  func target(at point: Point) -> Grab {
    // An open modal sheet is on top of everything.
    var modalDeck: Node?
    scene.root.walk { n in if case .cards(let spec) = n.kind, spec.modal != nil { modalDeck = n } }
    if let deck = modalDeck {
      let sheet = Layout.modalFrame(sceneSize: Size(scene.width, scene.height))
      if sheet.contains(point), case .cards(let spec) = deck.kind, let id = spec.modal, let card = deck.children.first(where: { $0.id == id }),
        let part = chartPart(card, full: true, frame: sheet.inset(top: 14), at: point)
      {
        return .chart(card, part: part, frame: sheet.inset(top: 14), start: p.window(card.chart!.data, at: now))
      }
      return .modal(deck: deck)
    }
    let chain = hit(point)
    for (node, local) in chain.reversed() {
      switch node.kind {
      case .chart:
        if let part = chartPart(node, full: false, frame: node.contentFrame, at: local) {
          return .chart(node, part: part, frame: node.contentFrame, start: p.window(node.chart!.data, at: now))
        }
      case .cards(let spec):
        if let top = Layout.cardsOrder(node, spec).first, chain.contains(where: { $0.0 === top }) { return .card(deck: node, card: top.id) }
      case .list: return .scroll(node, start: 0, horizontal: false)
      case .carousel: return .scroll(node, start: 0, horizontal: true)
      case .tabs: return .tabs(node)
      default: break
      }
    }
    return .none
  }

  func chartPart(_ n: Node, full: Bool, frame: Rect, at q: Point) -> ChartPart? {
    guard var spec = n.chart else { return nil }
    if full { spec.minimap = true; spec.legend = true; spec.indicator = true }
    let parts = ChartParts.make(spec: spec, card: !full && { if case .card = n.kind { return true }; return false }(), frame: frame,
                                measurer: measurer, window: p.window(spec.data, at: now))
    for chip in parts.legend where chip.frame.contains(q) { return .legend(chip.id) }
    if let mm = parts.minimap, mm.contains(q), let w = parts.minimapWindow {
      if let l = parts.minimapLeft, l.inset(by: -6).contains(q) { return .left }
      if let r = parts.minimapRight, r.inset(by: -6).contains(q) { return .right }
      if w.contains(q) { return .window }
      return q.x < w.minX ? .left : .right
    }
    if parts.plot.contains(q) { return .plot }
    return nil
  }

  // MARK: - Behaviour

  func dispatch(_ g: Gesture) {
    switch grab {
    case .none: break
    case .chart(let node, let part, let frame, let start): chart(node, part, frame, start, g)
    case .card(let deck, let card): cards(deck, card, g)
    case .modal(let deck): modal(deck, g)
    case .scroll(let node, _, let horizontal): scroll(node, horizontal, g)
    case .tabs(let node): tabs(node, g)
    }
  }

  /// The mini-map window moves with a drag inside it; a drag on a handle or the dimmed part
  /// moves that edge; the window keeps a minimum width and sticks to the ends. Panning the
  /// plot moves the indicator (snapped to points); a tap on a chip toggles its line, a
  /// long press shows only that line.
  func chart(_ node: Node, _ part: ChartPart, _ frame: Rect, _ start: TimeWindow, _ g: Gesture) {
    guard var spec = node.chart else { return }
    let set = spec.data
    let full: Bool = { if case .card = node.kind { return true }; return false }()
    var s2 = spec
    if full { s2.minimap = true; s2.legend = true; s2.indicator = true }
    let parts = ChartParts.make(spec: s2, card: false, frame: frame, measurer: measurer, window: p.window(set, at: now))
    switch (part, g) {
    case (.window, .dragChanged(let a, let b)), (.window, .heldDragChanged(let a, let b)),
      (.left, .dragChanged(let a, let b)), (.left, .heldDragChanged(let a, let b)),
      (.right, .dragChanged(let a, let b)), (.right, .heldDragChanged(let a, let b)):
      guard let mm = parts.minimap, mm.width > 0 else { return }
      let dx = (b.x - a.x) / mm.width
      let magnet = 0.015
      var lo = start.lo, hi = start.hi
      switch part {
      case .window:
        let width = start.width
        lo = max(0, min(1 - width, start.lo + dx))
        if lo < magnet { lo = 0 }
        if lo > 1 - width - magnet { lo = 1 - width }
        hi = lo + width
      case .left:
        lo = max(0, min(start.hi - set.minimumWindowWidth, start.lo + dx))
        if lo < magnet { lo = 0 }
      default:
        hi = min(1, max(start.lo + set.minimumWindowWidth, start.hi + dx))
        if hi > 1 - magnet { hi = 1 }
      }
      p.setRange(set, lo, hi, .immediate)
    case (.plot, .tap(let q)), (.plot, .dragBegan(let q)), (.plot, .dragChanged(_, let q)), (.plot, .longPressBegan(let q)),
      (.plot, .heldDragChanged(_, let q)):
      let plot = parts.plot
      guard plot.width > 0, set.count > 0 else { return }
      let w = p.window(set, at: now)
      let f = w.lo + max(0, min(1, (q.x - plot.x) / plot.width)) * w.width
      let i = set.nearestIndex(toTime: set.time(atFraction: f))
      spec.indicator = true
      spec.indicatorAt = set.fraction(atTime: set.xs[i])
      node.kind = full ? .card(spec) : .chart(spec)
    case (.legend(let id), .tap):
      p.setHidden(set, id, !set.isHidden(id))
    case (.legend(let id), .longPressBegan):
      for line in set.lines { p.setHidden(set, line.id, line.id != id) }
    default: break
    }
  }

  /// Long press then drag the top card down: past a threshold it goes to the back, released
  /// earlier it springs back. A tap on the top card presents it in a modal.
  func cards(_ deck: Node, _ card: String, _ g: Gesture) {
    guard case .cards(var spec) = deck.kind else { return }
    let key = deck.id + ".drag." + card
    switch g {
    case .heldDragBegan:
      p.dragging[deck.id] = card
    case .heldDragChanged(let a, let b):
      p.setNumber(key, max(0, b.y - a.y), initial: 0, .immediate)
    case .heldDragEnded(let a, let b, _):
      p.dragging[deck.id] = nil
      let dy = max(0, b.y - a.y)
      let height = deck.children.first { $0.id == card }?.frame.height ?? 400
      if dy > max(80, height * 0.25) {
        var order = Layout.cardsOrder(deck, spec).map(\.id)
        order.removeAll { $0 == card }
        order.append(card)
        spec.order = order
        deck.kind = .cards(spec)
        let move = Transition(duration: 0.45, curve: .easeInOut)
        for (k, id) in order.enumerated() {
          let initial = Double(Layout.cardsOrder(deck, spec).firstIndex { $0.id == id } ?? k)
          p.setNumber(deck.id + ".depth." + id, Double(k), initial: initial, move)
        }
        p.setNumber(key, 0, initial: 0, move)
      } else {
        p.setNumber(key, 0, initial: 0, Transition(duration: 0.5, curve: .spring(response: 0.35)))
      }
    case .tap:
      spec.modal = card
      deck.kind = .cards(spec)
      p.closingModal[deck.id] = nil
      p.setNumber(deck.id + ".modal", 0, initial: 0, .immediate)
      p.setNumber(deck.id + ".modal", 1, initial: 0, Transition(duration: 0.35, curve: .easeInOut))
    default: break
    }
  }

  /// With a card presented: a tap outside the sheet or a swipe down closes it.
  func modal(_ deck: Node, _ g: Gesture) {
    guard case .cards(var spec) = deck.kind, let id = spec.modal else { return }
    let sheet = Layout.modalFrame(sceneSize: Size(scene.width, scene.height))
    var close = false
    switch g {
    case .tap(let q): close = !sheet.contains(q)
    case .dragEnded(let a, let b, _), .heldDragEnded(let a, let b, _): close = b.y - a.y > 80
    default: break
    }
    guard close else { return }
    spec.modal = nil
    deck.kind = .cards(spec)
    p.closingModal[deck.id] = id
    p.setNumber(deck.id + ".modal", 0, initial: 1, Transition(duration: 0.3, curve: .easeInOut))
  }

  /// Lists and carousels scroll with a drag or a wheel, and keep going after a flick.
  func scroll(_ node: Node, _ horizontal: Bool, _ g: Gesture) {
    let key = node.id + ".scroll"
    var model: Double
    switch node.kind {
    case .list(let s): model = s.scroll
    case .carousel(let s): model = s.scroll
    default: return
    }
    let current = p.number(key, initial: model, at: now)
    func set(_ value: Double, _ transition: Transition) {
      let clamped = max(0, min(value, maxScroll(node)))
      switch node.kind {
      case .list(var s): s.scroll = clamped; node.kind = .list(s)
      case .carousel(var s): s.scroll = clamped; node.kind = .carousel(s)
      default: break
      }
      p.setNumber(key, clamped, initial: current, transition)
    }
    switch g {
    case .dragBegan:
      scrollStart[node.id] = current
    case .dragChanged(let a, let b):
      let d = horizontal ? b.x - a.x : b.y - a.y
      set((scrollStart[node.id] ?? current) - d, .immediate)
    case .dragEnded(_, _, let v):
      // Deceleration: the flick carries on for about a third of a second's travel.
      var target = current - (horizontal ? v.x : v.y) * 0.35
      if horizontal, case .carousel(let s) = node.kind {
        let pitch = Layout.itemWidth(s, node.contentFrame) + s.spacing
        target = (target / pitch).rounded() * pitch
      }
      set(target, Transition(duration: 0.6, curve: .easeInOut))
    case .scroll(_, let dx, let dy):
      let base = p.target(key) ?? current
      set(base + (horizontal ? (dx != 0 ? dx : dy) : dy), Transition(duration: 0.15, curve: .linear))
    default: break
    }
  }
  var scrollStart: [String: Double] = [:]

  func maxScroll(_ node: Node) -> Double {
    let inner = node.contentFrame
    switch node.kind {
    case .list(let s):
      let rowHeight = s.rowHeight ?? min(inner.height, max(240, (inner.width * 0.8).rounded()))
      let content = node.children.map { $0.style.height ?? rowHeight }.reduce(0, +) + s.spacing * Double(max(0, node.children.count - 1))
      return max(0, content - inner.height)
    case .carousel(let s):
      return (Layout.itemWidth(s, inner) + s.spacing) * Double(max(0, node.children.count - 1))
    default: return 0
    }
  }

  /// A tap on a tab selects it; the new tab fades in.
  func tabs(_ node: Node, _ g: Gesture) {
    guard case .tap(let q) = g, case .tabs(var spec) = node.kind else { return }
    let tabs = Layout.tabBar(spec, node.contentFrame).tabs
    guard let k = tabs.firstIndex(where: { $0.contains(q) }), k != spec.selected else { return }
    spec.selected = k
    node.kind = .tabs(spec)
    p.setNumber(node.id + ".fade", 0, initial: 1, .immediate)
    p.setNumber(node.id + ".fade", 1, initial: 0, Transition(duration: 0.25, curve: .easeInOut))
  }

  // MARK: - Targets

  /// A name for what is under a point: a chart part (`c.legend.y0`, `c.minimap.window`,
  /// `c.plot`), the top card's deck, a list, a tab bar; nil for nothing in particular.
  public func targetName(at q: Point) -> String? {
    switch target(at: q) {
    case .none: return nil
    case .chart(let node, let part, _, _):
      switch part {
      case .window: return node.id + ".minimap.window"
      case .left: return node.id + ".minimap.left"
      case .right: return node.id + ".minimap.right"
      case .plot: return node.id + ".plot"
      case .legend(let id): return node.id + ".legend." + id
      }
    case .card(let deck, _): return deck.id
    case .modal(let deck): return deck.id
    case .scroll(let node, _, _): return node.id
    case .tabs(let node): return node.id
    }
  }

  /// The centre of a node or chart part now (`deck`, `views.minimap.window`, `views.plot`).
  public func point(of target: String) -> Point? {
    var best: Node?
    var rest = ""
    scene.root.walk { n in
      if target == n.id || target.hasPrefix(n.id + "."), n.id.count > (best?.id.count ?? -1) {
        best = n
        rest = target == n.id ? "" : String(target.dropFirst(n.id.count + 1))
      }
    }
    guard let node = best else { return nil }
    let frame = node.frame
    let centre = Interaction.toScene(node, within: scene.root, frame.center)
    if rest.isEmpty { return centre }
    guard let spec = node.chart else { return nil }
    var full = spec
    var area = node.contentFrame
    if case .cards(let d)? = parent(of: node)?.kind, d.modal == node.id {
      full.minimap = true; full.legend = true; full.indicator = true
      area = Layout.modalFrame(sceneSize: Size(scene.width, scene.height)).inset(top: 14)
      let parts = ChartParts.make(spec: full, card: false, frame: area, measurer: measurer, window: p.window(spec.data, at: now))
      return parts.named.first { $0.0 == rest }?.1.center
    }
    let isCard: Bool = { if case .card = node.kind { return true }; return false }()
    let parts = ChartParts.make(spec: spec, card: isCard, frame: area, measurer: measurer, window: p.window(spec.data, at: now))
    guard let r = parts.named.first(where: { $0.0 == rest })?.1 else { return nil }
    return Interaction.toScene(node, within: scene.root, r.center)
  }

  func parent(of target: Node) -> Node? {
    var found: Node?
    scene.root.walk { n in if n.children.contains(where: { $0 === target }) { found = n } }
    return found
  }

  /// A point in a node's layout coordinates as drawn in the scene (3D turns, offsets and
  /// scales of the node and its ancestors: the inverse of `toLocal`).
  static func toScene(_ node: Node, within root: Node, _ q: Point) -> Point {
    var path: [Node] = []
    func find(_ n: Node) -> Bool {
      if n === node { path.append(n); return true }
      for c in n.children where find(c) { path.append(n); return true }
      return false
    }
    _ = find(root)
    var p = q
    for n in path {  // innermost first
      let s = n.style, pl = n.placement
      let c = n.frame.center
      let turn = pl.turn + (s.rotation3d?.angle ?? 0)
      if turn != 0 {
        let theta = turn * Double.pi / 180, persp = s.rotation3d?.perspective ?? 1000
        let u = p.x - c.x
        let k = persp / max(1, persp + u * sin(theta))
        p = Point(c.x + u * cos(theta) * k, c.y + (p.y - c.y) * k)
      }
      let scale = s.scale * pl.scale
      p = Point((p.x - c.x) * scale + c.x + s.offset.x + pl.offset.x, (p.y - c.y) * scale + c.y + s.offset.y + pl.offset.y)
    }
    return p
  }
}
