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
    var last: Point
    /// The last movement: where the pointer was before it, and when each happened.
    var lastAt = 0.0
    var before: (Point, Double)?
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
      press = Press(t0: e.time, p0: e.location, target: name(e.location), moveStart: nil, last: e.location, lastAt: e.time)
    case .move:
      guard var p = press else { return }
      if p.moveStart == nil, distance(p.p0, e.location) > slop { p.moveStart = e.time }
      if e.location != p.last {
        if e.time > p.lastAt { p.before = (p.last, p.lastAt) }
        p.last = e.location
        p.lastAt = e.time
      }
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
        if Recorder.letGoWhileMoving(p, at: e.time) { f.append("flick = true") }
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

  /// True when the hand was still moving fast when it let go (its last movement, faster
  /// than 200 px/s, ended at most 0.05 s before): replayed as a flick, so what it dragged
  /// glides on (at the drag's average speed, so only about as far as live).
  static func letGoWhileMoving(_ p: Press, at t: Double) -> Bool {
    guard let (q, t0) = p.before, p.lastAt > t0, t - p.lastAt <= 0.05 + 1e-9 else { return false }
    let d = ((p.last.x - q.x) * (p.last.x - q.x) + (p.last.y - q.y) * (p.last.y - q.y)).squareRoot()
    return d / (p.lastAt - t0) > 200
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

  /// The recording as a Lua chunk that returns the timeline.
  public func luaSource(script: String) -> String {
    flushWheel()
    // (The script's name goes into comments: escaped, a name with a newline cannot add code.)
    let name = OneLine.escape(script)
    var out = "-- Gestures recorded by chartscene --live from \(name).\n"
    out += "-- Replay them headless: chartscene \(name) --timeline THIS_FILE -o out.mp4\n"
    out += "return {\n"
    for l in lines { out += "  " + l + "\n" }
    return out + "}\n"
  }

  func distance(_ a: Point, _ b: Point) -> Double { ((a.x - b.x) * (a.x - b.x) + (a.y - b.y) * (a.y - b.y)).squareRoot() }

  func n(_ v: Double) -> String {
    let r = (v * 1000).rounded() / 1000
    return r == r.rounded() && abs(r) < 1e12 ? String(Int64(r)) : String(r)
  }
}
