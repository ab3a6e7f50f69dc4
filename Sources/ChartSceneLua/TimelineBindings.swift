import Drawing
import LuaKit
import Motion
import SceneGraph

/// `cs.tap`, `cs.longpress`, `cs.drag`, `cs.scroll`, `cs.call` (timeline events) and
/// `cs.animate`.
enum TimelineBindings {
  static let typeName = "TimelineEvent"

  final class Box { let event: TimelineEvent; init(_ e: TimelineEvent) { event = e } }

  static func register(_ lua: LuaState) {
    lua.register(LuaTypeInfo(name: typeName, describe: { obj in (obj as? Box).map { "\($0.event.name) at \($0.event.at)" } ?? typeName }))
  }

  static func install(_ lua: LuaState, into cs: Int32, context: BindingContext) {
    func event(_ name: String, _ table: OptionTable, _ make: @escaping (LuaOptions, Double, TimelineTarget?) throws -> TimelineEvent.Kind) {
      lua.setFunction(cs, name) { lua in
        try lua.checkTable(1, function: name)
        let o = try LuaOptions(lua, 1, table)
        guard let at = try o.number(table.spec("at")) else { throw LuaError("missing field 'at' in cs.\(name) (seconds)") }
        var target: TimelineTarget? = nil
        if let id = try o.string("target") { target = .id(id) }
        if let p = try o.numbers("pos", count: 2) {
          guard target == nil else { throw LuaError("cs.\(name) takes 'target' or 'pos', not both") }
          target = .point(Point(p[0], p[1]))
        }
        let kind = try make(o, at, target)
        if case .call = kind {} else if target == nil, !(o.has("from")) {
          throw LuaError("missing field 'target' in cs.\(name) (a node id like \"deck\" or a part like \"views.minimap.window\"; or pos = {x, y})")
        }
        var e = TimelineEvent(at: at, target: target, kind: kind)
        if case .drag = kind {
          e.flick = try o.bool("flick") ?? false
          if let v = try o.numbers("velocity", count: 2) {
            guard v.allSatisfy({ $0.isFinite && abs($0) <= 1e6 }) else { throw LuaError("bad field 'velocity' in cs.drag (px/s, -1000000 to 1000000)") }
            e.velocity = Point(v[0], v[1])
          }
        }
        e.place = lua.where(level: 1)
        lua.push(object: Box(e), as: typeName)
        return 1
      }
    }
    func seconds(_ o: LuaOptions, _ table: OptionTable, _ key: String, _ def: Double) throws -> Double {
      try o.number(table.spec(key)) ?? def
    }
    event("tap", .tap) { _, _, _ in .tap }
    event("longpress", .longpress) { o, _, _ in .longPress(duration: try seconds(o, .longpress, "duration", 0.5)) }
    event("drag", .drag) { o, _, _ in
      let by = try o.numbers("by", count: 2).map { Point($0[0], $0[1]) }
      let to = try o.numbers("to", count: 2).map { Point($0[0], $0[1]) }
      guard (by == nil) != (to == nil) else { throw LuaError("cs.drag takes 'by' or 'to' (one of them)") }
      let from = try o.numbers("from", count: 2).map { Point($0[0], $0[1]) }
      return .drag(from: from, by: by, to: to, duration: max(1e-3, try seconds(o, .drag, "duration", 0.4)), hold: try seconds(o, .drag, "hold", 0))
    }
    event("scroll", .scroll) { o, _, _ in
      guard let by = try o.numbers("by", count: 2) else { throw LuaError("missing field 'by' in cs.scroll ({dx, dy})") }
      return .scroll(by: Point(by[0], by[1]), duration: try seconds(o, .scroll, "duration", 0.3))
    }
    lua.setFunction(cs, "call") { lua in
      try lua.checkTable(1, function: "call")
      let o = try LuaOptions(lua, 1, .call)
      guard let at = try o.number(OptionTable.call.spec("at")) else { throw LuaError("missing field 'at' in cs.call (seconds)") }
      let ref: Int32? = try o.with("fn") { idx throws -> Int32 in
        guard lua.type(at: idx) == .function else { throw o.fieldError("fn", expected: "function") }
        lua.pushValue(idx)
        return lua.ref()
      }
      guard let ref else { throw LuaError("missing field 'fn' in cs.call (a function(scene))") }
      let p = context.presentation
      let kind = TimelineEvent.Kind.call { [weak lua, weak context] in
        guard let lua else { return }
        lua.pushRef(ref)
        if let scene = context?.scene { lua.push(object: scene, as: SceneBinding.typeName) } else { lua.pushNil() }
        p.animates = true
        try lua.pcall(nargs: 1, nresults: 0)
      }
      var e = TimelineEvent(at: at, target: nil, kind: kind)
      e.place = lua.where(level: 1)
      lua.push(object: Box(e), as: typeName)
      return 1
    }
    lua.setFunction(cs, "animate") { lua in
      var transition = Transition.standard
      var velocity: Double?
      if let d = lua.toNumber(1) {
        guard d >= 0, d.isFinite else { throw lua.argumentError(1, function: "animate", "seconds must not be negative") }
        transition = Transition(duration: d, curve: .easeInOut)
      } else if lua.type(at: 1) == .table {
        let table = OptionTable.animate
        let o = try LuaOptions(lua, 1, table)
        let curveName = try o.string("curve") ?? "easeInOut"
        guard var curve = Curve(name: curveName) else {
          throw LuaError("invalid curve '\(curveName)' in cs.animate, expected one of: " + Curve.names.map { "'\($0)'" }.joined(separator: ", "))
        }
        // A spring's response (its period, s): given, or from the duration (settled in 1.6 periods).
        let response = try o.number(table.spec("response"))
        if response != nil, case .spring = curve {} else if response != nil {
          throw LuaError("bad field 'response' in cs.animate (a spring's; give curve = \"spring\")")
        }
        let d = try o.number(table.spec("duration")) ?? response.map { $0 * 1.6 } ?? curve.naturalDuration
        if case .spring = curve { curve = .spring(response: response ?? max(0.05, d / 1.6)) }
        if case .decay = curve { curve = .decay(tau: max(1e-3, d / 4)) }
        transition = Transition(duration: d, curve: curve, delay: try o.number(table.spec("delay")) ?? 0)
        velocity = try o.number(table.spec("velocity"))
      } else {
        throw lua.argumentError(1, function: "animate", expected: "number or table")
      }
      guard lua.type(at: 2) == .function else { throw lua.argumentError(2, function: "animate", expected: "function") }
      let p = context.presentation
      let saved = p.override, savedVelocity = p.overrideVelocity
      p.override = transition
      p.overrideVelocity = velocity
      defer { p.override = saved; p.overrideVelocity = savedVelocity }
      context.animateBlocks += 1
      let block = context.animateBlocks, outer = context.animateBlock
      context.animateBlock = block
      defer { context.animateBlock = outer; CompositionViewBinding.drop(context, block: block) }
      lua.pushValue(2)
      try lua.pcall(nargs: 0, nresults: 0)
      // The compositions it changed lay out once for the new state; their children move.
      try CompositionViewBinding.flush(context, block: block)
      return 0
    }
  }

  /// The scene's `timeline` field: an array of events.
  static func timeline(_ lua: LuaState, _ o: LuaOptions) throws -> [TimelineEvent] {
    try o.with("timeline") { idx throws -> [TimelineEvent] in
      guard lua.type(at: idx) == .table else { throw o.fieldError("timeline", expected: "table of events") }
      var out: [TimelineEvent] = []
      for i in 0..<lua.rawLength(idx) {
        lua.rawGet(idx, index: i + 1)
        defer { lua.pop() }
        guard let box = lua.object(at: -1, typeName) as? Box else {
          throw LuaError("bad event #\(i + 1) in the timeline of cs.scene (cs.tap{...}, cs.drag{...}, ... expected, got \(lua.valueTypeName(at: -1)))")
        }
        out.append(box.event)
      }
      return out
    } ?? []
  }
}
