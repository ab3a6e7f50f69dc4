import Drawing
import Gestures
import Motion

/// `cs.cards`: long press then drag the top card down: past a threshold it goes to the
/// back, released earlier it springs back. A tap on the top card presents it in a modal.
struct CardsBehaviour: Behaviour {
  func grab(_ node: Node, at local: Point, chain: [(Node, Point)], _ i: Interaction) -> Grab? {
    guard case .cards(let spec) = node.kind, let top = Layout.cardsOrder(node, spec).first, chain.contains(where: { $0.0 === top })
    else { return nil }
    return CardGrab(deck: node, card: top.id, i)
  }

  /// Cards are hit front to back.
  func hitOrder(_ node: Node, at local: Point) -> [Node]? {
    guard case .cards = node.kind else { return nil }
    return node.children.sorted { $0.placement.depth < $1.placement.depth }
  }
}

/// A press on a deck's top card.
final class CardGrab: Grab {
  let deck: Node
  let card: String
  unowned let i: Interaction
  init(deck: Node, card: String, _ i: Interaction) { self.deck = deck; self.card = card; self.i = i }

  var name: String { deck.id }

  func handle(_ g: Gesture) {
    guard case .cards(var spec) = deck.kind else { return }
    let p = i.p
    let key = deck.id + ".drag." + card
    switch g {
    case .heldDragBegan:
      p.dragging[deck.id] = card
    case .heldDragChanged(let a, let b):
      p.setNumber(key, max(0, b.y - a.y), initial: 0, .immediate)
    case .heldDragEnded(let a, let b, let v):
      p.dragging[deck.id] = nil
      let dy = max(0, b.y - a.y)
      // The card leaves the hand at its speed (down only, as the drag is).
      let speed = dy > 0 ? v.y : 0
      let height = deck.children.first { $0.id == card }?.frame.height ?? 400
      if dy > max(80, height * 0.25) {
        // Every card moves from the depth drawn now (the old order's, the first time) to
        // its new one: the sent card slides behind the stack as the others move up.
        let old = Layout.cardsOrder(deck, spec).map(\.id)
        var order = old
        order.removeAll { $0 == card }
        order.append(card)
        spec.order = order
        deck.kind = .cards(spec)
        let move = Transition(duration: 0.55, curve: .easeInOut)
        // Depths past the deepest shown are not drawn: a card heads no further back than
        // the first hidden place. A card going there slides behind the stack, then fades
        // out; one coming up from there fades in as it moves.
        let shown = CompositionMetrics.visibleCards
        for (k, id) in order.enumerated() {
          let depthKey = deck.id + ".depth." + id, alphaKey = deck.id + ".alpha." + id
          let was = old.firstIndex(of: id) ?? k
          let depth = p.number(depthKey, initial: Double(min(shown, was)), at: i.now)
          p.setNumber(depthKey, Double(min(shown, k)), initial: depth, move)
          let alpha = p.number(alphaKey, initial: Layout.cardAlpha(depth: depth), at: i.now)
          let target = k < shown ? 1.0 : 0.0
          if alpha != target || p.target(alphaKey) != nil {
            let fade = target == 0 ? Transition(duration: 0.45, curve: .easeInOut, delay: 0.25) : move
            p.setNumber(alphaKey, target, initial: alpha, fade)
          }
        }
        p.setNumber(key, 0, initial: 0, move, velocity: speed)
      } else {
        p.setNumber(key, 0, initial: 0, Transition(duration: 0.5, curve: .spring(response: 0.35)), velocity: speed)
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
}
