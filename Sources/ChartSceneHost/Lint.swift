import ChartModel
import Glibc
import Drawing
import SceneGraph

/// `chartscene lint`: checks every frame of a scene from what would be drawn (the display
/// list and the charts' label layout, never pixels) and reports what a careful reader would
/// call a mistake: visible texts that overlap, text clipped by its container or the scene,
/// two equal visible Y labels, a poster outside its plot, a character no font has.
public struct Lint {
  /// The least height of a chart's plot (scene px, about a label's): below it a chart shows no data to read.
  public static let leastPlotHeight = 16.0
  /// The least contrast of an axis label against what is under it (WCAG AA, normal text).
  public static let minimumContrast = 4.5
  /// A text counts as visible above this opacity.
  public static let visibleAlpha = 0.1
  /// Overlaps and clipping smaller than this (scene px) are ignored (antialiasing, rounding).
  public static let tolerance = 0.5
  /// Findings listed for one frame and for a whole run; the rest are counted in one line
  /// ("and 49,873,112 more"), so a scene of 10,000 overlapping texts prints a page, not 50 M lines.
  public static let perFrame = 100
  public static let perRun = 1000

  public struct Finding: Sendable, Equatable {
    public var time: Double
    public var message: String
    /// Where the defect is, in scene coordinates, when the check knows it: the texts that
    /// overlap (both), the text cut, the label, the plot too low, the poster; for the other
    /// findings of a chart, the chart. Nil for a character no font has.
    public var rect: Rect? = nil
  }

  public let session: Session
  /// Where each finding of the frame being checked is (scene coordinates, by message).
  let places = Places()
  public init(session: Session) { self.session = session }

  /// The rectangles of one frame's findings, noted where the checks know them.
  final class Places {
    var rects: [String: Rect] = [:]
    /// From the coordinates of the view being checked (a chart's) to the scene's.
    var transform = DrawnTransform.identity
  }

  /// Notes that `message` is about `rect` (in the coordinates of the view being checked);
  /// the message, for `out.append`.
  func at(_ rect: Rect, _ message: String) -> String {
    if places.rects[message] == nil { places.rects[message] = places.transform.apply(rect) }
    return message
  }

  static func union(_ a: Rect, _ b: Rect) -> Rect {
    let x0 = min(a.x, b.x), y0 = min(a.y, b.y)
    return Rect(x0, y0, max(a.maxX, b.maxX) - x0, max(a.maxY, b.maxY) - y0)
  }

  /// Findings of frames `range` (all frames when nil), in frame order; a finding repeated in
  /// consecutive frames is reported once, at its first frame.
  public func run(frames range: ClosedRange<Int>? = nil) throws(HostError) -> [Finding] {
    let clock = session.simulation.clock
    let all = 0...(clock.frameCount - 1)
    let frames = range ?? all
    guard frames.lowerBound >= 0, frames.upperBound <= all.upperBound else {
      throw HostError("bad --frames \(frames.lowerBound)-\(frames.upperBound): the scene has frames 0-\(all.upperBound) (\(clock.frameCount) at \(Int(clock.fps)) fps)")
    }
    // Characters no font has: boxes in every frame that shows the text, reported once.
    var out = MissingGlyphs.warnings(session.scene, text: session.text, places: session.context.places, file: session.scriptPath)
      .map { Finding(time: clock.time(ofFrame: frames.lowerBound), message: $0) }
    var previous = Set<String>()
    var unlisted = 0, lastTime = 0.0
    var races: [String: RaceSwaps] = [:]
    for k in frames {
      let t = clock.time(ofFrame: k)
      let list = try session.displayList(at: t)
      var messages: [String] = []
      var more = 0
      var labelPairs = Set<String>()
      places.rects = [:]
      checkCharts(session.scene, time: t, into: &messages, pairs: &labelPairs)
      places.transform = .identity
      checkViews(session.scene, time: t, races: &races, gesture: session.simulation.gestureUnderway, into: &messages)
      checkDisplayList(list, viewports: Lint.viewports(session.scene), labelPairs: labelPairs, into: &messages, more: &more)
      var seen = Set<String>()
      var listed = 0
      for m in messages where seen.insert(m).inserted && !previous.contains(m) {
        if listed < Lint.perFrame && out.count < Lint.perRun { out.append(Finding(time: t, message: m, rect: places.rects[m])); listed += 1 } else { more += 1 }
      }
      previous = seen
      if more > 0 {
        let m = "and \(Lint.grouped(more)) more in this frame (lint lists \(Lint.perFrame) a frame)"
        if out.count < Lint.perRun { if !previous.contains(m) { out.append(Finding(time: t, message: m)) }; previous.insert(m) } else { unlisted += more }
      }
      lastTime = t
    }
    if unlisted > 0 { out.append(Finding(time: lastTime, message: "and \(Lint.grouped(unlisted)) more in later frames (lint lists \(Lint.perRun) in all)")) }
    return out
  }

