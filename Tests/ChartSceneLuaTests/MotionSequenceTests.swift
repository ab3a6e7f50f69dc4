import ChartSceneHost
import Drawing
import Foundation
import Gestures
import LuaKit
import SceneGraph
import XCTest

/// Frame-sequence tests of the motion rules (docs/motion.md, "Motion without pops"): a scene
/// is simulated tick by tick in-process and every frame's drawn geometry is compared with
/// the one before: nothing jumps, nothing appears or vanishes in one frame, a thrown view
/// keeps its speed when the hand lets go, a spring overshoots an end softly.
final class MotionSequenceTests: XCTestCase {
  let dir = ScriptFolder()

  /// A node as drawn at one frame.
  struct Shot {
    var rect: Rect
    var opacity: Double
    var visible: Bool
    /// Some of it is inside the list or carousel that clips it (true when none does).
    var inView: Bool
    var shown: Double { visible ? opacity : 0 }
  }

  /// Every node as drawn at time t (after layout's offsets and scales, not 3D turns).
  func shots(_ s: Session, at t: Double) throws -> [String: Shot] {
    try s.advance(to: t)
    var out: [String: Shot] = [:]
    func drawn(_ r: Rect, _ path: [Node]) -> Rect {
      var r = r
      for m in path.reversed() {  // innermost first
        let k = m.style.scale * m.placement.scale, c = m.frame.center
        let off = Point(m.style.offset.x + m.placement.offset.x, m.style.offset.y + m.placement.offset.y)
        r = Rect((r.x - c.x) * k + c.x + off.x, (r.y - c.y) * k + c.y + off.y, r.width * k, r.height * k)
      }
      return r
    }
    func visit(_ n: Node, _ path: [Node], visible: Bool, opacity: Double, clip: Rect?) {
      let path = path + [n]
      let r = drawn(n.frame, path)
      let vis = visible && n.placement.visible
      let op = opacity * n.style.opacity * n.placement.opacity
      out[n.id] = Shot(rect: r, opacity: op, visible: vis, inView: clip.map { $0.intersects(r) } ?? true)
      var inner = clip
      switch n.kind {
      case .view(let spec) where spec.clips: inner = drawn(n.contentFrame, path)
      default: break
      }
      for c in n.children { visit(c, path, visible: vis, opacity: op, clip: inner) }
    }
    visit(s.scene.root, [], visible: true, opacity: 1, clip: nil)
    return out
  }

  /// The frames of [t0, t1] at the scene's fps.
  func film(_ s: Session, from t0: Double, to t1: Double) throws -> [(t: Double, shots: [String: Shot])] {
    let fps = s.scene.fps
    var out: [(Double, [String: Shot])] = []
    var k = Int((t0 * fps).rounded(.up))
    while Double(k) / fps <= t1 + 1e-9 {
      let t = Double(k) / fps
      out.append((t, try shots(s, at: t)))
      k += 1
    }
    return out
  }

  /// The largest move of any edge of `a` to `b`, as a fraction of the larger side.
  func jump(_ a: Rect, _ b: Rect) -> Double {
    let d = [abs(a.minX - b.minX), abs(a.maxX - b.maxX), abs(a.minY - b.minY), abs(a.maxY - b.maxY)].max()!
    return d / max(1, a.width, a.height, b.width, b.height)
  }

