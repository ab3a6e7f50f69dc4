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
  /// The same region as x-monotone bands, when the path is known to be one (a dense line's
  /// outline, `Band`): a raster painter may fill these instead of the elements. Any change
  /// to the path drops them.
  public private(set) var bands: [Band]? = nil
  public init() {}
  public init(elements: [Element]) { self.elements = elements }
  /// A path whose filled region is also `bands` (one per polygon of `elements`).
  public init(elements: [Element], bands: [Band]) { self.elements = elements; self.bands = bands }

  public var isEmpty: Bool { elements.isEmpty }
  public mutating func move(to p: Point) { bands = nil; elements.append(.move(p)) }
  public mutating func line(to p: Point) { bands = nil; elements.append(.line(p)) }
  public mutating func curve(_ c1: Point, _ c2: Point, _ to: Point) { bands = nil; elements.append(.curve(c1, c2, to)) }
  public mutating func circle(_ c: Point, _ r: Double) { bands = nil; elements.append(.circle(c, r)) }
  public mutating func rect(_ r: Rect, radius: Double = 0) { bands = nil; elements.append(.rect(r, radius)) }
  public mutating func close() { bands = nil; elements.append(.close) }
  public mutating func append(_ other: Path) { bands = nil; elements.append(contentsOf: other.elements) }
  public mutating func reserveCapacity(_ n: Int) { elements.reserveCapacity(n) }
  /// A polyline: a move to its first point and a line to each next one. A polyline of one
  /// point is a zero-length line when `dot` (a stroke's round cap makes it a dot), else a
  /// lone move (nothing drawn).
  public mutating func polyline(_ points: [Point], dot: Bool = false) {
    guard let first = points.first else { return }
    move(to: first)
    if dot && points.count == 1 { line(to: first) }
    for p in points.dropFirst() { line(to: p) }
  }
  /// A closed polygon through `points` (nothing when there are none).
  public mutating func polygon(_ points: [Point]) {
    guard !points.isEmpty else { return }
    polyline(points)
    close()
  }

  public static func rect(_ r: Rect, radius: Double = 0) -> Path { Path(elements: [.rect(r, radius)]) }
  public static func circle(_ c: Point, _ r: Double) -> Path { Path(elements: [.circle(c, r)]) }
  public static func line(_ a: Point, _ b: Point) -> Path { Path(elements: [.move(a), .line(b)]) }
  /// Polylines (gaps between them) as one path, each as `polyline(_:dot:)`.
  public static func polylines(_ polylines: [[Point]], dots: Bool = false) -> Path {
    var path = Path()
    for pl in polylines { path.polyline(pl, dot: dots) }
    return path
  }
}

extension Path {
  /// The box of every point and control point (a circle's square, a rectangle itself), or
  /// nil for a path with no point.
  public var bounds: Rect? {
    var x0 = Double.infinity, y0 = Double.infinity, x1 = -Double.infinity, y1 = -Double.infinity
    func add(_ q: Point) { x0 = min(x0, q.x); y0 = min(y0, q.y); x1 = max(x1, q.x); y1 = max(y1, q.y) }
    for e in elements {
      switch e {
      case .move(let q), .line(let q): add(q)
      case .curve(let a, let b, let c): add(a); add(b); add(c)
      case .circle(let c, let r): add(Point(c.x - r, c.y - r)); add(Point(c.x + r, c.y + r))
      case .rect(let r, _): add(Point(r.x, r.y)); add(Point(r.maxX, r.maxY))
      case .close: break
      }
    }
    return x0 <= x1 ? Rect(x0, y0, x1 - x0, y1 - y0) : nil
  }
}