  // MARK: - Charts

  func checkCharts(_ scene: Scene, time t: Double, into out: inout [String], pairs: inout Set<String>) {
    func visit(_ n: Node, _ opacity: Double, _ outer: DrawnTransform) {
      guard n.placement.visible else { return }
      let alpha = opacity * n.style.opacity * n.placement.opacity
      // A turned view is drawn in perspective: its texts are not checked.
      if n.drawnTurn != nil { return }
      let drawn = outer.then(n)
      if alpha > Lint.visibleAlpha, let spec = n.chart {
        let isCard: Bool = { if case .card = n.kind { return true }; return false }()
        let before = out.count
        places.transform = drawn
        check(chart: spec, card: isCard, node: n, opacity: alpha, time: t, into: &out, pairs: &pairs)
        // What a check placed no better is about the chart.
        for m in out[before...] { _ = at(n.contentFrame, m) }
      }
      for c in n.children { visit(c, alpha, drawn) }
    }
    visit(scene.root, 1, .identity)
  }

  func check(chart spec: ChartSpec, card: Bool, node n: Node, opacity: Double, time t: Double, into out: inout [String], pairs: inout Set<String>) {
    let measurer = session.text
    let presentation = session.scene.presentation
    let window = presentation.window(spec.data, at: t)
    let parts = ChartParts.make(spec: spec, card: card, frame: n.contentFrame, measurer: measurer, window: window)
    let snap = ChartSnapshot(spec: spec, plot: parts.plot, presentation: presentation, key: ChartKey(n.identity), t: t)
    let axes = ChartAxes(spec: spec, parts: parts, snap: snap, measurer: measurer, presentation: presentation, key: ChartKey(n.identity), t: t)
    let name = "chart '\(Lint.quoted(n.id))'"
    out += Lint.labelFindings(name: name, spec: spec, parts: parts, snap: snap, axes: axes, frame: n.contentFrame, opacity: opacity, pairs: &pairs, place: at)
    // At rest (nothing moves: no window, line, axis or view on its way), on a chart shown
    // at full opacity, every label is settled (issue 39).
    if opacity >= 0.99, !presentation.isAnimating(at: t), ChartAxes.rest(spec: spec, presentation: presentation, t: t) >= 1 {
      out += Lint.fadedAtRest(name: name, axes: axes, place: at)
      out += Lint.cutBars(name: name, spec: spec, snap: snap, plot: parts.plot)
      if let m = Lint.droppedTitle(name: name, spec: spec, card: card, frame: n.contentFrame, parts: parts, measurer: measurer) { out.append(m) }
    }
    if let m = Lint.epochAxis(name: name, set: spec.data, hasXAxis: parts.xAxis != nil) { out.append(m) }
    if let missing = axes.xContextMissing {
      out.append("\(name): its X axis does not say '\(Lint.quoted(missing))' (its row has no room for it)")
    }
    if parts.plot.height < Lint.leastPlotHeight {
      out.append(at(parts.plot, "\(name): its plot is \(Int(parts.plot.height.rounded(.down))) px high (at least \(Int(Lint.leastPlotHeight)) show the data; the chart is \(Int(n.contentFrame.height.rounded(.down))) px high)"))
    }
    let poster = ChartParts.extraParts(spec: spec, parts: parts, snap: snap, frame: n.contentFrame, measurer: measurer, zoomed: false).first { $0.0 == "poster" }?.1
    if let poster, !Lint.contains(parts.plot, poster) {
      out.append(at(poster, "\(name): the poster lies outside its plot"))
    }
    if poster != nil, let i = snap.indicatorIndex, let p = ChartPoster.make(spec: spec, parts: parts, snap: snap, measurer: measurer),
       let m = Lint.totalOverGap(name: name, poster: p, set: spec.data, index: i) {
      out.append(m)
    }
    checkPie(spec, parts: parts, time: t, name: name, into: &out)
    checkAnnotations(spec, node: n, parts: parts, snap: snap, axes: axes, opacity: opacity, time: t, name: name, into: &out)
  }

