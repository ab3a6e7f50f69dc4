import Glibc
import ChartModel
import Drawing
import Gestures
import Motion

/// Turns pointer input into changes of the scene, the same for scripted and live pointers.
/// One pointer at a time. This file holds hit testing and dispatch; what a chart does with a
/// gesture is `ChartBehaviour`, what a composition does is its script's handlers
/// (`HandlerBehaviour`; compositions are Lua, `assets/compositions/`).
public final class Interaction {
  let scene: Scene
  let measurer: TextMeasurer
  var recognizer = GestureRecognizer()
  /// What the pointer took hold of when it went down (nil: nothing).
  var grab: Grab?
  /// The scroll container around the grabbed view: a drag along its axis or a wheel
  /// scrolls it instead (decided at the drag's first movement).
  var scroller: Scroller?

  /// The behaviours, asked in this order: a `capture` (an open sheet) wins over hit testing;
  /// then, innermost node first, the first behaviour that grabs.
  let behaviours: [Behaviour] = [
    ChartBehaviour(), HandlerBehaviour(),
  ]
  /// Where the pointer last went down (scene pixels).
  var pointerDown: Point?
  /// The first error a script's gesture handler raised; the host reports it and stops.
  public var failure: Error?

  public init(scene: Scene, measurer: TextMeasurer) {
    self.scene = scene
    self.measurer = measurer
  }

  var p: Presentation { scene.presentation }
  var now: Double { p.now }

  /// Feeds one pointer event (at the current tick).
  public func handle(_ e: PointerEvent) {
    switch e.phase {
    case .down:
      pointerDown = e.location
      (grab, scroller) = targets(at: e.location)
      grab?.pressed()
      scroller?.pressed()
    case .scroll:
      let (g, s) = targets(at: e.location)
      grab = s ?? g
      scroller = nil
    default: break
    }
    for g in recognizer.feed(e) { route(g) }
    if case .up = e.phase { grab = nil; scroller = nil }
  }

  /// Hands a gesture to the grab; a drag along a scroll container's axis that did not start
  /// on a control of its own (a mini-map, a card) scrolls the container instead.
  func route(_ g: Gesture) {
    // The drag's beginning waits for its first movement, which decides who gets it (so a
    // flick over a chart in a list does not move the chart's indicator first).
    if scroller != nil, grab?.yieldsToScroll == true, case .dragBegan = g { return }
    if let s = scroller, case .dragChanged(let a, let b) = g {
      scroller = nil
      if grab?.yieldsToScroll == true {
        if s.isAlong(a, b) { grab = s }
        grab?.handle(.dragBegan(start: a))
      }
    }
    grab?.handle(g)
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
    guard n.placement.visible, !n.placement.leaving else { return false }
    let local = n.fromParent(point)
    guard n.frame.contains(local) else { return false }
    chain.append((n, local))
    // Later children are on top; a `cs.view`'s by `z` first (equal: the later one).
    let children = n.children.reversed().sorted { $0.placement.z > $1.placement.z }
    for c in children where hit(c, local, &chain) { return true }
    return true
  }

  /// A scene point in `node`'s layout coordinates: the inverse of every transform drawn
  /// from the root down to it (the point need not be over the node any more).
  func toLocal(of node: Node, _ q: Point) -> Point {
    var p = q
    for n in Interaction.path(to: node, within: scene.root).reversed() { p = n.fromParent(p) }  // root first
    return p
  }

  /// The nodes from `node` up to `root`, innermost first (empty when `node` is not in the tree).
  static func path(to node: Node, within root: Node) -> [Node] {
    var path: [Node] = []
    func find(_ n: Node) -> Bool {
      if n === node { path.append(n); return true }
      for c in n.children where find(c) { path.append(n); return true }
      return false
    }
    _ = find(root)
    return path
  }

