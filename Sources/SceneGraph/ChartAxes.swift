import ChartModel
import Drawing

/// A text as drawn: what the renderer paints, `--inspect` reports and `chartscene lint`
/// checks (one owner, so the three never disagree).
public struct DrawnLabel: Sendable, Equatable {
  public var text: String
  /// The text's box in scene pixels (top-left origin, measured width and line height).
  public var frame: Rect
  public var alpha: Double
  public init(text: String, frame: Rect, alpha: Double) { self.text = text; self.frame = frame; self.alpha = alpha }
}

/// Where a chart's Y labels go: inside the plot over the lines (the contest's look, with a
/// halo in the theme colour) or outside in a gutter left of the plot.
public enum YLabelPlacement: String, Sendable, CaseIterable { case inside, outside }

/// The axes of a chart at one moment: grid lines and the X and Y labels with their opacity.
public struct ChartAxes: Sendable {
  public struct GridLine: Sendable, Equatable {
    public var y: Double
    public var alpha: Double
    /// The line at 0 (or the baseline when 0 is out of range): drawn stronger.
    public var strong: Bool
  }
  public var grid: [GridLine] = []
  public var xLabels: [DrawnLabel] = []
  /// The X axis's context (issue 21): what its labels leave out, beside the first label
  /// that has room for it — the year beside a date (`Mar 5 2019`), the date beside a time
  /// (`Apr 1 2019 06:00`) — or in the room of a neighbour it displaces on a crowded row;
  /// nil beside a year label, or where no label can make room (`xContextMissing`). A text
  /// of its own, so the labels keep their texts and fades; it fades with the label it
  /// stands beside, and out while the window moves (`rest`), except while it is moved at
  /// once (a drag, `cs.follow`), when it stands at the axis start (`pinContext`).
  public var xContext: DrawnLabel?
  /// The context a row at rest needed and had no room for (`2019` beside `Apr`: a plot too
  /// narrow for both): what lint reports. Nil when it is drawn or not needed.
  public var xContextMissing: String?
  /// The X labels and the context: everything drawn in the X axis's row.
  public var xRow: [DrawnLabel] { xContext.map { xLabels + [$0] } ?? xLabels }
  public var yLabels: [DrawnLabel] = []
  /// The right axis's labels of a two-axis chart (empty otherwise), and the height of the
  /// grid line each one labels (lint checks that one of `grid` is there).
  public var rightLabels: [DrawnLabel] = []
  public var rightLines: [Double] = []

  /// A left Y label's text as drawn: the number, with `%` on percentage charts.
  public static func leftText(_ spec: ChartSpec, style: ChartStyle, _ v: Double, step: Double) -> String {
    let n = spec.format.axisNumber(v, step: step)
    return style.percentage ? spec.format.percent(n) : n
  }

  public static let labelGap = 8.0

  /// How far the chart's window is at rest at t: 0 while it moves (a zoom or pan), rising to
  /// 1 over `settleTime` after it stops; 1 when it never moved. X labels show part-faded
  /// only below 1.
  public static func rest(spec: ChartSpec, presentation: Presentation?, t: Double) -> Double {
    guard let p = presentation else { return 1 }
    return p.windowRest(spec.data, at: t, settle: settleTime)
  }

  /// The window at rest the X labels ease from (while a change starts) or to (after it).
  public static func referenceWindow(spec: ChartSpec, presentation: Presentation?, t: Double) -> TimeWindow? {
    presentation?.windowReference(spec.data, at: t)
  }
  public static let settleTime = 0.25
  /// How far an inside Y label may rise above its plot: into the padding above a chart (at
  /// least 8 px, `ChartParts.make`) or the gap under its title (8 px), short of one pixel.
  public static let airAbovePlot = 7.0

  /// Settled, a squeezed axis labels every n-th of its lines (from the bottom): the least n
  /// that keeps two labels from touching (a label's height and a pixel apart).
  static func thinning(spacing: Double, labelHeight h: Double, count: Int) -> Int {
    guard spacing > 0 else { return max(1, count) }
    return max(1, Int(((h + 1) / spacing).rounded(.up)))
  }

