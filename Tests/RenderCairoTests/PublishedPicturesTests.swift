import ChartSceneHost
import Drawing
import Foundation
import RenderCairo
import SceneGraph
import XCTest

/// Issue 39, the rest: whole bars apart (item 2), titles kept in every script (item 4),
/// race swaps that take frames (item 5), a carousel at rest on an item (item 10); and for
/// each, lint sees the defect put back.
final class PublishedPicturesTests: TempFolderCase {
  static let repo = URL(fileURLWithPath: "\(#filePath)").deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

  func example(_ name: String, size: (Double, Double)? = nil) throws -> Session {
    var o = Session.Overrides()
    if let size { o.width = size.0; o.height = size.1 }
    return try Session(scriptPath: Self.repo.appendingPathComponent("examples/" + name).path, overrides: o, quiet: true)
  }

  func session(_ script: String) throws -> Session {
    let path = dir + "/s.lua"
    try script.write(toFile: path, atomically: true, encoding: .utf8)
    return try Session(scriptPath: path, quiet: true)
  }

  /// Five yearly values as bars (the audit's shape: 2019–2023), at 400×300.
  static let yearly = """
    local x = {}
    for k = 1, 5 do x[k] = os.time({ year = 2018 + k, month = 1, day = 1, hour = 0 }) * 1000 end
    local s = cs.data.series { x = x, lines = { { id = "a", name = "Coal", color = "#3896E3", values = { 41, 38, 30, 33, 24 } } } }
    return cs.scene { width = 400, height = 300, theme = "day",
      root = cs.chart { id = "c", data = s, type = "bar", minimap = false, legend = false, indicator = false } }
    """

  /// The runs of the bar's colour along row y (x ranges, inclusive).
  func runs(_ img: RasterImage, y: Int, near color: (Int, Int, Int)) -> [ClosedRange<Int>] {
    var out: [ClosedRange<Int>] = []
    var start: Int?
    for x in 0..<img.width {
      let p = img.rgba(x: x, y: y)
      let hit = abs(Int(p.r) - color.0) + abs(Int(p.g) - color.1) + abs(Int(p.b) - color.2) < 40
      if hit, start == nil { start = x }
      if !hit, let s = start { out.append(s...(x - 1)); start = nil }
    }
    if let s = start { out.append(s...(img.width - 1)) }
    return out
  }

  /// Item 2: five yearly bars were a histogram: 2019 and 2023 half bars at the plot's
  /// edges, all five touching. Now five whole bars of one width, apart, inside the plot.
  func testYearlyBarsAreWholeAndApart() throws {
    let s = try session(Self.yearly)
    let node = try XCTUnwrap(s.scene.node(id: "c"))
    let img = try CairoPainter(text: s.text).raster(try s.displayList(at: 0), scale: 1)
    let plot = try s.chartAxes("c", at: 0).plot
    let bars = runs(img, y: Int(plot.maxY) - 6, near: (0x38, 0x96, 0xE3))
    XCTAssertEqual(bars.count, 5, "\(bars)")
    XCTAssertGreaterThan(Double(bars.first!.lowerBound), plot.x + 2, "the first bar touches the plot's edge: \(bars)")
    XCTAssertLessThan(Double(bars.last!.upperBound), plot.maxX - 2, "the last bar touches the plot's edge: \(bars)")
    let widths = bars.map(\.count)
    XCTAssertLessThanOrEqual(widths.max()! - widths.min()!, 1, "bars of different widths: \(bars)")
    for (a, b) in zip(bars, bars.dropFirst()) { XCTAssertGreaterThan(b.lowerBound - a.upperBound, 4, "bars touch: \(bars)") }
    // Lint finds nothing cut, on this chart and on every bar example at the audit's sizes.
    XCTAssertEqual(try Lint(session: s).run().map(\.message).filter { $0.contains("bar is cut") }, [])
    _ = node
  }

  /// Item 2's lint: bars as the former code placed them (the first centred on the plot's
  /// left edge, the last on its right) are findings; whole bars are not.
  func testLintSeesABarCutByThePlotsEdge() throws {
    let plot = Rect(40, 20, 300, 200)
    let step = 60.0
    XCTAssertEqual(Lint.cutBars(name: "chart 'c'", plot: plot, first: ChartGeometry.barEdges(x: plot.x + step / 2, step: step),
                                last: ChartGeometry.barEdges(x: plot.maxX - step / 2, step: step)), [])
    XCTAssertEqual(Lint.cutBars(name: "chart 'c'", plot: plot, first: (plot.x - step / 2, plot.x + step / 2), last: (plot.maxX - step / 2, plot.maxX + step / 2)), [
      "chart 'c': its first bar is cut by the plot's edge (30 px of it outside)",
      "chart 'c': its last bar is cut by the plot's edge (30 px of it outside)",
    ])
    XCTAssertEqual(ChartGeometry.barGap(step: 3), 0)
    XCTAssertEqual(ChartGeometry.barGap(step: 60), 12, accuracy: 1e-9)
  }