  /// What a pointer going down at `point` takes hold of, and the scroll container around it.
  func targets(at point: Point) -> (Grab?, Scroller?) {
    let g = target(at: point)
    if let s = g as? Scroller, s.isContainer { return (g, nil) }
    var s: Scroller? = nil
    for (node, _) in hit(point).reversed() {
      if let found = behaviours.lazy.compactMap({ $0.scroller(node, self) }).first { s = found; break }
    }
    return (g, s)
  }

  /// Decides what a pointer going down at `point` takes hold of.
  func target(at point: Point) -> Grab? {
    for b in behaviours { if let g = b.capture(at: point, self) { return g } }
    let chain = hit(point)
    for (node, local) in chain.reversed() {
      for b in behaviours { if let g = b.grab(node, at: local, chain: chain, self) { return g } }
    }
    return nil
  }

  // MARK: - Targets

  /// A name for what is under a point: a chart part (`c.legend.y0`, `c.minimap.window`,
  /// `c.plot`), the top card's deck, a list, a tab bar; nil for nothing in particular.
  public func targetName(at q: Point) -> String? {
    guard let name = target(at: q)?.name, !name.isEmpty else { return nil }
    return name
  }

  /// The centre of a node or chart part now (`deck`, `views.minimap.window`, `views.plot`).
  public func point(of target: String) -> Point? {
    guard let (node, rest) = resolve(target) else { return nil }
    if rest.isEmpty { return Interaction.toScene(node, within: scene.root, node.frame.center) }
    guard let spec = node.chart else { return nil }
    let c = chartLayout(node, spec)
    let parts = ChartParts.make(spec: c.spec, card: c.card, frame: c.area, measurer: measurer, window: p.window(spec.data, at: now))
    if c.modal { return parts.named.first { $0.0 == rest }?.1.center }
    guard let r = (parts.named + zoomParts(spec, parts, frame: c.area, key: ChartKey(node.identity))).first(where: { $0.0 == rest })?.1 else { return nil }
    return Interaction.toScene(node, within: scene.root, r.center)
  }

  /// The node `target` names (the longest id it is or starts with, then a dot) and what
  /// follows that id; `legend.NAME` is read as `legend.ID` (CSV and JSON lines are named
  /// after their columns).
  func resolve(_ target: String) -> (node: Node, rest: String)? {
    var best: Node?
    var rest = ""
    scene.root.walk { n in
      if target == n.id || target.hasPrefix(n.id + "."), n.id.count > (best?.id.count ?? -1) {
        best = n
        rest = target == n.id ? "" : String(target.dropFirst(n.id.count + 1))
      }
    }
    guard let node = best else { return nil }
    if rest.hasPrefix("legend."), let set = node.chart?.data, let id = set.lineID(for: String(rest.dropFirst(7))) {
      rest = "legend." + id
    }
    return (node, rest)
  }

  /// How chart `node` is laid out now: the full chart of the modal sheet while its deck
  /// presents it, else its own spec in its own frame.
  func chartLayout(_ node: Node, _ spec: ChartSpec) -> (spec: ChartSpec, area: Rect, card: Bool, modal: Bool) {
    if node.placement.modal && node.placement.sheet > 0 {
      return (spec.full, Layout.modalChart(in: Layout.modalFrame(sceneSize: Size(scene.width, scene.height))), false, true)
    }
    let isCard: Bool = { if case .card = node.kind { return true }; return false }()
    return (spec, node.contentFrame, isCard, false)
  }

  func parent(of target: Node) -> Node? {
    var found: Node?
    scene.root.walk { n in if n.children.contains(where: { $0 === target }) { found = n } }
    return found
  }

  /// A point in a node's layout coordinates as drawn in the scene (3D turns, offsets and
  /// scales of the node and its ancestors: the inverse of `toLocal`; NodeTransform.swift).
  static func toScene(_ node: Node, within root: Node, _ q: Point) -> Point {
    var p = q
    for n in path(to: node, within: root) { p = n.toParent(p) }  // innermost first
    return p
  }
}