  /// Fails when a node drawn in two consecutive frames moves an edge by more than `limit`
  /// of its size or changes size by more than `resize`, or when its opacity changes by more
  /// than `fade` (appearing or vanishing counts as a change to or from 0). Nodes outside
  /// the list or carousel that clips them are not seen and not checked.
  func assertNoPops(_ frames: [(t: Double, shots: [String: Shot])], limit: Double = 0.25, resize: Double = 0.05, fade: Double = 0.34,
                    only ids: Set<String>? = nil, file: StaticString = #filePath, line: UInt = #line) {
    for (a, b) in zip(frames, frames.dropFirst()) {
      for (id, s1) in b.shots where ids?.contains(id) ?? true {
        guard let s0 = a.shots[id], s0.inView, s1.inView else { continue }
        XCTAssertLessThanOrEqual(abs(s1.shown - s0.shown), fade, "'\(id)' pops from opacity \(s0.shown) to \(s1.shown) at t=\(b.t)", file: file, line: line)
        guard s0.visible, s1.visible, s0.opacity > 0.01, s1.opacity > 0.01 else { continue }
        let j = jump(s0.rect, s1.rect)
        XCTAssertLessThanOrEqual(j, limit, "'\(id)' jumps \(Int(j * 100))% of its size at t=\(b.t): \(s0.rect) → \(s1.rect)", file: file, line: line)
        let grow = abs(s1.rect.width - s0.rect.width) / max(1, s0.rect.width)
        XCTAssertLessThanOrEqual(grow, resize, "'\(id)' changes size by \(Int(grow * 100))% at t=\(b.t): \(s0.rect) → \(s1.rect)", file: file, line: line)
      }
    }
  }

  func deck(_ cards: Int, _ events: String) -> String {
    let list = (0..<cards).map { "cs.card { id = 'k\($0)', data = sets[\($0 % 5 + 1)] }" }.joined(separator: ", ")
    return """
      local sets = cs.data.sample()
      return cs.scene { width = 500, height = 700, fps = 30, duration = 6,
        root = cs.cards { id = "deck", padding = 20, \(list) },
        timeline = { \(events) } }
      """
  }

  // MARK: - Cards

  func testACardSentBackSlidesBehindWithoutAPop() throws {
    for flick in [false, true] {
      let events = "cs.drag { at = 0.2, target = 'deck', by = {0, 400}, hold = 0.6, duration = 0.5, flick = \(flick) },"
        + "cs.drag { at = 2.5, target = 'deck', by = {0, 400}, hold = 0.6, duration = 0.5, flick = \(flick) }"
      let s = try dir.session(deck(3, events))
      let frames = try film(s, from: 0, to: 4.5)
      XCTAssertEqual(shownOrder(s.scene, "deck"), ["k2", "k0", "k1"])
      // Three cards: every one is drawn, fully, in every frame.
      for f in frames {
        for id in ["k0", "k1", "k2"] {
          XCTAssertEqual(f.shots[id]?.shown ?? 0, 1, accuracy: 1e-9, "'\(id)' is not drawn at t=\(f.t) (flick \(flick))")
        }
      }
      // Nothing moves more than a quarter of a card's height in a frame (the hand moves
      // the top card up to 9%: 400 px in 0.5 s; the sent card flies back over 0.45 s) or
      // changes size by more than 5% (the first send-back used to shrink it 12% at once).
      assertNoPops(frames, only: ["k0", "k1", "k2"])
      // The sent card passes behind: it ends deeper than the others, drawn smaller.
      let last = try XCTUnwrap(frames.last?.shots)
      XCTAssertLessThan(last["k1"]!.rect.width, last["k2"]!.rect.width)
    }
  }

  func testASentCardDissolvesBehindTheFrontCard() throws {
    for cards in [2, 3, 5] {
      let s = try dir.session(deck(cards, "cs.drag { at = 0.2, target = 'deck', by = {0, 400}, hold = 0.6, duration = 0.5 }"))
      // How much of the sent card shows where it overlaps the front card: all of it while
      // it is in front, then what is drawn over it as it passes behind.
      var cover: [Double] = []
      for k in 0...90 {
        let t = Double(k) / 30
        try s.advance(to: t)
        let sent = try XCTUnwrap(s.scene.node(id: "k0")), others = s.scene.node(id: "deck")!.children.filter { $0 !== sent }
        let front = others.map(\.placement.depth).min()!
        cover.append(sent.placement.depth <= front ? 1 : sent.placement.passing)
      }
      XCTAssertEqual(cover.first, 1)
      XCTAssertEqual(cover.last, 0, "\(cards) cards: \(cover)")
      for (a, b) in zip(cover, cover.dropFirst()) { XCTAssertLessThanOrEqual(abs(b - a), 0.5, "\(cards) cards: swaps places at once: \(cover)") }
      XCTAssertGreaterThanOrEqual(cover.filter { $0 > 0.02 && $0 < 0.98 }.count, 2, "\(cards) cards: \(cover)")
    }
  }

