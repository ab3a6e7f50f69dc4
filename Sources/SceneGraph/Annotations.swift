import ChartModel
import Drawing

/// A mark pinned to a chart's data (`cs.note`, `cs.band`, `cs.rule` in a chart's
/// `annotations`). Times are UNIX ms, values are in the data's units; `appear` and
/// `disappear` are scene seconds.
public struct Annotation: Sendable {
  public enum Kind: Sendable {
    /// A point: `at` on the time axis, `value` on the Y axis (a line's value there when nil).
    case note(at: Double, value: Double?, line: String?)
    /// A span of time, shaded over the plot's height.
    case band(from: Double, to: Double)
    /// A horizontal line at a value, or a vertical one at a time.
    case rule(value: Double?, at: Double?)

    public var name: String {
      switch self {
      case .note: "note"
      case .band: "band"
      case .rule: "rule"
      }
    }
  }
  public var kind: Kind
  public var text: String
  public var color: ColorRef?
  public var appear: Double?
  public var disappear: Double?
  public init(kind: Kind, text: String) { self.kind = kind; self.text = text }

  /// Seconds an annotation takes to fade in at `appear` and out at `disappear`.
  public static let fade = 0.3
  /// How far inside the plot's edge (px) a point is fully drawn; it fades to nothing at the edge.
  public static let edgeFade = 12.0
  public static let font = Font(size: 12, weight: .semibold)
  public static let padX = 6.0, padY = 3.0
  public static let markerRadius = 4.5
}

/// An annotation as drawn at a moment, in the chart's layout coordinates (scene pixels before
/// the offsets, scales and 3D turns around the chart): the renderer draws it, `--inspect`
/// reports it and lint checks it.
public struct PlacedAnnotation: Sendable {
  public var kind: String
  public var text: String
  /// A note's point, a rule's point (the plot's left edge for a value rule, its top for a time rule).
  public var point: Point?
  /// A band's x extent (clamped to the plot).
  public var span: (Double, Double)?
  /// The label's box (nil when there is no text or no room).
  public var label: Rect?
  /// 0 to 1: faded by appear/disappear and near the plot's edges.
  public var alpha: Double
  /// 0 to 1, times `alpha` for the label: a band's label fades in as the band's visible part
  /// grows past it (no pop as a band enters the plot).
  public var labelAlpha = 1.0
  public var color: Color
  /// The plot, to clip to.
  public var plot: Rect
  /// A rule at a value (across the plot) rather than at a time.
  public var horizontal = false
}

public enum AnnotationLayout {
  /// The boxes of an axes' labels that show (annotations' labels keep off them).
  public static func labelBoxes(_ axes: ChartAxes) -> [Rect] {
    (axes.xRow + axes.yLabels + axes.rightLabels).filter { $0.alpha > 0.1 }.map(\.frame)
  }