  /// The title of each chart of a still, by chart id (nil: left out), and its parts.
  func titles(_ s: Session) throws -> [(id: String, parts: ChartParts, spec: ChartSpec, frame: Rect)] {
    _ = try s.displayList(at: 0)
    var out: [(String, ChartParts, ChartSpec, Rect)] = []
    func visit(_ n: Node) {
      if let spec = n.chart {
        out.append((n.id, ChartParts.make(spec: spec, card: false, frame: n.contentFrame, measurer: s.text, window: s.scene.presentation.window(spec.data, at: 0)), spec, n.contentFrame))
      }
      for c in n.children { visit(c) }
    }
    visit(s.scene.root)
    return out
  }

  /// Item 4: at 360×640 `languages.lua` kept the Chinese, Japanese and Hebrew titles and
  /// dropped the Arabic one (its font's line is taller, so its row was): every script's
  /// title keeps one row of the title font's height, and each is shown.
  func testTitlesInEveryScriptKeepTheirRow() throws {
    let s = try example("languages.lua", size: (360, 640))
    let charts = try titles(s)
    XCTAssertEqual(charts.count, 5)
    let rows = Set(charts.compactMap { $0.parts.title?.height })
    for c in charts { XCTAssertNotNil(c.parts.title, "chart \(c.id) lost its title at 360x640") }
    XCTAssertEqual(rows.count, 1, "title rows of different heights: \(rows)")
    let findings = try Lint(session: s).run().map(\.message).filter { $0.contains("title") }
    XCTAssertEqual(findings, [])
  }

  /// Item 4's lint: a title left out where the chart has room for its row (the Arabic
  /// title of `languages.lua` put back out) is a finding; one kept is not, nor one left out
  /// of a chart with no room.
  func testLintSeesATitleDroppedWhereItFit() throws {
    let s = try example("languages.lua", size: (360, 640))
    let ar = try XCTUnwrap(try titles(s).first { $0.id == "ar" })
    XCTAssertNil(Lint.droppedTitle(name: "chart 'ar'", spec: ar.spec, card: false, frame: ar.frame, parts: ar.parts, measurer: s.text))
    var dropped = ar.parts
    dropped.title = nil
    dropped.plot = Rect(dropped.plot.x, ar.frame.y + 12, dropped.plot.width, dropped.plot.maxY - ar.frame.y - 12)
    XCTAssertEqual(Lint.droppedTitle(name: "chart 'ar'", spec: ar.spec, card: false, frame: ar.frame, parts: dropped, measurer: s.text),
                   "chart 'ar': its title is left out though its row fits (the plot would keep \(Int((dropped.plot.height - ChartParts.titleRowHeight(measurer: s.text)).rounded(.down))) px)")
    // Five charts in 240 px: no room, no finding.
    for c in try titles(try example("five.lua", size: (320, 240))) {
      XCTAssertNil(Lint.droppedTitle(name: c.id, spec: c.spec, card: false, frame: c.frame, parts: c.parts, measurer: s.text))
    }
  }

  /// Item 5: `race.lua` (96 months in 12 s at 30 fps) swapped two bars in 0–1 frame
  /// (frames 192, 209): both bars over each other, names gone, then in their new places.
  /// Every swap now shows for at least `Lint.leastSwapFrames` frames, and lint says so.
  func testRaceSwapsTakeFrames() throws {
    let s = try example("race.lua")
    let frames = try Lint(session: s).run(frames: 150...260).map(\.message)
    XCTAssertEqual(frames.filter { $0.contains("change places") }, [])
    // The same at another fps: a swap's frames follow the output's.
    var o = Session.Overrides()
    o.fps = 24
    let s24 = try Session(scriptPath: Self.repo.appendingPathComponent("examples/race.lua").path, overrides: o, quiet: true)
    XCTAssertEqual(try Lint(session: s24).run(frames: 120...210).map(\.message).filter { $0.contains("change places") }, [])
  }

