import ChartModel
import Gestures

/// A message from the studio page (JSON text over the WebSocket), read and bounded here: a
/// malformed or out-of-range message is one line of error, never a trap.
enum StudioMessage {
  case hello(dpr: Double)
  case play, pause
  case step(Int)
  case seek(Double)
  case home
  case loop((Int, Int)?)
  case speed(Double)
  case size(Double?, Double?)
  case theme(String)
  case args([(String, String)])
  case reload
  case pointer(PointerEvent.Phase, Double, Double, Double)
  case save, inspect, printInspect, lint
  case record(Bool)
  case render(String)

  struct Bad: Error { let message: String }

  init(_ text: String) throws(Bad) {
    guard text.utf8.count <= 64 << 10 else { throw Bad(message: "a message of \(text.utf8.count) bytes (at most 65536)") }
    let value: JSONValue
    do { value = try JSONParser.parse(Array(text.utf8)) } catch { throw Bad(message: error.description) }
    guard case .object(let o) = value else { throw Bad(message: "expected a JSON object, got \(value.typeName)") }
    guard case .string(let type)? = o["type"] else { throw Bad(message: "no \"type\"") }
    func number(_ key: String, _ range: ClosedRange<Double>) throws(Bad) -> Double {
      guard case .number(let n)? = o[key] else { throw Bad(message: "\(type): \"\(key)\" must be a number") }
      guard n.isFinite, range.contains(n) else { throw Bad(message: "\(type): \"\(key)\" \(n) is outside \(range.lowerBound)...\(range.upperBound)") }
      return n
    }
    func string(_ key: String) throws(Bad) -> String {
      guard case .string(let s)? = o[key] else { throw Bad(message: "\(type): \"\(key)\" must be a string") }
      return s
    }
    switch type {
    case "hello": self = .hello(dpr: try number("dpr", 0.25...4))
    case "play": self = .play
    case "pause": self = .pause
    case "step": self = .step(Int(try number("by", -1000...1000)))
    case "seek": self = .seek(try number("t", 0...3600))
    case "home": self = .home
    case "loop":
      if case .null? = o["in"] { self = .loop(nil); return }
      if o["in"] == nil { self = .loop(nil); return }
      let a = Int(try number("in", 0...1e6)), b = Int(try number("out", 0...1e6))
      guard b >= a else { throw Bad(message: "loop: \"out\" is before \"in\"") }
      self = .loop((a, b))
    case "speed": self = .speed(try number("x", 0.25...2))
    case "size":
      if o["width"] == nil || o["width"] == .null { self = .size(nil, nil); return }
      self = .size(try number("width", 1...16384), try number("height", 1...16384))
    case "theme":
      let name = try string("name")
      guard Session.isTheme(name) else { throw Bad(message: "theme: '\(name)' is not day or night") }
      self = .theme(name)
    case "args":
      guard case .array(let items)? = o["args"] else { throw Bad(message: "args: \"args\" must be an array of [key, value]") }
      var words: [String] = []
      for item in items {
        guard case .array(let kv) = item, kv.count == 2, case .string(let k) = kv[0], case .string(let v) = kv[1] else {
          throw Bad(message: "args: each item must be [key, value] (two strings)")
        }
        words.append(k + "=" + v)
      }
      switch Session.parseArgs(words) {
      case .success(let pairs): self = .args(pairs)
      case .failure(let e): throw Bad(message: e.message)
      }
    case "reload": self = .reload
    case "pointer":
      let x = try number("x", -1e5...1e5), y = try number("y", -1e5...1e5)
      var ts = 0.0
      if o["ts"] != nil { ts = try number("ts", 0...1e12) }
      let phase: PointerEvent.Phase
      switch try string("phase") {
      case "down": phase = .down
      case "move": phase = .move
      case "up": phase = .up
      case "wheel":
        let dx = try number("dx", -1e4...1e4), dy = try number("dy", -1e4...1e4)
        phase = .scroll(dx, dy)
      case let p: throw Bad(message: "pointer: unknown phase '\(p)' (down, move, up, wheel)")
      }
      self = .pointer(phase, x, y, ts)
    case "save": self = .save
    case "inspect": self = .inspect
    case "print-inspect": self = .printInspect
    case "lint": self = .lint
    case "record":
      guard case .bool(let on)? = o["on"] else { throw Bad(message: "record: \"on\" must be true or false") }
      self = .record(on)
    case "render": self = .render(try string("format"))
    default: throw Bad(message: "unknown message type '\(type)'")
    }
  }
}
