import Drawing
import Gestures
import Motion

/// A card presented in a modal sheet: the sheet is on top of everything, so it captures
/// every press. Inside the sheet the chart's own gestures work; a tap outside it or a swipe
/// down closes it.
struct ModalBehaviour: Behaviour {
  func grab(_ node: Node, at local: Point, chain: [(Node, Point)], _ i: Interaction) -> Grab? { nil }

  func capture(at point: Point, _ i: Interaction) -> Grab? {
    var modalDeck: Node?
    i.scene.root.walk { n in if case .cards(let spec) = n.kind, spec.modal != nil { modalDeck = n } }
    guard let deck = modalDeck else { return nil }
    let sheet = Layout.modalFrame(sceneSize: Size(i.scene.width, i.scene.height))
    if sheet.contains(point), case .cards(let spec) = deck.kind, let id = spec.modal, let card = deck.children.first(where: { $0.id == id }),
      let g = ChartGrab.make(card, full: true, frame: Layout.modalChart(in: sheet), at: point, i)
    {
      return g
    }
    return ModalGrab(deck: deck, i)
  }
}

/// A press on an open modal outside its chart's parts.
final class ModalGrab: Grab {
  let deck: Node
  unowned let i: Interaction
  init(deck: Node, _ i: Interaction) { self.deck = deck; self.i = i }

  var name: String { deck.id }

  func handle(_ g: Gesture) {
    guard case .cards(var spec) = deck.kind, let id = spec.modal else { return }
    let sheet = Layout.modalFrame(sceneSize: Size(i.scene.width, i.scene.height))
    var close = false
    switch g {
    case .tap(let q): close = !sheet.contains(q)
    case .dragEnded(let a, let b, _), .heldDragEnded(let a, let b, _): close = b.y - a.y > 80
    default: break
    }
    guard close else { return }
    spec.modal = nil
    deck.kind = .cards(spec)
    i.p.closingModal[deck.id] = id
    i.p.setNumber(deck.id + ".modal", 0, initial: 1, Transition(duration: 0.3, curve: .easeInOut))
  }
}