  /// The axes of chart `key` as drawn at `t`: how far its window is at rest, the window
  /// its labels ease from or to, and the level of X labels `presentation` keeps for it (no
  /// presentation: a still at rest). What the renderer, `--inspect` and lint all draw.
  public init(spec: ChartSpec, parts: ChartParts, snap: ChartSnapshot, measurer: TextMeasurer, presentation: Presentation?, key: ChartKey?, t: Double) {
    self.init(spec: spec, parts: parts, snap: snap, measurer: measurer, rest: ChartAxes.rest(spec: spec, presentation: presentation, t: t),
              reference: ChartAxes.referenceWindow(spec: spec, presentation: presentation, t: t), xLevel: presentation?.xLevel(key, spec.data, at: t),
              atOnce: presentation?.windowMovedAtOnce(spec.data) ?? false)
  }

  /// `xLevel`: the level of X labels to draw (eased over time by `Presentation.updateXLabels`,
  /// XLabelLevel.swift); nil: the level the window asks for now.
  /// `atOnce`: the window's last change was made at once, not animated (a drag, or a
  /// script moving it each frame: `cs.follow`).
  public init(spec: ChartSpec, parts: ChartParts, snap: ChartSnapshot, measurer: TextMeasurer, rest: Double, reference: TimeWindow? = nil, xLevel: Double? = nil,
              atOnce: Bool = false) {
    let set = spec.data
    let geometry = ChartGeometry(plot: parts.plot, lineWidth: spec.lineWidth, set: set, snapshot: snap)
    if spec.yAxis {
      makeY(spec: spec, parts: parts, snap: snap, measurer: measurer, scale: geometry.left)
      if let right = geometry.right { makeRight(spec: spec, parts: parts, snap: snap, measurer: measurer, scale: right) }
    }
    if let band = parts.xAxis {
      let times = reference.map { (set.time(atFraction: $0.lo), set.time(atFraction: $0.hi)) }
      makeX(band: band, scale: geometry.left, measurer: measurer, rest: rest, reference: times, level: xLevel, atOnce: atOnce, format: spec.format)
    }
  }