  /// Places a chart's annotations at time `t` (scene seconds) with the chart drawn by
  /// `geometry`; labels avoid each other, the markers and the poster.
  /// `avoid`: more boxes labels keep off (the axes' labels).
  public static func place(_ spec: ChartSpec, geometry g: ChartGeometry, poster: Rect?, avoid: [Rect] = [], theme: Theme,
                           measurer: TextMeasurer, t: Double) -> [PlacedAnnotation] {
    guard !spec.annotations.isEmpty else { return [] }
    let set = spec.data
    let plot = g.plot
    var out: [PlacedAnnotation] = []
    var taken: [Rect] = (poster.map { [$0] } ?? []) + avoid
    func timeFade(_ a: Annotation) -> Double {
      var f = 1.0
      if let s = a.appear { f *= clamp((t - s) / Annotation.fade) }
      if let e = a.disappear { f *= clamp((e - t) / Annotation.fade) }
      return f
    }
    // A mark in the plot (its edges included: the newest point, a peak at the axis's top) is
    // in full view; one leaving it fades out over `edgeFade` px past the edge.
    func edgeX(_ x: Double) -> Double { clamp(1 + min(x - plot.minX, plot.maxX - x) / Annotation.edgeFade) }
    func edgeY(_ y: Double) -> Double { clamp(1 + min(y - plot.minY, plot.maxY - y) / Annotation.edgeFade) }
    // Markers first, so no label covers another note's point.
    var notes: [(Int, Point)] = []
    for (k, a) in spec.annotations.enumerated() {
      if case .note(let at, let value, let line) = a.kind, let p = notePoint(set, spec, g, at: at, value: value, line: line) {
        notes.append((k, p))
        let r = Annotation.markerRadius + 2
        taken.append(Rect(p.x - r, p.y - r, 2 * r, 2 * r))
      }
    }
    // The label each mark wants: candidates in order of preference, and for a band cut by
    // the plot's edge the visible part it must lie in.
    var wanted: [(Int, [Rect], (Double, Double)?)] = []
    for (k, a) in spec.annotations.enumerated() {
      let base = timeFade(a)
      let size = a.text.isEmpty ? Size.zero : measurer.measure(a.text, font: Annotation.font)
      let box = Size(size.width + 2 * Annotation.padX, size.height + 2 * Annotation.padY)
      var placed: PlacedAnnotation
      switch a.kind {
      case .note(_, _, let line):
        guard let p = notes.first(where: { $0.0 == k })?.1 else { continue }
        let color = a.color?.resolve(theme) ?? line.flatMap { set.line(id: $0)?.color } ?? theme.accent
        placed = PlacedAnnotation(kind: "note", text: a.text, point: p, alpha: base * edgeX(p.x) * edgeY(p.y), color: color, plot: plot)
        if !a.text.isEmpty {
          let gap = Annotation.markerRadius + 6
          let candidates = [
            Rect(p.x - box.width / 2, p.y - gap - box.height, box.width, box.height),  // above
            Rect(p.x + gap, p.y - gap - box.height, box.width, box.height),  // above right
            Rect(p.x - gap - box.width, p.y - gap - box.height, box.width, box.height),  // above left
            Rect(p.x - box.width / 2, p.y + gap, box.width, box.height),  // below
            Rect(p.x + gap, p.y - box.height / 2, box.width, box.height),  // right
            Rect(p.x - gap - box.width, p.y - box.height / 2, box.width, box.height),  // left
            Rect(p.x + gap, p.y + gap, box.width, box.height),  // below right
            Rect(p.x - gap - box.width, p.y + gap, box.width, box.height),  // below left
            Rect(p.x - box.width / 2, p.y + gap + box.height + 4, box.width, box.height),  // further below
            Rect(p.x - gap - box.width, p.y + gap + box.height + 4, box.width, box.height),  // further below left
          ]
          wanted.append((out.count, candidates, nil))
        }
      case .band(let from, let to):
        let rawX0 = min(g.x(from), g.x(to)), rawX1 = max(g.x(from), g.x(to))
        let x0 = max(plot.minX, rawX0), x1 = min(plot.maxX, rawX1)
        let color = a.color?.resolve(theme) ?? theme.accent
        placed = PlacedAnnotation(kind: "band", text: a.text, span: (x0, max(x0, x1)),
                                  alpha: base * clamp((x1 - x0) / Annotation.edgeFade), color: color, plot: plot)
        if !a.text.isEmpty, x1 > x0 {
          // At the band's left end, else its right end: at the top, a row lower, the bottom, the middle.
          let rows = [plot.minY + 4, plot.minY + 4 + box.height + 4, plot.maxY - 4 - box.height, plot.midY - box.height / 2]
          let candidates = rows.flatMap { y in [Rect(x0 + 4, y, box.width, box.height), Rect(x1 - 4 - box.width, y, box.width, box.height)] }
          // The label sits inside the band's visible part, fading in as that part grows past
          // it (a band entering the plot). A band wholly in the plot but narrower than its
          // label has it start at the band and run past its end, fading near the plot's edges.
          if x1 - x0 >= box.width + 8 || rawX0 < plot.minX || rawX1 > plot.maxX {
            wanted.append((out.count, candidates, (x0, x1)))
            placed.labelAlpha = clamp((x1 - x0 - box.width - 8) / Annotation.edgeFade)
          } else {
            wanted.append((out.count, candidates, nil))
            placed.labelAlpha = clamp(min(x0 - plot.minX, plot.maxX - x1) / Annotation.edgeFade)
          }
        }
      case .rule(let value, let at):
        let color = a.color?.resolve(theme) ?? theme.secondaryText
        if let v = value {
          let y = g.y(v)
          placed = PlacedAnnotation(kind: "rule", text: a.text, point: Point(plot.minX, y), alpha: base * edgeY(y), color: color, plot: plot, horizontal: true)
          if !a.text.isEmpty {
            // Left, past the Y labels (the newest data is at the right), else right, else below,
            // else in the middle.
            let candidates = [Rect(plot.minX + 48, y - 2 - box.height, box.width, box.height),
                              Rect(plot.maxX - 4 - box.width, y - 2 - box.height, box.width, box.height),
                              Rect(plot.minX + 48, y + 2, box.width, box.height),
                              Rect(plot.maxX - 4 - box.width, y + 2, box.width, box.height),
                              Rect(plot.midX - box.width / 2, y - 2 - box.height, box.width, box.height),
                              Rect(plot.midX - box.width / 2, y + 2, box.width, box.height)]
            wanted.append((out.count, candidates, nil))
          }
        } else {
          let x = g.x(at ?? 0)
          placed = PlacedAnnotation(kind: "rule", text: a.text, point: Point(x, plot.minY), alpha: base * edgeX(x), color: color, plot: plot)
          if !a.text.isEmpty {
            // Right of the line, else left: at the top, a row lower, the bottom.
            let rows = [plot.minY + 4, plot.minY + 4 + box.height + 4, plot.maxY - 4 - box.height]
            let candidates = rows.flatMap { y in [Rect(x + 4, y, box.width, box.height), Rect(x - 4 - box.width, y, box.width, box.height)] }
            wanted.append((out.count, candidates, nil))
          }
        }
      }
      out.append(placed)
    }
    // Labels are placed the most visible first, so one fading out at the plot's edge gives
    // way to one in full view; among equals notes, then rules, then bands (whose labels can
    // sit anywhere along them), in the script's order; an invisible mark takes no room.
    func rank(_ k: String) -> Int { k == "note" ? 0 : k == "rule" ? 1 : 2 }
    let order = wanted.sorted { a, b in
      let (pa, pb) = (out[a.0], out[b.0])
      if pa.alpha != pb.alpha { return pa.alpha > pb.alpha }
      if rank(pa.kind) != rank(pb.kind) { return rank(pa.kind) < rank(pb.kind) }
      return a.0 < b.0
    }
    for (i, candidates, within) in order where out[i].alpha > 0.001 {
      var label = best(candidates, in: plot, avoiding: taken)
      if let (x0, x1) = within, let l = label, l.minX < x0 || l.maxX > x1 { label = nil }
      out[i].label = label
      if let label { taken.append(label) }
    }
    return out
  }