  /// Item 5's lint: two bars that stand apart in one frame and in each other's places the
  /// next (the blink put back) are a finding; a swap shown over frames is not.
  func testLintSeesARaceSwapThatBlinks() {
    var blink = Lint.RaceSwaps()
    XCTAssertEqual(blink.frame(name: "race 'r'", ranks: [("A", 1), ("B", 2)]), [])
    XCTAssertEqual(blink.frame(name: "race 'r'", ranks: [("A", 1.5), ("B", 1.5)]), [])
    XCTAssertEqual(blink.frame(name: "race 'r'", ranks: [("A", 2), ("B", 1)]), ["race 'r': bars 'A' and 'B' change places in 1 frame (a swap shows for at least 2)"])
    var smooth = Lint.RaceSwaps()
    for (a, b) in [(1.0, 2.0), (1.2, 1.8), (1.5, 1.5), (1.8, 1.2), (2, 1)] {
      XCTAssertEqual(smooth.frame(name: "race 'r'", ranks: [("A", a), ("B", b)]), [])
    }
  }

  /// Item 10: `carousel.lua` at 360×640 rested between two cards (its scroll, 888 px, is
  /// two items at 1000×560). Untouched, it rests with the nearest item at the centre; at
  /// its own size nothing moves.
  func testCarouselRestsOnAnItem() throws {
    for (size, expected) in [((360.0, 640.0), 960.0), ((1000, 560), 888)] {
      let s = try example("carousel.lua", size: size)
      let doc = try s.inspect(at: 0)
      let json = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(doc.utf8)) as? [String: Any])
      let root = try XCTUnwrap(json["root"] as? [String: Any])
      let scroll = try XCTUnwrap(root["scroll"] as? Double), pitch = try XCTUnwrap(root["pitch"] as? Double)
      XCTAssertEqual(scroll, expected, "\(size)")
      XCTAssertEqual(scroll / pitch, (scroll / pitch).rounded(), accuracy: 1e-9, "\(size)")
      XCTAssertEqual(try Lint(session: s).run().map(\.message).filter { $0.contains("rests between") }, [], "\(size)")
    }
  }

  /// Item 10's lint: a carousel at rest between two items (the former still put back) is a
  /// finding; on an item it is not.
  func testLintSeesAScrollAtRestBetweenItems() {
    XCTAssertEqual(Lint.scrollBetweenItems(name: "carousel 'carousel'", scroll: 888, pitch: 240),
                   "carousel 'carousel' rests between items 4 and 5 (scrolled 888 px, items 240 px apart)")
    XCTAssertNil(Lint.scrollBetweenItems(name: "carousel 'carousel'", scroll: 960, pitch: 240))
  }

  /// Item 8: a stacked area whose line changes sign between two points drew its band
  /// straight from the positive side to the negative one, a diagonal streak across the line
  /// under it. Now it narrows to 0 where its value crosses 0 and grows on the other side:
  /// three quarters of the way, value 5 is the first line's colour, not the second's.
  func testStackedAreasThatChangeSignDrawNoStreak() throws {
    let s = try session("""
      local day = 86400000
      local x = { 1546300800000, 1546300800000 + day, 1546300800000 + 2 * day }
      local set = cs.data.series { x = x, lines = {
        { id = "a", name = "A", color = "#3DC23F", values = { 20, 20, 20 } },
        { id = "b", name = "B", color = "#3896E3", values = { 10, -10, -10 } } } }
      return cs.scene { width = 400, height = 300, theme = "day",
        root = cs.chart { id = "c", data = set, type = "area", stacked = true, minimap = false, legend = false, indicator = false } }
      """)
    let node = try XCTUnwrap(s.scene.node(id: "c"))
    let img = try CairoPainter(text: s.text).raster(try s.displayList(at: 0), scale: 1)
    let spec = try XCTUnwrap(node.chart)
    let g = ChartGeometry(spec: spec, card: false, frame: node.contentFrame, measurer: s.text, presentation: s.scene.presentation, key: ChartKey(node.identity), t: 0)
    let x = Int(g.x(1546300800000 + 0.75 * 86400000)), y = Int(g.y(5))
    let p = img.rgba(x: x, y: y)
    XCTAssertLessThan(abs(Int(p.r) - 0x3D) + abs(Int(p.g) - 0xC2) + abs(Int(p.b) - 0x3F), 30, "(\(x), \(y)) is \(p), not the first line's green")
    // And the second line is there, below 0: value -4 at the same time is its blue.
    let q = img.rgba(x: x, y: Int(g.y(-4)))
    XCTAssertLessThan(abs(Int(q.r) - 0x38) + abs(Int(q.g) - 0x96) + abs(Int(q.b) - 0xE3), 30, "\(q)")
  }

  /// Item 9: stacked bars drew a column missing a value whole (the total dipped, nothing
  /// marked it) and the poster's "All" summed the values present. A column with a gap is
  /// drawn faded and the total there reads "–"; a whole column is drawn as before.
  func testStackedBarsMarkAGap() throws {
    let data = Self.repo.appendingPathComponent("Tests/Fixtures/telegram/stress/gapbars.json").path
    func chart(_ at: Int) throws -> (Session, ChartPoster?) {
      let s = try session("""
        local s = cs.data.telegram("\(data)")[1]
        return cs.scene { width = 400, height = 440, theme = "day",
          root = cs.chart { id = "c", data = s, indicatorAt = \(Double(at) / 40) } }
        """)
      let node = try XCTUnwrap(s.scene.node(id: "c"))
      let spec = try XCTUnwrap(node.chart)
      _ = try s.displayList(at: 0)
      let parts = ChartParts.make(spec: spec, card: false, frame: node.contentFrame, measurer: s.text, window: s.scene.presentation.window(spec.data, at: 0))
      let snap = ChartSnapshot(spec: spec, plot: parts.plot, presentation: s.scene.presentation, key: ChartKey(node.identity), t: 0)
      return (s, ChartPoster.make(spec: spec, parts: parts, snap: snap, measurer: s.text))
    }
    // Point 16: line a has no value.
    let (s, gap) = try chart(16)
    let all = try XCTUnwrap(gap?.rows.last)
    XCTAssertEqual(all.name, "All")
    XCTAssertEqual(all.value, "–")
    XCTAssertEqual(try chart(5).1?.rows.last?.value.contains("–"), false)
    // The column is drawn faded: its fills at the partial opacity.
    let list = try s.displayList(at: 0)
    var alphas = Set<Double>()
    func walk(_ items: [DisplayItem]) {
      for item in items {
        if case .path(_, .fill(let c)) = item { alphas.insert((c.a * 100).rounded() / 100) }
        if case .cached(_, _, let inner) = item { walk(inner) }
      }
    }
    walk(list.items)
    XCTAssertTrue(alphas.contains(0.4), "no faded column: \(alphas.sorted())")
    XCTAssertEqual(try Lint(session: s).run().map(\.message).filter { $0.contains("gap counted as 0") }, [])
  }

  /// Item 9's lint: a total that counts a gap as 0 (the former "All" put back) is a finding.
  func testLintSeesAGapCountedAsZero() throws {
    let data = Self.repo.appendingPathComponent("Tests/Fixtures/telegram/stress/gapbars.json").path
    let s = try session("""
      local s = cs.data.telegram("\(data)")[1]
      return cs.scene { width = 400, height = 440, root = cs.chart { id = "c", data = s, indicatorAt = 0.4 } }
      """)
    let set = try XCTUnwrap(s.scene.node(id: "c")?.chart).data
    let row = { (v: String) in ChartPoster.Row(name: "All", value: v, color: Color(r: 0, g: 0, b: 0, a: 0), percent: nil) }
    var poster = ChartPoster(box: Rect(0, 0, 100, 80), date: "Jan 17", rows: [row("1,234")], dateHeight: 16, percentWidth: 0)
    XCTAssertEqual(Lint.totalOverGap(name: "chart 'c'", poster: poster, set: set, index: 16),
                   "chart 'c': the poster's total reads '1,234' though '\(set.lines[0].name)' has no value there (a gap counted as 0)")
    XCTAssertNil(Lint.totalOverGap(name: "chart 'c'", poster: poster, set: set, index: 5))
    poster.rows = [row("–")]
    XCTAssertNil(Lint.totalOverGap(name: "chart 'c'", poster: poster, set: set, index: 16))
  }

  /// The low item's lint: a time axis whose times all lie within a day of 1970-01-01 (years
  /// read as UNIX seconds, the defect of item 1 put back) is a finding; 2019's days are not.
  func testLintSeesATimeAxisThatReads1970() throws {
    let s = try session("""
      local years = { 1749, 1800, 1850, 1900, 1950, 2000, 2023 }
      local x = {}
      for k, y in ipairs(years) do x[k] = y * 1000 end
      return cs.scene { width = 400, height = 300,
        root = cs.chart { id = "c", data = cs.data.series { x = x, lines = { { id = "n", name = "Sunspots", values = { 80, 40, 60, 10, 90, 120, 70 } } } } } }
      """)
    XCTAssertEqual(try Lint(session: s).run().map(\.message).filter { $0.contains("1970") },
                   ["chart 'c': its time axis reads 1970 (every time lies within a day of 1970-01-01: numbers read as UNIX time?)"])
    XCTAssertEqual(try Lint(session: try session(Self.yearly)).run().map(\.message).filter { $0.contains("1970") }, [])
  }
}