  mutating func makeY(spec: ChartSpec, parts: ChartParts, snap: ChartSnapshot, measurer: TextMeasurer, scale plotScale: PlotScale) {
    let yOf = plotScale.y
    let plot = parts.plot
    let font = ChartMetrics.axisFont
    let h = measurer.measure("0", font: font).height
    let outside = spec.yLabels == .outside
    // Which sets are drawn: the one at rest, or the old and the new while the axis moves.
    let sets = snap.ticks.filter { $0.alpha > 0.001 }
    // One set at full opacity: the axis is settled, and a still (or a frame at rest) shows
    // settled labels: each at full opacity or not at all, never caught mid-fade (issue 39).
    let settled = sets.count == 1 && sets[0].alpha >= 1
    struct Candidate { var value: Double; var text: String; var frame: Rect; var alpha: Double; var set: Int; var bottom: Bool }
    var candidates: [Candidate] = []
    for (k, (scale, setAlpha)) in sets.enumerated() {
      let ticks = scale.ticks
      // A set squeezed until its labels would touch (an axis growing tenfold) fades out
      // before they do, and one spreading out from there fades in. Settled, a squeezed
      // set keeps every `every`-th line (from the bottom) at full opacity instead.
      var alpha = setAlpha
      var every = 1
      if ticks.count > 1 {
        let spacing = abs(yOf(ticks[1]) - yOf(ticks[0]))
        let squeeze = max(0, min(1, (spacing - h - 1) / (h / 2)))
        if settled, squeeze < 1 {
          every = ChartAxes.thinning(spacing: spacing, labelHeight: h, count: ticks.count)
        } else {
          alpha *= squeeze
        }
      }
      let hasZero = ticks.contains { abs($0) < scale.step * 1e-9 }
      for (i, v) in ticks.enumerated() where i % every == 0 {
        let gy = yOf(v).rounded() + 0.5
        guard gy >= plot.minY - 1, gy <= plot.maxY + 1 else { continue }
        let isZero = abs(v) < scale.step * 1e-9
        grid.append(GridLine(y: gy, alpha: alpha, strong: hasZero ? isZero : i == 0))
        let text = ChartAxes.leftText(spec, style: snap.style, v, step: scale.step)
        let w = measurer.measure(text, font: font).width
        let frame: Rect
        if outside, let gutter = parts.yGutter {
          frame = Rect(gutter.maxX - 6 - w, gy - h / 2, w, h)
        } else {
          frame = Rect(plot.x, gy.rounded() - 0.5 - h - 2, w, h)
        }
        // A label leaving the plot fades out over its own height instead of jumping.
        var a = alpha
        // Settled, an inside label may rise into the air above the plot (at least 8 px of
        // padding, or of the gap under the title) short of its last pixel; while the axis
        // moves, labels leaving the plot fade within a third of their height as before.
        let top = settled ? ChartAxes.airAbovePlot : 1
        let room = outside ? min(frame.minY - (plot.minY - h / 2), plot.maxY + h / 2 - frame.maxY)
          : min(frame.minY - (plot.minY - top), plot.maxY + 1 - frame.maxY)
        // Settled, a label with no room is left out (its grid line stays).
        if room < 0 { a *= settled ? 0 : max(0, 1 + room / (h / 3)) }
        guard a > 0.001 else { continue }
        candidates.append(Candidate(value: v, text: text, frame: frame, alpha: a, set: k, bottom: i == 0))
      }
    }
    if sets.count == 2 {
      // A value both scales label: drawn once, fully.
      let p = sets[1].alpha
      var keep: [Candidate] = []
      for c in candidates where c.set == 0 {
        if candidates.contains(where: { $0.set == 1 && $0.text == c.text && abs($0.frame.y - c.frame.y) < 1 }) { continue }
        var c = c
        // Old and new labels that would overlap never show together: the old fades out in
        // the first half of the move, the new one in over the second.
        if candidates.contains(where: { $0.set == 1 && $0.frame.inset(by: -1).intersects(c.frame) }) { c.alpha = min(c.alpha, max(0, 1 - 2 * p)) }
        keep.append(c)
      }
      for c in candidates where c.set == 1 {
        var c = c
        if candidates.contains(where: { $0.text == c.text && $0.set == 0 && abs($0.frame.y - c.frame.y) < 1 }) { c.alpha = 1 }
        else if candidates.contains(where: { $0.set == 0 && $0.frame.inset(by: -1).intersects(c.frame) }) { c.alpha = min(c.alpha, max(0, 2 * p - 1)) }
        keep.append(c)
      }
      candidates = keep
    }
    // A two-axis chart's left labels belong to its first line: they fade with it.
    var lineAlpha = 1.0
    if snap.style.yScaled, let first = spec.data.lines.first { lineAlpha = snap.alpha[first.id] ?? 1 }
    yLabels = candidates.map { DrawnLabel(text: $0.text, frame: $0.frame, alpha: $0.alpha * lineAlpha) }.filter { $0.alpha > 0.001 }
  }