  /// What is wrong with a chart's axis labels as `ChartAxes` placed them: labels that
  /// overlap, two equal Y labels, a label out of the chart, a label outside its gutter (with
  /// `yLabels = "outside"`, the `%` of a percentage chart included), a right-axis label
  /// that is not on a grid line of a two-axis chart at rest. `pairs` gets the overlapping
  /// pairs (the display-list check names them once).
  public static func labelFindings(name: String, spec: ChartSpec, parts: ChartParts, snap: ChartSnapshot, axes: ChartAxes, frame: Rect,
                                   opacity: Double, pairs: inout Set<String>, place: (Rect, String) -> String = { $1 }) -> [String] {
    var out: [String] = []
    let shows = { (l: DrawnLabel) in l.alpha * opacity > Lint.visibleAlpha }
    let visible = (axes.xRow + axes.yLabels + axes.rightLabels).filter(shows)
    for a in 0..<visible.count {
      for b in (a + 1)..<max(a + 1, visible.count) where Lint.overlap(visible[a].frame, visible[b].frame) {
        out.append(place(Lint.union(visible[a].frame, visible[b].frame), "\(name): labels '\(visible[a].text)' and '\(visible[b].text)' overlap"))
        pairs.insert(visible[a].text + "\u{0}" + visible[b].text)
      }
    }
    for side in [axes.yLabels, axes.rightLabels] {
      var texts = Set<String>()
      for l in side.filter(shows) where !texts.insert(l.text).inserted { out.append(place(l.frame, "\(name): two Y labels read '\(l.text)'")) }
    }
    for l in visible where !Lint.contains(frame.inset(by: -1), l.frame) {
      out.append(place(l.frame, "\(name): label '\(l.text)' spills out of the chart"))
    }
    if spec.yLabels == .outside {
      for (labels, gutter) in [(axes.yLabels, parts.yGutter), (axes.rightLabels, parts.yGutterRight)] {
        guard let gutter else { continue }
        for l in labels where shows(l) && !Lint.contains(Rect(gutter.x, frame.y, gutter.width, frame.height), l.frame) {
          out.append(place(l.frame, "\(name): Y label '\(l.text)' does not fit its gutter (it reaches into the plot)"))
        }
      }
    }
    // At rest (one tick set on each side), every right label is on a grid line.
    if snap.ticks.count == 1, snap.rightTicks.count == 1 {
      for (l, y) in zip(axes.rightLabels, axes.rightLines) where shows(l) {
        if !axes.grid.contains(where: { abs($0.y - y) < 1 && $0.alpha * opacity > Lint.visibleAlpha }) {
          out.append(place(l.frame, "\(name): right label '\(l.text)' is not on a grid line"))
        }
      }
    }
    return out
  }

