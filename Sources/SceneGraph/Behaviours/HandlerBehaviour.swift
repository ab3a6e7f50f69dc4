import Drawing
import Gestures

/// A view with the script's handlers (`on = { tap =, longpress =, drag = }`) takes a press
/// that no built-in behaviour of it or of a view inside it took: a chart's parts, a deck's
/// top card, a tab bar keep theirs. Asked after the built-ins, innermost view first.
struct HandlerBehaviour: Behaviour {
  func grab(_ node: Node, at local: Point, chain: [(Node, Point)], _ i: Interaction) -> Grab? {
    guard node.handlers != nil, let k = chain.firstIndex(where: { $0.0 === node }) else { return nil }
    // Each kind of gesture goes to the innermost view of the chain that handles it, from
    // this one outwards: a text that takes taps inside a stack that takes drags passes the
    // drags on. The child is the next node of the chain under that view.
    var targets: [GestureKind: HandlerGrab.Target] = [:]
    for j in stride(from: k, through: 0, by: -1) {
      guard let h = chain[j].0.handlers else { continue }
      let n = chain[j].0
      let child = j + 1 < chain.count ? n.children.firstIndex { $0 === chain[j + 1].0 }.map { $0 + 1 } : nil
      for kind in h.kinds where targets[kind] == nil { targets[kind] = HandlerGrab.Target(node: n, handlers: h, child: child) }
    }
    // Recorded gestures name the innermost view with an id under the press (a composition's
    // child: replayed there, the handler gets the same `e.child`); none: the point itself.
    let named = chain[k...].last { $0.0.explicitID }?.0.id ?? ""
    return HandlerGrab(name: named, targets: targets, i)
  }

  /// A chart a `cs.view` shows in an open sheet (`modal`) takes every press: on the chart's
  /// parts, the chart's own gestures; elsewhere the view's handlers, told `e.sheet` (and
  /// whether the press is inside the sheet).
  func capture(at point: Point, _ i: Interaction) -> Grab? {
    var found: (view: Node, child: Int)?
    i.scene.root.walk { n in
      guard found == nil, case .view = n.kind, let k = n.children.firstIndex(where: { $0.placement.modal && $0.placement.sheet > 0 }) else { return }
      found = (n, k)
    }
    guard let (view, k) = found else { return nil }
    let sheet = Layout.modalFrame(sceneSize: Size(i.scene.width, i.scene.height))
    if sheet.contains(point), let g = ChartGrab.make(view.children[k], full: true, frame: Layout.modalChart(in: sheet), at: point, i) { return g }
    var targets: [GestureKind: HandlerGrab.Target] = [:]
    if let h = view.handlers { for kind in h.kinds { targets[kind] = HandlerGrab.Target(node: view, handlers: h, child: k + 1) } }
    let g = HandlerGrab(name: "", targets: targets, i)  // recorded as the point: inside or outside the sheet matters
    g.sheet = sheet
    return g
  }

  /// A `cs.view` that scrolls (`scrolls = "vertical"`) with a drag handler takes the drags
  /// along its axis from the views inside that yield them, and the wheel.
  func scroller(_ node: Node, _ i: Interaction) -> Scroller? {
    guard case .view(let spec) = node.kind, spec.scrolls != nil, let h = node.handlers, h.kinds.contains(.drag) else { return nil }
    var targets: [GestureKind: HandlerGrab.Target] = [:]
    for kind in [GestureKind.drag, .scroll, .press] where h.kinds.contains(kind) { targets[kind] = HandlerGrab.Target(node: node, handlers: h, child: nil) }
    return HandlerGrab(name: node.id, targets: targets, i)
  }
}

final class HandlerGrab: Scroller {
  struct Target { let node: Node; let handlers: GestureHandlers; let child: Int? }
  let name: String
  let targets: [GestureKind: Target]
  unowned let i: Interaction
  /// The drag's start (view coordinates) and its last place and time, for dx/dy and vx/vy.
  var start = Point(0, 0), last = Point(0, 0), lastScene = Point(0, 0), lastTime = 0.0, velocity = Point(0, 0)
  var dragging = false
  /// The open sheet this grab was captured by (its events say `sheet`, and `inside` it or not).
  var sheet: Rect?