  /// The right axis of a two-axis chart: its labels right-aligned at the plot's right edge
  /// above their lines (inside), or left-aligned in the gutter right of the plot (outside).
  /// They fade when every line after the first is hidden.
  mutating func makeRight(spec: ChartSpec, parts: ChartParts, snap: ChartSnapshot, measurer: TextMeasurer, scale plotScale: PlotScale) {
    let set = spec.data
    guard snap.style.yScaled, set.lines.count > 1 else { return }
    let plot = parts.plot
    let font = ChartMetrics.axisFont
    let h = measurer.measure("0", font: font).height
    let lineAlpha = set.lines.dropFirst().map { snap.alpha[$0.id] ?? 1 }.max() ?? 1
    let outside = spec.yLabels == .outside
    let settled = snap.rightTicks.count == 1 && snap.rightTicks[0].alpha >= 1
    for (scale, setAlpha) in snap.rightTicks {
      var a = setAlpha * lineAlpha
      let ticks = scale.ticks
      // Squeezed labels fade as the left axis's do (with its grid lines); settled, they are
      // thinned as the left axis's are.
      var every = 1
      if ticks.count > 1 {
        let spacing = abs(plotScale.y(ticks[1]) - plotScale.y(ticks[0]))
        let squeeze = max(0, min(1, (spacing - h - 1) / (h / 2)))
        if settled, squeeze < 1 {
          every = ChartAxes.thinning(spacing: spacing, labelHeight: h, count: ticks.count)
        } else {
          a *= squeeze
        }
      }
      guard a > 0.001 else { continue }
      for (i, v) in ticks.enumerated() where i % every == 0 {
        let gy = plotScale.y(v).rounded() + 0.5
        guard gy >= plot.minY - 1, gy <= plot.maxY + 1 else { continue }
        let text = spec.format.axisNumber(v, step: scale.step)
        let w = measurer.measure(text, font: font).width
        let frame: Rect
        if outside, let gutter = parts.yGutterRight {
          frame = Rect(gutter.x + 6, gy - h / 2, w, h)
        } else {
          frame = Rect(plot.maxX - w, gy.rounded() - 0.5 - h - 2, w, h)
          guard frame.minY >= plot.minY - h else { continue }
        }
        rightLabels.append(DrawnLabel(text: text, frame: frame, alpha: a))
        rightLines.append(gy)
      }
    }
  }

