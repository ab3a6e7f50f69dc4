import ChartModel
import Drawing
import SceneGraph

/// Issue 39's checks of what a reader sees: bars cut by the plot's edge, race swaps that
/// blink, a carousel at rest between two items.
extension Lint {
  /// The least frames two race bars passing each other show between their places: fewer,
  /// and the swap blinks (issue 39: `race.lua` swapped in 0–1 frame).
  public static let leastSwapFrames = 2

  /// The first and last bars of a bar chart whose window reaches the data's ends, as drawn
  /// (`ChartGeometry.barEdges`), checked by `cutBars(name:plot:first:last:)`.
  static func cutBars(name: String, spec: ChartSpec, snap: ChartSnapshot, plot: Rect) -> [String] {
    let set = spec.data
    guard set.count > 0, set.spanMs > 0, snap.style.drawsBars(set), plot.width > 0 else { return [] }
    let geometry = ChartGeometry(plot: plot, lineWidth: spec.lineWidth, set: set, snapshot: snap)
    let step = abs(geometry.x(set.firstMs + set.typicalStepMs) - geometry.x(set.firstMs))
    // Bars thinner than a pixel are drawn as pixel columns: nothing to cut.
    guard step >= 1 else { return [] }
    return cutBars(name: name, plot: plot, first: snap.window.lo <= 0 ? ChartGeometry.barEdges(x: geometry.x(set.firstMs), step: step) : nil,
                   last: snap.window.hi >= 1 ? ChartGeometry.barEdges(x: geometry.x(set.lastMs), step: step) : nil)
  }

  /// The first bar (left and right edges) and the last one, each cut by the plot's edge:
  /// the half bars of issue 39 (a bar chart's ends drawn as a histogram's).
  public static func cutBars(name: String, plot: Rect, first: (l: Double, r: Double)?, last: (l: Double, r: Double)?) -> [String] {
    var out: [String] = []
    if let first, first.l < plot.x - Lint.tolerance {
      out.append("\(name): its first bar is cut by the plot's edge (\(Lint.pixels(plot.x - first.l)) of it outside)")
    }
    if let last, last.r > plot.maxX + Lint.tolerance {
      out.append("\(name): its last bar is cut by the plot's edge (\(Lint.pixels(last.r - plot.maxX)) of it outside)")
    }
    return out
  }

  /// A chart's title left out where its row fits: the plot would keep at least the height
  /// the layout keeps for it (issue 39: `languages.lua` at 360×640 dropped its Arabic title,
  /// measured on the taller line of the Arabic font). Only where the date labels are kept
  /// (they give way after the title).
  public static func droppedTitle(name: String, spec: ChartSpec, card: Bool, frame: Rect, parts: ChartParts, measurer: TextMeasurer) -> String? {
    guard let title = spec.title, !title.isEmpty, parts.title == nil, parts.xAxis != nil || !spec.xAxis,
          spec.base.zoom == nil else { return nil }
    let row = ChartParts.titleRowHeight(measurer: measurer)
    let least = ChartParts.leastPlotHeight(frame: frame, card: card)
    let kept = parts.plot.height - row
    guard kept >= least else { return nil }
    return "\(name): its title is left out though its row fits (the plot would keep \(Int(kept.rounded(.down))) px)"
  }

  /// A stacked bar poster's total that counts a missing value as 0: a number in its "All"
  /// row while a shown line has no value at the indicator's point (issue 39).
  public static func totalOverGap(name: String, poster: ChartPoster, set: ChartSet, index i: Int) -> String? {
    guard let all = poster.rows.last, all.name == "All", all.value != "–",
          let missing = set.visibleLines.first(where: { i >= $0.values.count || $0.values[i].isNaN }) else { return nil }
    return "\(name): the poster's total reads '\(Lint.quoted(all.value))' though '\(Lint.quoted(missing.name))' has no value there (a gap counted as 0)"
  }

  /// A time axis that reads 1970 for data that is not from then: every time within a day of
  /// 1970-01-01 00:00 UTC, the mark of numbers (years, counts) read as UNIX seconds or
  /// milliseconds (issue 39: a float-year column drew "Jan 1 1970 00:29").
  public static func epochAxis(name: String, set: ChartSet, hasXAxis: Bool) -> String? {
    let day = 86_400_000.0
    guard hasXAxis, set.count > 1, set.firstMs > -day, set.lastMs < day else { return nil }
    return "\(name): its time axis reads 1970 (every time lies within a day of 1970-01-01: numbers read as UNIX time?)"
  }