  func testTheDeepestCardFadesInsteadOfVanishing() throws {
    let s = try dir.session(deck(6, "cs.drag { at = 0.2, target = 'deck', by = {0, 400}, hold = 0.6, duration = 0.5 }"))
    let frames = try film(s, from: 0, to: 3)
    // At rest four cards are drawn; the fifth and sixth are not.
    XCTAssertEqual(frames[0].shots["k3"]?.shown, 1)
    XCTAssertEqual(frames[0].shots["k4"]?.shown, 0)
    assertNoPops(frames, fade: 0.25, only: Set((0..<6).map { "k\($0)" }))
    // The card sent back fades out over several frames as it goes deeper than the fourth
    // (never more than a quarter of its opacity per frame, never coming back) ...
    let sent = frames.map { $0.shots["k0"]!.shown }
    let fading = sent.filter { $0 > 0.02 && $0 < 0.98 }
    XCTAssertGreaterThanOrEqual(fading.count, 4, "k0 opacity: \(sent)")
    for (a, b) in zip(sent, sent.dropFirst()) { XCTAssertLessThanOrEqual(b, a + 1e-9, "k0 comes back: \(sent)") }
    XCTAssertEqual(sent.last, 0)
    // ... while the fifth card fades in as it comes up to fourth.
    let coming = frames.map { $0.shots["k4"]!.shown }
    XCTAssertGreaterThanOrEqual(coming.filter { $0 > 0.02 && $0 < 0.98 }.count, 4, "k4 opacity: \(coming)")
    XCTAssertEqual(coming.last, 1)
  }

  // MARK: - Release velocity

  /// The y (or x) of a node's drawn rect per frame, and the index of the frame in which the
  /// hand let go.
  func track(_ frames: [(t: Double, shots: [String: Shot])], _ id: String, horizontal: Bool = false) -> [Double] {
    frames.map { horizontal ? $0.shots[id]!.rect.midX : $0.shots[id]!.rect.midY }
  }

  func steps(_ xs: [Double]) -> [Double] { zip(xs, xs.dropFirst()).map { $1 - $0 } }

  /// Checks that the first frame after the hand lets go (in frame `release`) moves about as
  /// far, and the same way, as the last frame before it: no freeze, no restart from rest.
  func assertCarriesOn(_ d: [Double], release: Int, _ what: String, file: StaticString = #filePath, line: UInt = #line) {
    let before = d[release - 1], after = d[release]
    XCTAssertGreaterThan(abs(before), 3, "\(what): the hand was not moving: \(d)", file: file, line: line)
    XCTAssertEqual(after / before, 1, accuracy: 0.35, "\(what): last step by hand \(before), first after release \(after): \(d)", file: file, line: line)
  }

  func testAListFlickCarriesTheHandsSpeed() throws {
    let s = try dir.session("""
      local sets = cs.data.sample()
      local rows = {}
      for i = 1, 6 do rows[i] = cs.chart { id = "r" .. i, data = sets[(i - 1) % 5 + 1] } end
      rows.id = "l"; rows.rowHeight = 300
      return cs.scene { width = 400, height = 600, fps = 30, duration = 4, root = cs.list(rows),
        timeline = { cs.drag { at = 0.2, pos = {200, 100}, by = {0, -240}, duration = 0.3, flick = true } } }
      """)
    let frames = try film(s, from: 0, to: 3)
    let y = track(frames, "r1")
    let d = steps(y)
    // The hand moves from t = 0.2 to 0.5 (frames 6...15) and lets go in frame 15; d[k] is
    // the move into frame k + 1.
    assertCarriesOn(d, release: 15, "list flick")
    // Then it glides on, slowing down every frame, and stops.
    let glide = Array(d[15...])
    for (a, b) in zip(glide, glide.dropFirst()) { XCTAssertLessThanOrEqual(abs(b), abs(a) + 1e-6, "the glide speeds up: \(glide)") }
    XCTAssertEqual(d.last ?? 1, 0, accuracy: 1e-6)
    XCTAssertLessThan(y.last!, y[15] - 40, "no glide: \(y)")
    // The flick started on a chart's plot: the list took it, the chart's indicator did not
    // move first.
    for i in 1...6 { XCTAssertNil(s.scene.node(id: "r\(i)")?.chart?.indicatorAt, "r\(i)") }
  }