  mutating func makeX(band: Rect, scale plotScale: PlotScale, measurer: TextMeasurer, rest: Double, reference: (Double, Double)?, level: Double?, atOnce: Bool,
                      format: DisplayFormat) {
    let plot = plotScale.xRect
    let tLo = plotScale.from, tHi = plotScale.to
    let font = ChartMetrics.axisFont
    var cache: [String: Size] = [:]
    func size(_ s: String) -> Size {
      if let v = cache[s] { return v }
      let v = measurer.measure(s, font: font)
      cache[s] = v
      return v
    }
    let y = band.y + 6
    if tHi <= tLo {
      // One point: one label under it.
      let text = format.axisLabel(tLo)
      let s = size(text)
      xLabels = [DrawnLabel(text: text, frame: Rect(plot.midX - s.width / 2, y, s.width, s.height), alpha: 1)]
      xContext = ChartAxes.context(beside: [(tLo, xLabels[0])], clearance: ChartAxes.contextClearance, plot: plot, format: format, size: size)?.label
      return
    }
    let spacing = ChartAxes.xSpacing(plot: plot, measurer: measurer, format: format)
    let made = TimeScale.make(tLo: tLo, tHi: tHi, plotWidth: plot.width, spacing: spacing, gap: ChartAxes.labelGap, rest: rest, referenceSpan: reference.map { $0.1 - $0.0 },
                              level: level, format: format) { size($0).width }
    // Keep labels inside the plot's width; skip one that would then touch a neighbour. Full
    // labels first, so a fading one never pushes a full one out; and labels pushed in from
    // an edge after the others, so the edge one gives way, not its neighbour (which would
    // leave the rest unevenly spaced).
    func place(_ ticks: [TimeScale.Tick], _ xOf: (Double) -> Double) -> [(Double, DrawnLabel)] {
      var placed: [DrawnLabel] = []
      var times: [Double] = []
      let candidates = ticks.compactMap { tick -> (tick: TimeScale.Tick, frame: Rect, pushed: Bool)? in
        let s = size(tick.text)
        if s.width > plot.width { return nil }
        let centred = xOf(tick.timeMs) - s.width / 2
        let x = max(plot.x, min(plot.maxX - s.width, centred))
        return (tick, Rect(x, y, s.width, s.height), abs(x - centred) > 0.01)
      }
      for pass in 0..<4 {
        for c in candidates where (c.tick.alpha >= 1) == (pass < 2) && c.pushed == (pass % 2 == 1) {
          if placed.contains(where: { $0.frame.inset(top: 0, left: -ChartAxes.labelGap / 2, bottom: 0, right: -ChartAxes.labelGap / 2).intersects(c.frame) }) { continue }
          placed.append(DrawnLabel(text: c.tick.text, frame: c.frame, alpha: c.tick.alpha))
          times.append(c.tick.timeMs)
        }
      }
      return zip(times, placed).sorted { $0.1.frame.x < $1.1.frame.x }
    }
    let row = place(made.ticks, plotScale.x)
    xLabels = row.map(\.1)
    // It describes a window at rest: fading out over the first half of `settleTime` as a
    // zoom or pan starts (a drag: at once), back in over the second half after the window
    // stops, so it never hops from label to label while they scroll by or fade.
    let fade = max(0, min(1, 2 * rest - 1))
    if atOnce, rest < 0.5 {
      pinContext(row: row, plot: plot, y: y, tLo: tLo, tHi: tHi, rest: rest, format: format, size: size)
    }
    guard fade > 0.001 else { return }
    // Beside a label with clear room; else in the room of a neighbour (`Sep 23 2018  Oct 21`
    // reads better than `Sep 23  Oct 7 2018 Oct 21`); else beside one with less air. Which
    // of the first two is decided on the row at rest (where the window's motion started, or
    // where it ends), so that it holds while the context fades and the labels move.
    let restRow: [(Double, DrawnLabel)]
    if rest >= 1 || reference == nil {
      restRow = row
    } else {
      let (lo, hi) = reference!
      let atRest = PlotScale(x: plot, from: lo, to: hi, y: plot, range: ValueRange(0, 1))
      restRow = place(TimeScale.make(tLo: lo, tHi: hi, plotWidth: plot.width, spacing: spacing, gap: ChartAxes.labelGap, format: format) { size($0).width }.ticks, atRest.x)
    }
    // The side the locale writes it on comes first (`Mar 2019` in a neighbour's room, or
    // with `Mar` moved in from the edge, rather than `2019 Mar` in free room).
    func displacing() -> (anchor: Double, after: Bool, taken: [Double])? {
      for localeSide in [true, false] {
        if ChartAxes.context(beside: restRow, clearance: ChartAxes.contextClearance, localeSide: localeSide, plot: plot, format: format, size: size)?.clear == true {
          return nil
        }
        if let d = ChartAxes.context(displacing: restRow, localeSide: localeSide, plot: plot, format: format, size: size) { return d }
      }
      return nil
    }
    if let atRest = displacing() {
      // The labels whose room it takes give way over the third quarter of the rest, then it
      // shows over the last (the two never both show; as the window starts to move it is
      // gone before its anchor can be, and they are back before the labels move far).
      let give = max(0, min(1, 4 * rest - 2)), show = max(0, min(1, 4 * rest - 3))
      var displaced = row.filter { atRest.taken.contains($0.0) }.map(\.1)
      // The same anchor (by time) and side in this frame's row; what its room overlaps now
      // gives way too.
      if let anchor = row.first(where: { $0.0 == atRest.anchor }),
         let (c, taken, shift) = ChartAxes.context(displacing: row, anchor: anchor, after: atRest.after, plot: plot, format: format, size: size) {
        displaced += taken
        // A label moved in from the plot's edge to make room moves as the context shows.
        let moved = shift * show * (anchor.1.alpha > 0 ? c.alpha / anchor.1.alpha : 0)
        if shift != 0, let k = xLabels.firstIndex(of: anchor.1) { xLabels[k].frame.x += moved }
        let context = DrawnLabel(text: c.text, frame: c.frame.offsetBy(moved - shift, 0), alpha: c.alpha * show)
        xContext = context.alpha > 0.001 ? context : nil
      }
      xLabels = xLabels.compactMap { l in
        guard displaced.contains(l) else { return l }
        var l = l
        l.alpha *= 1 - give
        return l.alpha > 0.001 ? l : nil
      }
    } else {
      // (A context fading because a faint label is near is taken only when nothing better is.)
      let wide = ChartAxes.context(beside: row, clearance: ChartAxes.contextClearance, plot: plot, format: format, size: size)
      let narrow = wide?.clear == true ? nil : ChartAxes.context(beside: row, clearance: ChartAxes.labelGap, plot: plot, format: format, size: size)
      if var c = (narrow.map { $0.clear || $0.label.alpha > (wide?.label.alpha ?? 0) } ?? false) ? narrow?.label : wide?.label {
        c.alpha *= fade
        xContext = c.alpha > 0.001 ? c : nil
      }
    }
    if xContext == nil, fade >= 1, !row.contains(where: { format.axisContext($0.0) == nil && $0.1.alpha >= 0.5 }) {
      xContextMissing = row.first { $0.1.alpha >= 0.5 }.flatMap { format.axisContext($0.0)?.text }
    }
  }