  /// Labels drawn below full opacity on a chart at rest (a still caught mid-fade: issue 39,
  /// `five.lua` at 320×240 drew its top Y labels at 11 %). Labels left out (opacity 0) are
  /// not drawn and not findings.
  public static func fadedAtRest(name: String, axes: ChartAxes, place: (Rect, String) -> String = { $1 }) -> [String] {
    (axes.yLabels + axes.rightLabels + axes.xRow).filter { $0.alpha > 0.001 && $0.alpha < 0.99 }.map {
      place($0.frame, "\(name): label '\(Lint.quoted($0.text))' is drawn at \(Int(($0.alpha * 100).rounded())) % opacity at rest")
    }
  }

  /// A zoomed pie's share labels: each inside its slice (clear of the rim and the edges),
  /// or, outside, inside the plot; none over another.
  func checkPie(_ spec: ChartSpec, parts: ChartParts, time t: Double, name: String, into out: inout [String]) {
    let presentation = session.scene.presentation
    let set = spec.base
    guard let zoom = set.zoom ?? presentation.leavingZoom(set, at: t), zoom.isPie else { return }
    let alpha = Dictionary(uniqueKeysWithValues: set.lines.map { ($0.id, presentation.alpha(set, $0.id, at: t)) })
    let pie = PieLayout.make(set: set, index: zoom.index, plot: parts.plot, alpha: alpha)
    let p = presentation.zoomProgress(set, at: t)
    let labels = pie.drawnLabels(progress: p, selected: zoom.selectedSlice, plot: parts.plot, measurer: session.text)
    let top = -Double.pi / 2
    let r = pie.radius * (0.7 + 0.3 * p)
    for (k, l) in labels.enumerated() {
      if l.outside {
        if !Lint.contains(parts.plot, l.frame) { out.append(at(l.frame, "\(name): pie label '\(l.text)' spills out of the plot")) }
      } else if let slice = pie.slices.first(where: { $0.id == l.id }) {
        var swept = slice
        swept.start = top + (slice.start - top) * p; swept.end = top + (slice.end - top) * p
        let mid = (swept.start + swept.end) / 2
        let pull = zoom.selectedSlice == l.id ? 12 * p : 0
        let c = Point(pie.center.x + cos(mid) * pull, pie.center.y + sin(mid) * pull)
        // Ink, not the line box (as for clipped texts; side bearings of a pixel).
        let ink = l.frame.inset(top: l.frame.height * 0.15, left: 1, bottom: l.frame.height * 0.15, right: 1)
        if !PieLayout.sector(swept, center: c, radius: r + 2, contains: ink) {
          out.append(at(l.frame, "\(name): pie label '\(l.text)' is clipped by its slice"))
        }
      }
      for m in labels[(k + 1)...] where Lint.overlap(l.frame, m.frame) {
        out.append(at(Lint.union(l.frame, m.frame), "\(name): pie labels '\(l.text)' and '\(m.text)' overlap"))
      }
    }
  }

  // MARK: - Display list