  func testATouchCatchesAGlidingList() throws {
    let s = try dir.session("""
      local sets = cs.data.sample()
      local rows = {}
      for i = 1, 6 do rows[i] = cs.chart { id = "r" .. i, data = sets[(i - 1) % 5 + 1] } end
      rows.id = "l"; rows.rowHeight = 300
      return cs.scene { width = 400, height = 600, fps = 30, duration = 4, root = cs.list(rows),
        timeline = { cs.drag { at = 0.2, pos = {200, 100}, by = {0, -240}, duration = 0.3, flick = true },
                     cs.longpress { at = 0.7, pos = {200, 450}, duration = 0.6 } } }
      """)
    let frames = try film(s, from: 0, to: 2)
    let y = track(frames, "r1")
    // Gliding when the finger comes down at 0.7 s (frame 21), still from then on.
    XCTAssertGreaterThan(abs(y[21] - y[20]), 2, "\(y)")
    for k in 22..<y.count { XCTAssertEqual(y[k], y[21], accuracy: 1e-9, "frame \(k): \(y)") }
    let scroll = try XCTUnwrap(shownScroll(s.scene, "l"))
    XCTAssertEqual(scroll, 150 - y[21], accuracy: 1e-6, "the model holds where it stopped")  // r1 is 300 high, at the top
  }

  func testAHandThatStopsThrowsNothing() throws {
    // The default drag slows to a stop before letting go: the list stops with it instead
    // of gliding on at a speed it never had.
    let s = try dir.session("""
      local sets = cs.data.sample()
      local rows = {}
      for i = 1, 6 do rows[i] = cs.chart { id = "r" .. i, data = sets[(i - 1) % 5 + 1] } end
      rows.id = "l"; rows.rowHeight = 300
      return cs.scene { width = 400, height = 600, fps = 30, duration = 4, root = cs.list(rows),
        timeline = { cs.drag { at = 0.2, target = 'l', by = {0, -240}, duration = 0.3 } } }
      """)
    let frames = try film(s, from: 0, to: 3)
    let d = steps(track(frames, "r1"))
    let handLast = d[14]
    for step in d[15...] { XCTAssertLessThanOrEqual(abs(step), abs(handLast) + 1e-6, "moves faster than the hand did: \(d)") }
  }

  func testACarouselSnapStartsAtTheHandsSpeed() throws {
    let s = try dir.session("""
      local sets = cs.data.sample()
      return cs.scene { width = 900, height = 400, fps = 30, duration = 4,
        root = cs.carousel { id = "k", itemWidth = 300, spacing = 20,
          cs.chart { id = "a", data = sets[1] }, cs.chart { id = "b", data = sets[2] }, cs.chart { id = "c", data = sets[3] }, cs.chart { id = "d", data = sets[4] } },
        timeline = { cs.drag { at = 0.2, target = 'k', by = {-200, 0}, duration = 0.3, flick = true } } }
      """)
    let frames = try film(s, from: 0, to: 3)
    let x = track(frames, "a", horizontal: true)
    let d = steps(x)
    assertCarriesOn(d, release: 15, "carousel snap")
    assertNoPops(frames)
    // It comes to rest with an item at the centre.
    let scroll = try XCTUnwrap(shownScroll(s.scene, "k"))
    XCTAssertEqual(scroll.truncatingRemainder(dividingBy: 320), 0, accuracy: 1e-6)
    XCTAssertEqual(x.last!, 450 - scroll, accuracy: 0.5)
  }