  /// While the window is moved at once, frame by frame (a camera following new data,
  /// `cs.follow`; a drag), the context stands at the axis start, as a sticky header: the
  /// year of the window's first instant (the date, in a row of times); labels give way to
  /// it over `pinnedRamp` as they slide under it, and it fades where its text changes (the
  /// year's first instant crossing the axis start) and while the row changes between dates
  /// and times. After the last move it fades out over the first quarter of `settleTime`,
  /// then the labels under it come back over the second, before the context at rest fades
  /// in: the two never both show, nor it and a label under it. (An animated zoom or pan
  /// has none: its labels move too fast for one to give way smoothly.)
  mutating func pinContext(row: [(Double, DrawnLabel)], plot: Rect, y: Double, tLo: Double, tHi: Double, rest: Double,
                           format: DisplayFormat, size: (String) -> Size) {
    let q = max(0, min(1, 1 - 2 * rest))
    let clear = max(0, min(1, 2 * q)), show = max(0, min(1, 2 * q - 1))
    guard clear > 0.001, tHi > tLo else { return }
    // A row of times (one at least half drawn) says the date; else the year.
    let timeLabels = row.filter { format.axisContext($0.0).map { !$0.year } ?? false }.map(\.1.alpha).max() ?? 0
    let year = timeLabels < 0.5
    let text = format.axisContext(tLo, year: year)
    let s = size(text)
    let box = Rect(plot.minX, y, s.width, s.height)
    guard box.maxX <= plot.maxX else { return }
    // Labels under it and within `contextClearance` give way; beyond, over `pinnedRamp`.
    let edge = box.maxX + ChartAxes.contextClearance
    xLabels = xLabels.compactMap { l in
      var l = l
      let z = max(0, min(1, (l.frame.minX - edge) / ChartAxes.pinnedRamp))
      l.alpha *= 1 - clear * (1 - z)
      return l.alpha > 0.001 ? l : nil
    }
    // Where its text changes: fading to nothing as that instant reaches the axis start
    // (found to the millisecond by halving), back as it moves on.
    let reach = (box.width + ChartAxes.contextClearance) / plot.width * (tHi - tLo)
    func boundary(_ a: Double, _ b: Double) -> Double? {
      let ta = format.axisContext(a, year: year)
      guard ta != format.axisContext(b, year: year) else { return nil }
      var (lo, hi) = (a, b)
      while hi - lo > 1 {
        let m = (lo + hi) / 2
        if format.axisContext(m, year: year) == ta { lo = m } else { hi = m }
      }
      return hi
    }
    var near = 1.0
    if reach > 0 {
      if let b = boundary(tLo - reach, tLo) { near = min(near, (tLo - b) / reach) }
      if let b = boundary(tLo, tLo + reach) { near = min(near, (b - tLo) / reach) }
    }
    let alpha = show * max(0, near) * abs(2 * timeLabels - 1)
    if alpha > 0.001 { xContext = DrawnLabel(text: text, frame: box, alpha: alpha) }
  }

  /// Over how many px labels give way to the context at the axis start (`pinContext`).
  public static let pinnedRamp = 24.0

