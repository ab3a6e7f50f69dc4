import Drawing

/// `cs.list`: scrolls vertically with a drag or a wheel, with deceleration after a flick.
struct ListBehaviour: Scrolling {
  var horizontal: Bool { false }

  func offset(_ node: Node) -> Double? {
    if case .list(let s) = node.kind { return s.scroll }
    return nil
  }

  func setOffset(_ node: Node, _ value: Double) {
    if case .list(var s) = node.kind { s.scroll = value; node.kind = .list(s) }
  }

  func maxScroll(_ node: Node) -> Double {
    guard case .list(let s) = node.kind else { return 0 }
    let inner = node.contentFrame
    let rowHeight = s.rowHeight ?? min(inner.height, max(240, (inner.width * 0.8).rounded()))
    let content = node.children.map { $0.style.height ?? rowHeight }.reduce(0, +) + s.spacing * Double(max(0, node.children.count - 1))
    return max(0, content - inner.height)
  }

  /// The rows least turned are on top (rows never turn; kept for symmetry with carousels).
  func hitOrder(_ node: Node, at local: Point) -> [Node]? {
    guard case .list = node.kind else { return nil }
    return node.children.sorted { abs($0.placement.turn) < abs($1.placement.turn) }
  }
}