  func testASpringBackStartsAtTheHandsSpeed() throws {
    let s = try dir.session(deck(3, "cs.drag { at = 0.2, target = 'deck', by = {0, 100}, hold = 0.6, duration = 0.3, flick = true }"))
    var frames = try film(s, from: 0, to: 1.1)
    // Held from 0.2 to 0.8, moved from 0.8 to 1.1 (frames 25...33), let go in frame 33: the
    // card leaves the hand at the hand's speed (100 px in 0.3 s) ...
    let speed = s.scene.presentation.stateVelocity(Presentation.StateKey(view: 1, path: ["drag", "k0"]), at: 1.1)
    XCTAssertEqual(speed, 100 / 0.3, accuracy: 100 / 0.3 * 0.1)
    frames += try film(s, from: 1.12, to: 3)
    let d = steps(track(frames, "k0"))
    // ... and moves in the first frame after (no frame standing still), then springs back
    // (the spring pulls hardest at the release point, so it turns within that frame).
    XCTAssertGreaterThan(abs(d[33]), abs(d[32]) * 0.3, "frozen at release: \(d)")
    XCTAssertEqual(frames.last!.shots["k0"]!.rect.minY, frames[0].shots["k0"]!.rect.minY, accuracy: 0.01)
    assertNoPops(frames)
  }

  func testFlickIsABoolean() {
    let script = """
      local s = cs.data.sample()[1]
      return cs.scene { width = 400, height = 300, fps = 30, duration = 1, root = cs.chart { id = "c", data = s },
        timeline = { cs.drag { at = 0.1, target = "c.plot", by = {10, 0}, flick = 3 } } }
      """
    XCTAssertEqual(dir.error(script), "s.lua:3: bad field 'flick' in cs.drag (boolean expected, got number)")
    XCTAssertEqual(dir.error(script.replacingOccurrences(of: "flick = 3", with: "flik = true")), "s.lua:3: unknown key 'flik' in cs.drag (did you mean 'flick'?)")
  }

  // MARK: - Springs at limits

  func testASpringOvershootsAnEndSoftly() throws {
    let s = try dir.session("""
      local set = cs.data.sample()[5]
      set:setRange(0.7, 0.86)
      return cs.scene { width = 960, height = 600, fps = 30, duration = 4,
        root = cs.chart { id = "c", data = set },
        timeline = { cs.call { at = 0.5, fn = function()
          cs.animate({ duration = 1.5, curve = "spring" }, function() set:setRange(0, 1) end) end } } }
      """)
    let set = try XCTUnwrap(s.scene.node(id: "c")?.chart?.data)
    var lo: [Double] = []
    for k in 0...75 {
      let t = Double(k) / 30
      try s.advance(to: t)
      lo.append(s.scene.presentation.window(set, at: t).lo)
    }
    // The window swings a little past the start of the data and comes back ...
    let least = lo.min()!
    XCTAssertLessThan(least, -0.001, "no overshoot: \(lo)")
    XCTAssertGreaterThan(least, -0.025, "overshoots too far: \(least)")
    XCTAssertEqual(lo.last!, 0, accuracy: 1e-9)
    // ... without resting against the end: no two frames in a row at exactly 0 before it
    // settles (a wall stops it dead for several frames).
    let settle = lo.lastIndex { $0 != 0 }!
    for k in 1..<settle { XCTAssertFalse(lo[k] == 0 && lo[k - 1] == 0, "stuck at the end at frame \(k): \(lo)") }
  }

  // MARK: - Examples

  /// The examples' gestures, frame by frame: nothing jumps or pops.
  func testExamplesMoveWithoutPops() throws {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    for name in ["cards", "carousel", "list", "tabs"] {
      let s = try Session(scriptPath: root.appendingPathComponent("examples/\(name).lua").path, quiet: true)
      let frames = try film(s, from: 0, to: s.scene.duration)
      // Tabs switch in one frame by design (the new tab fades in): only geometry counts there.
      assertNoPops(frames, fade: name == "tabs" ? 1 : 0.34)
    }
  }
}