  /// Texts clipped by their container (the innermost clip around them: a text node's frame,
  /// a card's body) or by the scene's edges. Outer clips are scroll viewports: an item
  /// scrolled half out is not a mistake, nor is a view in motion (under an animated offset
  /// or scale) sliding across the scene's edge.
  /// `labelPairs`: the pairs of texts the chart checks already named as overlapping labels.
  func checkDisplayList(_ list: DisplayList, viewports: [Rect], labelPairs: Set<String> = [], into out: inout [String], more: inout Int) {
    let scene = Rect(0, 0, list.size.width, list.size.height)
    var transforms: [Affine] = [.identity]
    // The clips around (nil: a scroll viewport, which is no container) and whether any of
    // them is a viewport or a container that itself crosses the scene's edge.
    var clips: [Rect?] = [nil]
    var scrolled: [Bool] = [false]
    // Where drawing shows (the intersection of the clips), visible texts, and opaque fills
    // in drawing order.
    var visibleArea: [Rect?] = [scene]
    var texts: [(order: Int, text: String, rect: Rect, alpha: Double)] = []
    var covers: [(order: Int, rect: Rect, alpha: Double)] = []
    var order = 0
    var groups: [Double] = [1]
    var backdrop = Backdrop(base: list.background)
    func walk(_ items: [DisplayItem]) {
      for item in items {
        switch item {
        case .pushTransform(let a): transforms.append(transforms.last!.then(a))
        case .popTransform: if transforms.count > 1 { transforms.removeLast() }
        case .pushGroup(let o): groups.append(groups.last! * o)
        case .popGroup: if groups.count > 1 { groups.removeLast() }
        case .pushClip(let p):
          let r = p.bounds.map { transforms.last!.apply($0) }
          let viewport = r.map { r in viewports.contains { Lint.same($0, r) } } ?? false
          clips.append(viewport ? nil : r)
          visibleArea.append(r.map { r in visibleArea.last!.map { Lint.intersection($0, r) } ?? r } ?? visibleArea.last!)
          scrolled.append(scrolled.last! || viewport || (r.map { !Lint.contains(scene, $0) } ?? false) || transforms.count > 1)
        case .popClip: if clips.count > 1 { clips.removeLast(); scrolled.removeLast(); visibleArea.removeLast() }
        case .path(let path, .fill(let color)):
          // A fill hides what was drawn before under it, as much as it is opaque (a card
          // fading in over another lets its texts show through, dimmed).
          let a = color.a * groups.last!
          if a >= 0.05, let b = path.bounds, b.width * b.height > 0 {
            let box = transforms.last!.apply(b)
            covers.append((order, visibleArea.last!.map { Lint.intersection($0, box) } ?? box, min(1, a)))
            order += 1
            backdrop.fill(path, transform: transforms.last!, box: box, clip: visibleArea.last!, color: color.multipliedAlpha(groups.last!))
          }
        case .image(_, let rect, _):
          backdrop.unknown(transforms.last!.apply(rect), clip: visibleArea.last!)
        case .cached(_, _, let inner): walk(inner)
        case .layer: break  // turned in 3D: not checked
        case .text(let run):
          let alpha = run.color.a * groups.last!
          guard alpha > Lint.visibleAlpha, !run.text.isEmpty else { continue }
          let size = session.text.measure(run.text, font: run.font)
          var x = run.origin.x
          if run.align == .center { x -= size.width / 2 } else if run.align == .right { x -= size.width }
          let r = transforms.last!.apply(Rect(x, run.origin.y, size.width, size.height))
          // Ink, not the line box: a line's leading may pass a clip without hiding a glyph.
          let ink = r.inset(top: r.height * 0.15, left: 0, bottom: r.height * 0.15, right: 0)
          let shown = visibleArea.last!.map { Lint.intersection($0, ink) } ?? ink
          if !shown.isEmpty { texts.append((order, run.text, shown, alpha)); order += 1 }
          // A label at rest reads at WCAG AA (4.5:1) against what is under it.
          if run.isLabel, alpha >= 0.99, !shown.isEmpty, let ratio = backdrop.contrast(of: run.color.multipliedAlpha(groups.last!), over: shown),
             ratio < Lint.minimumContrast - 0.005 {
            let r = (ratio * 10).rounded(.down) / 10
            if out.count < Lint.perFrame { out.append(at(shown, "label '\(Lint.quoted(run.text))' has contrast \(r):1 against what is under it (at least \(Lint.minimumContrast):1 needed)")) } else { more += 1 }
          }
          if let c = clips.last!, !c.isEmpty, c.intersects(ink), Lint.horizontallyClipped(ink, by: c) || Lint.verticallyClipped(ink, by: c) {
            if out.count < Lint.perFrame { out.append(at(ink, "text '\(Lint.quoted(run.text))' is clipped by its container")) } else { more += 1 }
          } else if !scrolled.last!, transforms.count == 1, !Lint.contains(scene, ink), scene.intersects(ink) {
            if out.count < Lint.perFrame { out.append(at(ink, "text '\(Lint.quoted(run.text))' is clipped by the scene")) } else { more += 1 }
          }
        default: break
        }
      }
    }
    walk(list.items)
    // Texts that overlap where both still show above 0.1 after what was drawn over them
    // (each fill over a text's overlap dims it by its own opacity).
    func shownAlpha(_ k: Int, _ common: Rect) -> Double {
      var a = texts[k].alpha
      for c in covers where c.order > texts[k].order && Lint.contains(c.rect, common) { a *= 1 - c.alpha }
      return a
    }
    // Sweep along x: only texts whose x ranges meet are compared. Past the frame's cap the
    // remaining overlaps are counted, not described (and not weighed against covers).
    let byX = texts.indices.sorted { texts[$0].rect.x < texts[$1].rect.x }
    for (p, i) in byX.enumerated() {
      let ri = texts[i].rect
      var q = p + 1
      while q < byX.count, texts[byX[q]].rect.x < ri.maxX - Lint.tolerance {
        let j = byX[q]
        q += 1
        guard Lint.overlap(ri, texts[j].rect) else { continue }
        if out.count >= Lint.perFrame { more += 1; continue }
        let (first, second) = texts[i].order < texts[j].order ? (i, j) : (j, i)
        let common = Lint.intersection(ri, texts[j].rect)
        if shownAlpha(first, common) <= Lint.visibleAlpha || shownAlpha(second, common) <= Lint.visibleAlpha { continue }
        let a = texts[first].text, b = texts[second].text
        if labelPairs.contains(a + "\u{0}" + b) || labelPairs.contains(b + "\u{0}" + a) { continue }
        out.append(at(Lint.union(texts[first].rect, texts[second].rect), "texts '\(Lint.quoted(a))' and '\(Lint.quoted(b))' overlap"))
      }
    }
  }