  /// Air between a label and its context (about a space).
  public static let contextSpace = 4.0
  /// The least air between the context and the other labels: clearly more than between it
  /// and its label, so the two read as one (`Mar 5 2019`, never `2019 Mar 12`); where no
  /// label has that much room (a crowded row on a phone), at least `labelGap` (twice the
  /// air beside its own label).
  public static let contextClearance = 2 * labelGap
  /// How far the context may reach past the plot's side, into the chart's padding (half
  /// of it), where the labels themselves never go, on the side the locale writes it: the
  /// last label of a narrow row has room for `Mar 3 2019` then (cards at 320×240 had no
  /// context).
  public static let contextOverhang = ChartMetrics.sidePadding / 2

  /// The context of an X row (`xContext`): beside the first label drawn at least half
  /// opaque that has room for it on the side the locale writes it (else the other side),
  /// `clearance` from every other label and inside the plot (`makeX` tries
  /// `contextClearance`, then `context(displacing:)`, then `labelGap`); at
  /// that label's opacity. None when that label is a year (it says the year itself) or no
  /// label has room. A year context also gives way to a year label anywhere in the row
  /// (`Nov`, `Dec`, `2019`, `Feb` is clear, as matplotlib's offset is left out then),
  /// fading as that label fades in; a date context (beside times) stays.
  ///
  /// A label fainter than `faintLabel` (one of a level fading in or out) does not take the
  /// room, but the context fades while one is that close (fully gone while it is
  /// `faintLabel`), so the two never both show: it comes back as such labels fade out,
  /// rather than popping in when they are gone.
  static func context(beside row: [(Double, DrawnLabel)], clearance: Double, localeSide: Bool? = nil, plot: Rect, format: DisplayFormat,
                      size: (String) -> Size) -> (label: DrawnLabel, clear: Bool)? {
    var best: DrawnLabel? = nil
    for (time, anchor) in row where anchor.alpha >= 0.5 {
      guard let (text, before, year) = format.axisContext(time) else { break }
      var alpha = anchor.alpha
      if year {
        let yearLabel = row.filter { format.axisContext($0.0) == nil }.map(\.1.alpha).max() ?? 0
        alpha *= 1 - yearLabel
        guard alpha > 0.001 else { return nil }
      }
      let s = size(text)
      let f = anchor.frame
      let left = Rect(f.minX - contextSpace - s.width, f.y, s.width, s.height), right = Rect(f.maxX + contextSpace, f.y, s.width, s.height)
      // Past the plot's side only on the side the locale writes it (`Mar 3 2019` at the end
      // of a row, never `2019 Mar 3` at its start).
      let reach = (left: before ? contextOverhang : 0, right: before ? 0 : contextOverhang)
      let sides = localeSide.map { $0 ? [before ? left : right] : [before ? right : left] } ?? (before ? [left, right] : [right, left])
      for r in sides where r.minX >= plot.minX - reach.left - 0.01 && r.maxX <= plot.maxX + reach.right + 0.01 {
        let air = r.inset(top: 0, left: -clearance, bottom: 0, right: -clearance)
        let near = row.filter { $0.1 != anchor && $0.1.frame.intersects(air) }.map(\.1.alpha).max() ?? 0
        guard near < faintLabel else { continue }
        let c = DrawnLabel(text: text, frame: r, alpha: alpha * (1 - near / faintLabel))
        if near <= 0.001 { return (c, true) }
        if c.alpha > (best?.alpha ?? 0.001) { best = c }
      }
    }
    return best.map { ($0, false) }
  }