  init(name: String, targets: [GestureKind: Target], _ i: Interaction) {
    self.name = name; self.targets = targets; self.i = i
  }

  /// A press no view here drags lets a surrounding list or carousel scroll.
  var yieldsToScroll: Bool { targets[.drag] == nil }

  /// The axis the view taking the drags scrolls along, if it scrolls.
  var axis: ScrollAxis? {
    guard let n = targets[.drag]?.node, case .view(let spec) = n.kind else { return nil }
    return spec.scrolls
  }
  var isContainer: Bool { axis != nil }
  func isAlong(_ a: Point, _ b: Point) -> Bool {
    axis == .horizontal ? abs(b.x - a.x) > abs(b.y - a.y) : abs(b.y - a.y) > abs(b.x - a.x)
  }

  func pressed() {
    if let p = i.pointerDown { send(.press, p) }
  }

  /// A scene point in a view's own coordinates (its frame's top left is 0, 0).
  func local(_ q: Point, in node: Node) -> Point {
    let l = i.toLocal(of: node, q)
    return Point(l.x - node.frame.x, l.y - node.frame.y)
  }

  func send(_ kind: GestureKind, _ q: Point, _ fill: (inout GestureEvent) -> Void = { _ in }) {
    guard let target = targets[kind], i.failure == nil else { return }
    let l = local(q, in: target.node)
    var e = GestureEvent(kind: kind, x: l.x, y: l.y, child: target.child, time: i.now)
    if let sheet { e.sheet = true; e.inside = sheet.contains(q) }
    fill(&e)
    do { try target.handlers.call(e) } catch { i.failure = error }
  }

  func drag(_ phase: GestureEvent.Phase, _ q: Point, held: Bool, velocity v: Point? = nil) {
    guard let target = targets[.drag] else { return }
    let local = { (q: Point) in self.local(q, in: target.node) }
    let l = local(q)
    if phase == .began { start = l; last = l; lastScene = q; lastTime = i.now; velocity = Point(0, 0) }
    if phase == .changed {
      if i.now > lastTime { velocity = Point((l.x - last.x) / (i.now - lastTime), (l.y - last.y) / (i.now - lastTime)) }
      last = l; lastScene = q; lastTime = i.now
    }
    // The recogniser's release velocity (scene px/s), in the view's coordinates.
    if let v {
      let ahead = local(Point(q.x + v.x * 0.001, q.y + v.y * 0.001))
      velocity = Point((ahead.x - l.x) * 1000, (ahead.y - l.y) * 1000)
      // Where nothing above the view scales or turns it, the recogniser's own numbers (the
      // difference above only adds rounding).
      if abs(velocity.x - v.x) <= 1e-6 * max(1, abs(v.x)), abs(velocity.y - v.y) <= 1e-6 * max(1, abs(v.y)) { velocity = v }
    }
    let vel = velocity
    send(.drag, q) { e in
      e.phase = phase; e.held = held
      e.dx = l.x - self.start.x; e.dy = l.y - self.start.y
      e.vx = vel.x; e.vy = vel.y
    }
  }

  func handle(_ g: Gesture) {
    switch g {
    case .tap(let q): send(.tap, q)
    case .longPressBegan(let q): send(.longpress, q)
    case .dragBegan(let a): dragging = true; drag(.began, a, held: false)
    case .dragChanged(_, let b): drag(.changed, b, held: false)
    case .dragEnded(_, let b, let v): dragging = false; drag(.ended, b, held: false, velocity: v)
    case .heldDragBegan(let a): dragging = true; drag(.began, a, held: true)
    case .heldDragChanged(_, let b): drag(.changed, b, held: true)
    case .heldDragEnded(_, let b, let v): dragging = false; drag(.ended, b, held: true, velocity: v)
    case .cancelled:
      if dragging { dragging = false; drag(.cancelled, lastScene, held: false) }
    case .scroll(let q, let dx, let dy): send(.scroll, q) { e in e.dx = dx; e.dy = dy }
    case .longPressEnded: break
    }
  }
}