  /// `3.5 px`.
  static func pixels(_ d: Double) -> String {
    let r = (d * 10).rounded() / 10
    return (r == r.rounded() ? String(Int(r)) : String(r)) + " px"
  }

  /// Two race bars passing each other: where each pair last stood apart (the sign of their
  /// rank difference) and how many frames since have shown them passing.
  public struct RaceSwaps {
    var pairs: [String: (order: Double, passing: Int)] = [:]
    public init() {}

    /// The findings of one frame of race `name` whose bars stand at `ranks` (by bar name,
    /// as drawn: 1 the top place, fractions while passing). A pair that stands apart again,
    /// in the other order, after fewer than `leastSwapFrames` frames of passing, blinked.
    public mutating func frame(name: String, ranks: [(name: String, rank: Double)]) -> [String] {
      var out: [String] = []
      var seen = Set<String>()
      let sorted = ranks.sorted { $0.name < $1.name }
      for (i, a) in sorted.enumerated() {
        for b in sorted[(i + 1)...] {
          let key = a.name + "\u{0}" + b.name
          seen.insert(key)
          let d = a.rank - b.rank
          var p = pairs[key] ?? (0, 0)
          if abs(d) >= 1 - 1e-6 {
            let order: Double = d < 0 ? -1 : 1
            if p.order != 0, p.order != order, p.passing < Lint.leastSwapFrames {
              out.append("\(name): bars '\(Lint.quoted(a.name))' and '\(Lint.quoted(b.name))' change places in \(p.passing) frame\(p.passing == 1 ? "" : "s") (a swap shows for at least \(Lint.leastSwapFrames))")
            }
            p = (order, 0)
          } else {
            p.passing += 1
          }
          pairs[key] = p
        }
      }
      // A bar that left the race forgets its pairs.
      pairs = pairs.filter { seen.contains($0.key) }
      return out
    }
  }

  /// A carousel at rest whose scroll is not on an item: between two, neither at the centre.
  public static func scrollBetweenItems(name: String, scroll: Double, pitch: Double) -> String? {
    guard pitch > 0, scroll.isFinite else { return nil }
    let r = scroll / pitch
    guard abs(r - r.rounded()) * pitch > Lint.tolerance else { return nil }
    let k = Int(r.rounded(.down))
    return "\(name) rests between items \(k + 1) and \(k + 2) (scrolled \(Lint.pixels(scroll)), items \(Lint.pixels(pitch)) apart)"
  }

  /// The views a script wrote (`cs.view`) that lint knows: a race's swaps, a carousel at rest.
  func checkViews(_ scene: Scene, time t: Double, races: inout [String: RaceSwaps], gesture: Bool, into out: inout [String]) {
    let presentation = scene.presentation
    func visit(_ n: Node) {
      guard n.placement.visible else { return }
      if case .view(let spec) = n.kind, let inspect = spec.inspect, spec.name == "race" || spec.name == "carousel" {
        let fields = inspect(t)
        let name = "\(spec.name) '\(Lint.quoted(n.id))'"
        if spec.name == "race", case .array(let bars)? = fields.first(where: { $0.0 == "bars" })?.1 {
          let ranks: [(name: String, rank: Double)] = bars.compactMap { bar in
            guard case .object(let f) = bar, case .string(let label)? = f.first(where: { $0.0 == "name" })?.1,
                  let rank = Lint.number(f.first(where: { $0.0 == "rank" })?.1) else { return nil }
            return (label, rank)
          }
          out += races[n.id, default: RaceSwaps()].frame(name: name, ranks: ranks)
        } else if spec.name == "carousel", !gesture, !presentation.isAnimating(at: t),
                  let scroll = Lint.number(fields.first(where: { $0.0 == "scroll" })?.1),
                  let pitch = Lint.number(fields.first(where: { $0.0 == "pitch" })?.1),
                  let m = Lint.scrollBetweenItems(name: name, scroll: scroll, pitch: pitch) {
          out.append(m)
        }
      }
      for c in n.children { visit(c) }
    }
    visit(scene.root)
  }

  static func number(_ j: OrderedJSON?) -> Double? {
    switch j {
    case .number(let d)?, .pixels(let d)?: return d
    default: return nil
    }
  }
}