/// A live drag let go while moving is recorded as a flick, so its replay glides on too.
final class RecorderFlickTests: XCTestCase {
  func recorded(_ points: [(Double, Double)], upAfter: Double) -> String {
    let r = Recorder()
    let dt = 1.0 / 30
    r.record(PointerEvent(.down, Point(100, 100), at: 0), name: { _ in "l" })
    for (k, p) in points.enumerated() { r.record(PointerEvent(.move, Point(p.0, p.1), at: Double(k + 1) * dt), name: { _ in "l" }) }
    r.record(PointerEvent(.up, Point(points.last!.0, points.last!.1), at: Double(points.count) * dt + upAfter), name: { _ in "l" })
    return r.luaSource(script: "s.lua")
  }

  /// Issue 19, item 15: ids come from the script and are written as Lua string literals, so a
  /// quote, a backslash, a newline or a control character cannot end the string and add code.
  func testIdsAreEscapedInTheTimelineFile() throws {
    let hostile = "a\"}, os.exit(1) --\n\\x\u{1}2]]é"
    let r = Recorder()
    r.record(PointerEvent(.down, Point(10, 10), at: 0), name: { _ in hostile })
    r.record(PointerEvent(.up, Point(10, 10), at: 0.05), name: { _ in hostile })
    let source = r.luaSource(script: "evil\nos.exit(1).lua")
    // Run as Lua, with cs.tap returning its table: the target comes back byte for byte.
    let bytes = hostile.utf8.map(String.init).joined(separator: ", ")
    let check = "local cs = { tap = function(t) return t end, longpress = function(t) return t end }\n"
      + "local events = (function() \(source) end)()\n"
      + "assert(#events == 1 and events[1].target == string.char(\(bytes)), events[1] and events[1].target)\n"
    let lua = LuaState()
    try lua.load(Array(check.utf8), chunkName: "=check")
    try lua.pcall(nargs: 0, nresults: 0)
    XCTAssertEqual(source.split(separator: "\n").filter { $0.hasPrefix("--") }.count, 2, source)
  }

  /// Issue 36: a drag let go while moving is written with the speed the recogniser reported
  /// (`velocity`, replayed exactly), not as a flick at the drag's average speed.
  func testADragLetGoWhileMovingIsAFlick() {
    let moving = (1...8).map { (100.0, 100.0 - Double($0) * 25) }  // 750 px/s to the end
    XCTAssertTrue(recorded(moving, upAfter: 0).contains("velocity = {0, -750}"), recorded(moving, upAfter: 0))
    // The same drag held still for a moment before letting go throws nothing.
    XCTAssertFalse(recorded(moving, upAfter: 0.2).contains("velocity"))
    // A slow one lets go at its own slow speed.
    let slow = (1...8).map { (100.0, 100.0 - Double($0) * 5) }  // 150 px/s
    XCTAssertTrue(recorded(slow, upAfter: 0).contains("velocity = {0, -150}"), recorded(slow, upAfter: 0))
  }
}

/// The scroll offset a list or carousel (now `cs.view`s written in Lua) shows in `--inspect`.
func shownScroll(_ scene: Scene, _ id: String) -> Double? {
  guard case .view(let spec)? = scene.node(id: id)?.kind else { return nil }
  for (k, v) in spec.inspect?(scene.presentation.now) ?? [] where k == "scroll" { if case .number(let d) = v { return d } }
  return nil
}

/// A deck's order (front to back) as `--inspect` shows it.
func shownOrder(_ scene: Scene, _ id: String) -> [String]? {
  guard case .view(let spec)? = scene.node(id: id)?.kind else { return nil }
  for (k, v) in spec.inspect?(scene.presentation.now) ?? [] where k == "order" {
    if case .array(let items) = v { return items.compactMap { if case .string(let s) = $0 { return s }; return nil } }
  }
  return nil
}
