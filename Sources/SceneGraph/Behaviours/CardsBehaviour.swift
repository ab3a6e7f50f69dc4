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
}