  /// A text of the scene as a finding quotes it: one line, control characters escaped, cut
  /// at 80 characters.
  static func quoted(_ s: String) -> String { OneLine.clean(s, limit: 80) }

  /// `49873112` as `49,873,112`.
  static func grouped(_ n: Int) -> String {
    var digits = Array(String(n)), out: [Character] = []
    while digits.count > 3 { out = [","] + digits.suffix(3) + out; digits.removeLast(3) }
    return String(digits + out)
  }

  // MARK: - Geometry

  static func same(_ a: Rect, _ b: Rect) -> Bool {
    abs(a.x - b.x) < tolerance && abs(a.y - b.y) < tolerance && abs(a.width - b.width) < tolerance && abs(a.height - b.height) < tolerance
  }

  /// The content rects of views that clip their children (lists, carousels, any `cs.view`
  /// with `clip = true`) as drawn: clips that scroll, not containers.
  static func viewports(_ scene: Scene) -> [Rect] {
    var out: [Rect] = []
    func visit(_ n: Node, _ outer: DrawnTransform) {
      let drawn = outer.then(n)
      switch n.kind {
      case .view(let spec) where spec.clips: out.append(drawn.apply(n.contentFrame))
      default: break
      }
      for c in n.children { visit(c, drawn) }
    }
    visit(scene.root, .identity)
    return out
  }

  static func overlap(_ a: Rect, _ b: Rect) -> Bool {
    let w = min(a.maxX, b.maxX) - max(a.x, b.x)
    let h = min(a.maxY, b.maxY) - max(a.y, b.y)
    return w > tolerance && h > tolerance
  }

  static func contains(_ outer: Rect, _ r: Rect) -> Bool {
    r.x >= outer.x - tolerance && r.y >= outer.y - tolerance && r.maxX <= outer.maxX + tolerance && r.maxY <= outer.maxY + tolerance
  }

  static func horizontallyClipped(_ r: Rect, by c: Rect) -> Bool { r.x < c.x - tolerance || r.maxX > c.maxX + tolerance }
  static func verticallyClipped(_ r: Rect, by c: Rect) -> Bool { r.y < c.y - tolerance || r.maxY > c.maxY + tolerance }

  static func intersection(_ a: Rect, _ b: Rect) -> Rect {
    let x0 = max(a.x, b.x), y0 = max(a.y, b.y), x1 = min(a.maxX, b.maxX), y1 = min(a.maxY, b.maxY)
    return Rect(x0, y0, max(0, x1 - x0), max(0, y1 - y0))
  }

}

