import Drawing
import Glibc

extension Lint {
  /// The colours under the texts of a display list, from its fills in drawing order. Strokes
  /// (lines, grid lines) and fills no larger than `mark` a side (the dots of isolated
  /// points, markers) are line marks, left out like the lines: a label's halo keeps them
  /// off its glyphs. A halo is not counted over fills (it hides only a rim around each
  /// glyph). An image leaves what is under it unknown: labels over one are not judged.
  struct Backdrop {
    let base: Color
    private var layers: [(polygons: [[Point]], box: Rect, color: Color?)] = []
    init(base: Color) { self.base = base.withAlpha(1) }

    static let mark = 8.0

    mutating func fill(_ path: Path, transform: Affine, box: Rect, clip: Rect?, color: Color) {
      if box.width <= Backdrop.mark && box.height <= Backdrop.mark { return }
      let shown = clip.map { Lint.intersection($0, box) } ?? box
      guard !shown.isEmpty else { return }
      layers.append((Backdrop.polygons(path, transform), shown, color))
    }

    mutating func unknown(_ box: Rect, clip: Rect?) {
      let shown = clip.map { Lint.intersection($0, box) } ?? box
      guard !shown.isEmpty else { return }
      layers.append(([], shown, nil))
    }

    /// The least contrast of `text` (with its alpha) over what is under it at points spread
    /// over `rect` (7 across, 3 down); nil when nothing under it is known.
    func contrast(of text: Color, over rect: Rect) -> Double? {
      let near = layers.filter { $0.box.intersects(rect) }
      var least: Double?
      // Most points have the same colour under them: its ratio is worked out once.
      var last: (under: Color, ratio: Double)?
      for j in 0..<3 {
        for i in 0..<7 {
          let p = Point(rect.x + rect.width * (Double(i) + 0.5) / 7, rect.y + rect.height * (Double(j) + 0.5) / 3)
          var under = base
          var known = true
          for l in near where Lint.inside(l.box, p) && (l.color == nil || Backdrop.evenOdd(l.polygons, p)) {
            guard let c = l.color else { known = false; break }
            under = c.over(under)
          }
          guard known else { continue }
          let ratio: Double
          if let last, last.under == under { ratio = last.ratio } else {
            ratio = Color.contrast(text.over(under), under)
            last = (under, ratio)
          }
          least = min(least ?? ratio, ratio)
        }
      }
      return least
    }

    /// A path as closed polygons in scene pixels (curves and circles as short segments,
    /// rounded corners as square ones).
    static func polygons(_ path: Path, _ t: Affine) -> [[Point]] {
      func map(_ p: Point) -> Point { Point(t.a * p.x + t.c * p.y + t.tx, t.b * p.x + t.d * p.y + t.ty) }
      var out: [[Point]] = []
      var current: [Point] = []
      func flush() { if current.count > 2 { out.append(current) }; current = [] }
      for e in path.elements {
        switch e {
        case .move(let q): flush(); current = [map(q)]
        case .line(let q): current.append(map(q))
        case .curve(let a, let b, let c):
          let p0 = current.last ?? map(a)
          let (m1, m2, m3) = (map(a), map(b), map(c))
          for k in 1...8 {
            let s = Double(k) / 8, u = 1 - s
            current.append(Point(u * u * u * p0.x + 3 * u * u * s * m1.x + 3 * u * s * s * m2.x + s * s * s * m3.x,
                                 u * u * u * p0.y + 3 * u * u * s * m1.y + 3 * u * s * s * m2.y + s * s * s * m3.y))
          }
        case .circle(let c, let r):
          flush()
          current = (0..<16).map { k in
            let a = Double(k) / 16 * 2 * Double.pi
            return map(Point(c.x + r * cos(a), c.y + r * sin(a)))
          }
          flush()
        case .rect(let r, _):
          flush()
          current = [Point(r.x, r.y), Point(r.maxX, r.y), Point(r.maxX, r.maxY), Point(r.x, r.maxY)].map(map)
          flush()
        case .close: flush()
        }
      }
      flush()
      return out
    }

    /// Even-odd containment (the painters fill with the even-odd rule).
    static func evenOdd(_ polygons: [[Point]], _ p: Point) -> Bool {
      var inside = false
      for poly in polygons {
        var j = poly.count - 1
        for i in 0..<poly.count {
          let a = poly[i], b = poly[j]
          if (a.y > p.y) != (b.y > p.y), p.x < (b.x - a.x) * (p.y - a.y) / (b.y - a.y) + a.x { inside.toggle() }
          j = i
        }
      }
      return inside
    }
  }

  static func inside(_ r: Rect, _ p: Point) -> Bool { p.x >= r.x && p.x <= r.maxX && p.y >= r.y && p.y <= r.maxY }
}
