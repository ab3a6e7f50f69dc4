import Drawing

/// `cs.carousel`: scrolls horizontally with a drag or a wheel; a flick comes to rest with
/// an item at the centre.
struct CarouselBehaviour: Scrolling {
  var horizontal: Bool { true }
  /// A touch does not stop a snap half-way between two items.
  var catches: Bool { false }

  func offset(_ node: Node) -> Double? {
    if case .carousel(let s) = node.kind { return s.scroll }
    return nil
  }

  func setOffset(_ node: Node, _ value: Double) {
    if case .carousel(var s) = node.kind { s.scroll = value; node.kind = .carousel(s) }
  }

  func pitch(_ node: Node) -> Double {
    guard case .carousel(let s) = node.kind else { return 1 }
    return Layout.itemWidth(s, node.contentFrame) + s.spacing
  }

  func maxScroll(_ node: Node) -> Double { pitch(node) * Double(max(0, node.children.count - 1)) }

  func rest(_ node: Node, _ target: Double) -> Double {
    let pitch = pitch(node)
    return (target / pitch).rounded() * pitch
  }

  /// The item facing the viewer is on top of the turned ones beside it.
  func hitOrder(_ node: Node, at local: Point) -> [Node]? {
    guard case .carousel = node.kind else { return nil }
    return node.children.sorted { abs($0.placement.turn) < abs($1.placement.turn) }
  }
}
