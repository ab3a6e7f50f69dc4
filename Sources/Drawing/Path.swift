/// A recorded path: the geometry of one display item, replayed by every painter.
public struct Path: Sendable, Equatable {
  public enum Element: Sendable, Equatable {
    case move(Point)
    case line(Point)
    case curve(Point, Point, Point)
    /// A full circle.
    case circle(Point, Double)
    /// A rectangle with an optional corner radius.
    case rect(Rect, Double)
    case close
  }
  public private(set) var elements: [Element] = []
  public init() {}
  public init(elements: [Element]) { self.elements = elements }

  public var isEmpty: Bool { elements.isEmpty }
  public mutating func move(to p: Point) { elements.append(.move(p)) }
  public mutating func line(to p: Point) { elements.append(.line(p)) }
  public mutating func curve(_ c1: Point, _ c2: Point, _ to: Point) { elements.append(.curve(c1, c2, to)) }
  public mutating func circle(_ c: Point, _ r: Double) { elements.append(.circle(c, r)) }
  public mutating func rect(_ r: Rect, radius: Double = 0) { elements.append(.rect(r, radius)) }
  public mutating func close() { elements.append(.close) }
  public mutating func append(_ other: Path) { elements.append(contentsOf: other.elements) }
  public mutating func reserveCapacity(_ n: Int) { elements.reserveCapacity(n) }

  public static func rect(_ r: Rect, radius: Double = 0) -> Path { Path(elements: [.rect(r, radius)]) }
  public static func circle(_ c: Point, _ r: Double) -> Path { Path(elements: [.circle(c, r)]) }
  public static func line(_ a: Point, _ b: Point) -> Path { Path(elements: [.move(a), .line(b)]) }
}
