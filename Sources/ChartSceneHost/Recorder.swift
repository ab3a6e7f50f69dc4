import Drawing
import Gestures
import SceneGraph

/// Writes down what a live user did as timeline events (`cs.tap`, `cs.longpress`, `cs.drag`
/// with `hold`, `cs.scroll`), with targets resolved to node ids and chart parts where the
/// position within the target does not matter, so the session can be replayed headless
/// with `--timeline`.
public final class Recorder {
  struct Press {
    var t0: Double
    var p0: Point
    var target: String?
    var moveStart: Double?
    /// The samples the recogniser measures the release speed on (the same numbers).
    var tracker = VelocityTracker()
  }
  struct Wheel {
    var t0: Double
    var t1: Double
    var at: Point
    var target: String?
    var by: Point
  }

  var press: Press?
  var wheel: Wheel?
  public private(set) var lines: [String] = []
  let slop = 10.0

  public init() {}

  /// Feeds one pointer event (at its tick time); `name` resolves what is under a point.
  public func record(_ e: PointerEvent, name: (Point) -> String?) {
    switch e.phase {
    case .down:
      flushWheel()
      var p = Press(t0: e.time, p0: e.location, target: name(e.location), moveStart: nil)
      p.tracker.reset(e)
      press = p
    case .move:
      guard var p = press else { return }
      if p.moveStart == nil, distance(p.p0, e.location) > slop { p.moveStart = e.time }
      p.tracker.add(e)
      press = p
    case .up:
      guard let p = press else { return }
      press = nil
      let duration = max(0, e.time - p.t0)
      if let m = p.moveStart {
        let hold = m - p.t0
        let by = Point(e.location.x - p.p0.x, e.location.y - p.p0.y)
        var f = ["at = \(n(p.t0))", place(p, key: "from"), "by = {\(n(by.x)), \(n(by.y))}", "duration = \(n(max(0.01, e.time - m)))"]
        if hold >= 0.05 { f.append("hold = \(n(hold))") }
        // Let go while moving: the speed the recogniser reported at `ended` (the same
        // samples), so a replay or a reload throws exactly as the hand did.
        let v = p.tracker.release(e)
        if v != .zero { f.append("velocity = {\(n(v.x)), \(n(v.y))}") }
        lines.append("cs.drag { " + f.joined(separator: ", ") + " },")
      } else if duration >= 0.5 {
        lines.append("cs.longpress { at = \(n(p.t0)), \(place(p, key: "pos")), duration = \(n(duration)) },")
      } else {
        lines.append("cs.tap { at = \(n(p.t0)), \(place(p, key: "pos")) },")
      }
    case .scroll(let dx, let dy):
      if var w = wheel, e.time - w.t1 < 0.25 {
        w.by = Point(w.by.x + dx, w.by.y + dy)
        w.t1 = e.time
        wheel = w
      } else {
        flushWheel()
        wheel = Wheel(t0: e.time, t1: e.time, at: e.location, target: name(e.location), by: Point(dx, dy))
      }
    }
  }

  /// Where a press happened: its target, unless the exact point matters (the plot, where it
  /// places the indicator, or nothing in particular).
  func place(_ p: Press, key: String) -> String {
    if let t = p.target, !t.hasSuffix(".plot") { return "target = \(Preset.quote(t))" }
    return "\(key) = {\(n(p.p0.x)), \(n(p.p0.y))}"
  }

  func flushWheel() {
    guard let w = wheel else { return }
    wheel = nil
    let placeText = w.target.map { "target = \(Preset.quote($0))" } ?? "pos = {\(n(w.at.x)), \(n(w.at.y))}"
    lines.append("cs.scroll { at = \(n(w.t0)), \(placeText), by = {\(n(w.by.x)), \(n(w.by.y))}, duration = \(n(max(0.02, w.t1 - w.t0))) },")
  }

  /// The recording as a Lua chunk that returns the timeline. It says that its events play
  /// with the script's own timeline (`merge = true`: the live session ran both), and, given
  /// the session's `length` (seconds), that the replay runs at least that long (`duration`),
  /// so what happened after the scene's own end is replayed too.
  public func luaSource(script: String, length: Double? = nil) -> String {
    flushWheel()
    // (The script's name goes into comments: escaped, a name with a newline cannot add code.)
    let name = OneLine.escape(script)
    var out = "-- Gestures recorded by chartscene --live from \(name).\n"
    out += "-- Replay them headless: chartscene \(name) --timeline THIS_FILE -o out.mp4\n"
    out += "return {\n"
    out += "  merge = true, -- played with the script's own timeline, not instead of it\n"
    if let length, length > 0 { out += "  duration = \(n(length)), -- the session's length (s): the replay lasts at least as long\n" }
    for l in lines { out += "  " + l + "\n" }
    return out + "}\n"
  }

  func distance(_ a: Point, _ b: Point) -> Double { ((a.x - b.x) * (a.x - b.x) + (a.y - b.y) * (a.y - b.y)).squareRoot() }

  func n(_ v: Double) -> String {
    let r = (v * 1000).rounded() / 1000
    return r == r.rounded() && abs(r) < 1e12 ? String(Int64(r)) : String(r)
  }
}
