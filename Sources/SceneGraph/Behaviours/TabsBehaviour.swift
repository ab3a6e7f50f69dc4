import Drawing
import Gestures
import Motion

/// `cs.tabs`: a tap on a tab selects it; the new tab fades in. A press on the bar never
/// reaches the tab's view.
struct TabsBehaviour: Behaviour {
  func grab(_ node: Node, at local: Point, chain: [(Node, Point)], _ i: Interaction) -> Grab? {
    guard case .tabs = node.kind else { return nil }
    return TabsGrab(node: node, i)
  }

  func hitOrder(_ node: Node, at local: Point) -> [Node]? {
    guard case .tabs(let spec) = node.kind else { return nil }
    return Layout.tabBar(spec, node.contentFrame).bar.contains(local) ? [] : node.children
  }
}

final class TabsGrab: Grab {
  let node: Node
  unowned let i: Interaction
  init(node: Node, _ i: Interaction) { self.node = node; self.i = i }

  var name: String { node.id }

  func handle(_ g: Gesture) {
    guard case .tap(let q) = g, case .tabs(var spec) = node.kind else { return }
    let tabs = Layout.tabBar(spec, node.contentFrame).tabs
    guard let k = tabs.firstIndex(where: { $0.contains(q) }), k != spec.selected else { return }
    spec.selected = k
    node.kind = .tabs(spec)
    i.p.setNumber(node.id + ".fade", 0, initial: 1, .immediate)
    i.p.setNumber(node.id + ".fade", 1, initial: 0, Transition(duration: 0.25, curve: .easeInOut))
  }
}