  /// Where a note sits: its time and its value (or its line's value there), on the axis of
  /// its line (the right one for a two-axis chart's second and later lines).
  static func notePoint(_ set: ChartSet, _ spec: ChartSpec, _ g: ChartGeometry, at: Double, value: Double?, line: String?) -> Point? {
    var v = value
    var right = false
    if let id = line, let l = set.line(id: id) {
      if v == nil {
        let t = max(set.firstMs, min(set.lastMs, at))
        v = set.interpolatedValue(l, atTime: t)
      }
      right = g.rightRange != nil && set.lines.first?.id != l.id
    }
    guard let v else { return nil }
    return Point(g.x(at), g.y(v, right: right))
  }

  /// The first candidate inside the plot that touches nothing taken; nil when every one
  /// would leave the plot or cover something (the label is left out, the mark stays).
  /// The first candidate inside the plot that covers nothing taken; else the first one that
  /// does once slid into the plot (a note at the plot's corner keeps its label beside it,
  /// not dropped); nil when none can.
  static func best(_ candidates: [Rect], in plot: Rect, avoiding taken: [Rect]) -> Rect? {
    func fits(_ r: Rect) -> Bool {
      r.minX >= plot.minX - 0.01 && r.maxX <= plot.maxX + 0.01 && r.minY >= plot.minY - 0.01 && r.maxY <= plot.maxY + 0.01
        && !taken.contains { $0.intersects(r) }
    }
    func slid(_ r: Rect) -> Rect {
      Rect(max(plot.minX, min(plot.maxX - r.width, r.minX)), max(plot.minY, min(plot.maxY - r.height, r.minY)), r.width, r.height)
    }
    return candidates.first(where: fits) ?? candidates.lazy.map(slid).first(where: fits)
  }

  static func clamp(_ x: Double) -> Double { x.isNaN ? 0 : max(0, min(1, x)) }
}
