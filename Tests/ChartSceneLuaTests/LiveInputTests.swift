import ChartSceneHost
import Foundation
import Gestures
import XCTest

/// The live loop's shared input (`LiveInput`: what `--live` and the studio feed pointer events
/// through), driven as SDL delivers a hand: events every 8 ms stamped with the device's
/// clock, handed over in bursts at the loop's ticks, the button let go a few ms after the
/// last move. The release reports the hand's speed, the recording writes that speed down,
/// and a reload (the recording replayed on the script run again) ends on the same page.
final class LiveInputTests: XCTestCase {
  let dir = ScriptFolder()

  /// The paging feed of Tests/Fixtures/feed.lua (pages 400 px tall; at the release the
  /// page is the one the offset would reach at the release speed in 0.3 s; `page` and `vy`,
  /// the speed `ended` reported, in its --inspect fields), lasting 4 s.
  let feed = ((try? String(contentsOf: URL(fileURLWithPath: "\(#filePath)").deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Fixtures/feed.lua"), encoding: .utf8)) ?? "error('Tests/Fixtures/feed.lua is missing')")
    .replacingOccurrences(of: "fps = 30, root", with: "fps = 30, duration = 4, root")

  struct HandEvent { var wall: Double; var phase: PointerEvent.Phase; var x: Double; var y: Double }

  /// A hand that presses at `t0` (s), moves up for `moving` s with a sample every 8 ms (a
  /// 125 Hz mouse) along `y(t)` (px moved up after t s), and lets go `release` s after its
  /// last move, where that move was.
  func throwUp(from y0: Double, at t0: Double, moving: Double, release: Double, _ y: (Double) -> Double) -> [HandEvent] {
    var out = [HandEvent(wall: t0, phase: .down, x: 180, y: y0)]
    var t = 0.008
    while t <= moving + 1e-9 {
      out.append(HandEvent(wall: t0 + t, phase: .move, x: 180, y: y0 - y(t)))
      t += 0.008
    }
    let last = out.last!
    out.append(HandEvent(wall: last.wall + release, phase: .up, x: 180, y: last.y))
    return out
  }

  /// Runs the live loop's ticks on `session` up to `until` (s of wall time, one tick per
  /// frame as the loop paces them): before each tick the events that happened since the last
  /// one arrive as one burst, each with its own device time (SDL's clock: another origin than
  /// the scene's).
  func drive(_ session: Session, _ input: LiveInput, _ events: [HandEvent], until: Double) throws {
    let sim = session.simulation
    var pending = events[...]
    while sim.clock.time(ofFrame: sim.tick + 1) <= until + 1e-9 {
      let wall = sim.clock.time(ofFrame: sim.tick + 1)
      while let e = pending.first, e.wall <= wall {
        pending.removeFirst()
        input.pointer(e.phase, .init(e.x, e.y), timestamp: 1000 + e.wall, to: sim)
      }
      try input.step(sim)
    }
  }

  func feedFields(_ session: Session, at t: Double) throws -> [String: Any] {
    let doc = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(try session.inspect(at: t).utf8)) as? [String: Any])
    func find(_ n: [String: Any]) -> [String: Any]? {
      if n["id"] as? String == "feed" { return n }
      for c in n["children"] as? [[String: Any]] ?? [] { if let f = find(c) { return f } }
      return nil
    }
    return try XCTUnwrap((doc["root"] as? [String: Any]).flatMap(find), "no feed in \(doc)")
  }

  /// Two hands — one at a steady 900 px/s for 0.1 s, one speeding up to 1200 px/s over 0.15 s
  /// (90 px each) — let go 5 ms after their last move, at four phases against the loop's
  /// ticks. (Stamped with the ticks' times and with the release as a sample, as the loop did
  /// before, `ended` said -807, -678, -310 and -487 px/s for the steady hand.)
  func testAThrowReleasedWhileMovingReportsTheHandsSpeedAndAReloadKeepsThePage() throws {
    let path = dir.write("feed.lua", feed)
    let hands: [(name: String, speed: Double, moving: Double, y: (Double) -> Double)] = [
      ("steady", 900, 0.1, { 900 * $0 }), ("speeding up", 1200, 0.15, { 4000 * $0 * $0 }),
    ]
    for hand in hands {
      for phase in [0.201, 0.21, 0.22, 0.228] {
        let what = "\(hand.name) hand pressing at \(phase) s"
        let live = try Session(scriptPath: path, quiet: true)
        let input = LiveInput()
        try live.simulation.advance(to: 0)
        try drive(live, input, throwUp(from: 300, at: phase, moving: hand.moving, release: 0.005, hand.y), until: 1.5)
        let end = live.simulation.clock.time(ofFrame: live.simulation.tick)
        let shown = try feedFields(live, at: end)
        let vy = try XCTUnwrap(shown["vy"] as? Double, "\(shown)")
        XCTAssertEqual(vy, -hand.speed, accuracy: hand.speed * 0.15, "the speed at ended, \(what)")
        XCTAssertEqual(shown["page"] as? Int, 1, "thrown, 90 px turn one page, \(what)")
        // The recording writes down the speed ended reported.
        let recording = input.recording(script: path, fps: 30)
        let written = try XCTUnwrap(recording.components(separatedBy: "velocity = {").dropFirst().first?.prefix { $0 != "}" }, recording)
        let v = written.split(separator: ",").compactMap { Double($0.trimmingCharacters(in: .whitespaces)) }
        XCTAssertEqual(v.count, 2, recording)
        XCTAssertEqual(v.last ?? 0, vy, accuracy: 0.001, recording)
        // A save reloads: the script runs again with the gestures replayed up to the playhead.
        var o = Session.Overrides()
        o.addedTimeline = recording
        let reloaded = try Session(scriptPath: path, overrides: o, quiet: true)
        let again = try feedFields(reloaded, at: end)
        XCTAssertEqual(again["page"] as? Int, shown["page"] as? Int, "the reload turned the page, \(what): \(recording)")
        XCTAssertEqual(try XCTUnwrap(again["vy"] as? Double), vy, accuracy: 0.001)
        let offset = { (f: [String: Any]) in (f["state"] as? [String: Any])?["offset"] as? Double }
        XCTAssertEqual(try XCTUnwrap(offset(again)), try XCTUnwrap(offset(shown)), accuracy: 0.01)
        // Replayed headless from the file, the same.
        let file = dir.write("rec.lua", recording)
        var r = Session.Overrides()
        r.timeline = file
        let replayed = try feedFields(try Session(scriptPath: path, overrides: r, quiet: true), at: end)
        XCTAssertEqual(replayed["page"] as? Int, shown["page"] as? Int, what)
        XCTAssertEqual(try XCTUnwrap(replayed["vy"] as? Double), vy, accuracy: 0.001)
      }
    }
  }

  /// A hand that stops before it lets go throws nothing, live and replayed.
  func testAHandThatStoppedThrowsNothing() throws {
    let path = dir.write("feed.lua", feed)
    let live = try Session(scriptPath: path, quiet: true)
    let input = LiveInput()
    try live.simulation.advance(to: 0)
    try drive(live, input, throwUp(from: 300, at: 0.21, moving: 0.1, release: 0.12) { 900 * $0 }, until: 1.5)
    let end = live.simulation.clock.time(ofFrame: live.simulation.tick)
    let shown = try feedFields(live, at: end)
    XCTAssertEqual(shown["vy"] as? Double, 0)
    XCTAssertEqual(shown["page"] as? Int, 0, "90 px without a throw stay on the first page")
    XCTAssertFalse(input.recording(script: path, fps: 30).contains("velocity"))
  }
}

/// A live session of a scene with its own timeline that runs past the scene's `duration`:
/// its recording replays (`--timeline`) as it was seen — with the script's own events, and
/// for as long as the session ran.
final class LiveRecordingTests: XCTestCase {
  let dir = ScriptFolder()