  /// Where no label has room beside it (a crowded row on a phone: `Mar Apr May Jun`), the
  /// context takes the room of the labels next to one (`Mar 2019 May Jun`): on the side the
  /// locale writes it (`localeSide`) or the other, beside the first label drawn at least
  /// half opaque where it fits (within the plot and `contextOverhang`), else with that label
  /// moved in from the plot's edge; `contextClearance` from the labels left (never
  /// displacing a year label). Those labels fade out before the context fades in (`makeX`),
  /// so at rest they are not drawn and while the window moves they are, with no context.
  /// Gives the anchor's time, the side and the times displaced.
  static func context(displacing row: [(Double, DrawnLabel)], localeSide: Bool, plot: Rect, format: DisplayFormat,
                      size: (String) -> Size) -> (anchor: Double, after: Bool, taken: [Double])? {
    guard let first = row.first(where: { $0.1.alpha >= 0.5 }), let (_, before, year) = format.axisContext(first.0) else { return nil }
    // A year label says the year (see `context(beside:)`).
    if year, row.contains(where: { format.axisContext($0.0) == nil && $0.1.alpha >= 0.5 }) { return nil }
    // Beside the first label where it fits (`Jan 1 1970 06:00` in the room of `03:00`, not
    // `03:00 Jan 1 1970` in that of `06:00`); then with the label moved in from the plot's
    // edge (a thumbnail's one label, `Mar 2019`).
    let after = localeSide != before
    for shifting in [false, true] {
      for (time, anchor) in row where anchor.alpha >= 0.5 {
        guard let (text, _, _) = format.axisContext(time) else { break }
        guard let (r, shift) = slot(size(text), beside: anchor.frame, after: after, before: before, plot: plot), shifting || shift == 0 else { continue }
        let rooms = room(r, anchor.frame.offsetBy(shift, 0))
        let taken = row.filter { l in l.1 != anchor && rooms.contains { l.1.frame.intersects($0) } }
        if taken.contains(where: { format.axisContext($0.0) == nil }) { continue }
        return (time, after, taken.map(\.0))
      }
    }
    return nil
  }

  /// The context beside `anchor` on a given side, at its opacity (less a year label's in the
  /// row), the labels in its room (`room`), and how far the anchor moves in from the plot's
  /// edge to make it (`slot`); nil when it cannot be there.
  static func context(displacing row: [(Double, DrawnLabel)], anchor: (Double, DrawnLabel), after: Bool, plot: Rect, format: DisplayFormat,
                      size: (String) -> Size) -> (DrawnLabel, [DrawnLabel], Double)? {
    guard let (text, before, year) = format.axisContext(anchor.0),
          let (r, shift) = slot(size(text), beside: anchor.1.frame, after: after, before: before, plot: plot) else { return nil }
    var alpha = anchor.1.alpha
    if year { alpha *= 1 - (row.filter { format.axisContext($0.0) == nil }.map(\.1.alpha).max() ?? 0) }
    let rooms = room(r, anchor.1.frame.offsetBy(shift, 0))
    let taken = row.filter { l in l.1 != anchor.1 && rooms.contains { l.1.frame.intersects($0) } }
    return (DrawnLabel(text: text, frame: r, alpha: alpha), taken.map(\.1), shift)
  }

  /// The context's box beside a label's (`contextSpace` apart), after it or before it, and
  /// how far both move in (the label staying in the plot) to keep the box within the plot
  /// and, on the side the locale writes it, `contextOverhang` past it: 0 where it fits.
  static func slot(_ s: Size, beside f: Rect, after: Bool, before: Bool, plot: Rect) -> (Rect, Double)? {
    let r = after ? Rect(f.maxX + contextSpace, f.y, s.width, s.height) : Rect(f.minX - contextSpace - s.width, f.y, s.width, s.height)
    let lo = plot.minX - (before ? contextOverhang : 0), hi = plot.maxX + (before ? 0 : contextOverhang)
    var shift = 0.0
    if r.minX < lo - 0.01 { shift = lo - r.minX } else if r.maxX > hi + 0.01 { shift = hi - r.maxX }
    guard f.minX + shift >= plot.minX - 0.01, f.maxX + shift <= plot.maxX + 0.01, r.maxX + shift <= hi + 0.01, r.minX + shift >= lo - 0.01 else { return nil }
    return (r.offsetBy(shift, 0), shift)
  }

  /// The room the context and its label take: the context `contextClearance` wide on each
  /// side, the label (moved) as labels keep apart.
  static func room(_ context: Rect, _ label: Rect) -> [Rect] {
    [context.inset(top: 0, left: -contextClearance, bottom: 0, right: -contextClearance),
     label.inset(top: 0, left: -labelGap / 2, bottom: 0, right: -labelGap / 2)]
  }

  /// How faint a label may be and still leave its room to the context (`context`): lint's
  /// least visible opacity.
  static let faintLabel = 0.1
}