  let chart = """
    local s = cs.data.sample()[1]
    s:setRange(0.5, 0.75)
    return cs.scene { width = 600, height = 500, fps = 30, duration = 2,
      root = cs.chart { id = "c", data = s },
      timeline = { cs.tap { at = 0.5, target = "c.legend.y0" } } }
    """

  func root(_ json: String) throws -> String {
    let doc = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
    let root = try XCTUnwrap(doc["root"])
    return String(decoding: try JSONSerialization.data(withJSONObject: root, options: [.sortedKeys]), as: UTF8.self)
  }

  func testARecordingPastTheEndWithTheScriptsOwnTimelineReplaysAsSeen() throws {
    let path = dir.write("chart.lua", chart)
    let live = try Session(scriptPath: path, quiet: true)
    let sim = live.simulation
    let input = LiveInput()
    try input.step(sim)
    let doc = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(try live.inspect(at: 0).utf8)) as? [String: Any])
    let parts = try XCTUnwrap(((doc["root"] as? [String: Any])?["parts"] as? [String: Any])?["minimap.window"] as? [Double], "\(doc)")
    let centre = (parts[0] + parts[2] / 2, parts[1] + parts[3] / 2)
    // The hand drags the mini-map's window 90 px right at 2.4 s, after the scene's end
    // (2 s), and stops before it lets go; the session goes on to 3 s.
    var hand: [(Double, PointerEvent.Phase, Double)] = [(2.4, .down, 0)]
    for k in 1...10 { hand.append((2.4 + Double(k) * 0.02, .move, Double(k) * 9)) }
    hand.append((2.4 + 0.2 + 0.1, .up, 90))
    var pending = hand[...]
    while sim.clock.time(ofFrame: sim.tick + 1) <= 3 + 1e-9 {
      let wall = sim.clock.time(ofFrame: sim.tick + 1)
      while let e = pending.first, e.0 <= wall {
        pending.removeFirst()
        input.pointer(e.1, .init(centre.0 + e.2, centre.1), timestamp: 50 + e.0, to: sim)
      }
      try input.step(sim)
    }
    let end = sim.clock.time(ofFrame: sim.tick)
    let seen = try live.inspect(at: end)
    XCTAssertTrue(seen.contains("\"hidden\": [\"y0\"]"), "the script's own tap ran live")
    let recording = input.recording(script: path, fps: 30)
    XCTAssertTrue(recording.contains("merge = true") && recording.contains("duration = 3.033"), recording)
    XCTAssertTrue(recording.contains("target = \"c.minimap.window\""), recording)
    let file = dir.write("rec.lua", recording)
    var o = Session.Overrides()
    o.timeline = file
    let replay = try Session(scriptPath: path, overrides: o, quiet: true)
    // Every frame shown live is rendered, and the last one is what the window showed.
    XCTAssertGreaterThan(replay.simulation.clock.frameCount, sim.tick)
    XCTAssertEqual(try root(try replay.inspect(at: end)), try root(seen))
    XCTAssertTrue(replay.warnings.isEmpty, "\(replay.warnings)")
  }

  /// Timeline files without the new fields replace the script's timeline, as before; with
  /// `merge = false` too; a bad field is an error naming the file.
  func testOldTimelineFilesStillReplaceTheScriptsTimeline() throws {
    let path = dir.write("chart.lua", chart)
    for (name, text) in [("old.lua", "return { cs.tap { at = 0.2, target = 'c.legend.y1' } }"),
                         ("nomerge.lua", "return { merge = false, duration = 1, cs.tap { at = 0.2, target = 'c.legend.y1' } }")] {
      var o = Session.Overrides()
      o.timeline = dir.write(name, text)
      let s = try Session(scriptPath: path, overrides: o, quiet: true)
      XCTAssertTrue(try s.inspect(at: 1.5).contains("\"hidden\": [\"y1\"]"), name)
      XCTAssertEqual(s.scene.duration, 2, "a shorter duration does not cut the scene")
    }
    var o = Session.Overrides()
    o.timeline = dir.write("bad.lua", "return { merge = true, durations = 3 }")
    XCTAssertThrowsError(try Session(scriptPath: path, overrides: o, quiet: true)) { e in
      XCTAssertTrue("\(e)".contains("bad.lua") && "\(e)".contains("unknown key 'durations' in the timeline file (did you mean 'duration'?)"), "\(e)")
    }
  }
}
