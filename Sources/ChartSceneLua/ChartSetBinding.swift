import ChartModel
import LuaKit
import Motion
import SceneGraph

/// `ChartSet` userdata: fields `name`, `count`, `lines`; methods per the contract.
enum ChartSetBinding {
  static let typeName = "ChartSet"

  static func set(_ lua: LuaState, _ fn: String) throws(LuaError) -> ChartSet {
    guard let s = lua.object(at: 1, typeName) as? ChartSet else {
      throw lua.argumentError(1, function: fn, expected: "ChartSet (call it as set:\(fn)(...))")
    }
    return s
  }

  static func lineID(_ lua: LuaState, _ set: ChartSet, _ fn: String) throws(LuaError) -> String {
    let key = try lua.checkString(2, function: fn)
    guard let id = set.lineID(for: key) else {
      throw lua.argumentError(2, function: fn, "no line '\(key)' in '\(set.name)'; lines are " + set.lines.map { line in
        line.name == line.id ? "'\(line.id)'" : "'\(line.id)' ('\(line.name)')"
      }.joined(separator: ", "))
    }
    return id
  }

  /// `animate` argument at `i`: true or none (the default transition), false (immediate)
  /// or seconds.
  static func animation(_ lua: LuaState, _ i: Int32, _ fn: String) throws(LuaError) -> Transition? {
    if lua.isNil(i) { return nil }
    if let b = lua.toBool(i) { return b ? nil : .immediate }
    if let d = lua.toNumber(i), d >= 0, d.isFinite { return Transition(duration: d, curve: .easeInOut) }
    throw lua.argumentError(i, function: fn, "true, false or seconds expected, got \(lua.valueTypeName(at: i))")
  }

  static func register(_ lua: LuaState, presentation p: Presentation) {
    lua.register(LuaTypeInfo(
      name: typeName, of: ChartSet.self,
      methods: [
        ("range", { lua in
          let s = try set(lua, "range")
          lua.push(s.window.lo); lua.push(s.window.hi)
          return 2
        }),
        ("setRange", { lua in
          let s = try set(lua, "setRange")
          let lo = try lua.checkNumber(2, function: "setRange"), hi = try lua.checkNumber(3, function: "setRange")
          guard lo.isFinite, hi.isFinite else { throw lua.argumentError(2, function: "setRange", "finite numbers expected") }
          guard lo < hi else { throw lua.argumentError(2, function: "setRange", "lo must be less than hi, got \(lo) and \(hi)") }
          p.setRange(s, lo, hi, try animation(lua, 4, "setRange"))
          return 0
        }),
        ("hide", { lua in let s = try set(lua, "hide"); p.setHidden(s, try lineID(lua, s, "hide"), true, try animation(lua, 3, "hide")); return 0 }),
        ("show", { lua in let s = try set(lua, "show"); p.setHidden(s, try lineID(lua, s, "show"), false, try animation(lua, 3, "show")); return 0 }),
        ("toggle", { lua in
          let s = try set(lua, "toggle")
          let id = try lineID(lua, s, "toggle")
          p.setHidden(s, id, !s.isHidden(id), try animation(lua, 3, "toggle"))
          return 0
        }),
        ("zoom", { lua in
          let s = try set(lua, "zoom")
          let day = try lua.checkString(2, function: "zoom")
          do { try p.zoom(s, day: day, pie: ChartStyle.resolve(s).percentage, try animation(lua, 3, "zoom")) } catch let e as DataError {
            throw LuaError(e.description)
          }
          return 0
        }),
        ("zoomOut", { lua in let s = try set(lua, "zoomOut"); p.zoomOut(s, try animation(lua, 2, "zoomOut")); return 0 }),
        ("isHidden", { lua in let s = try set(lua, "isHidden"); lua.push(s.isHidden(try lineID(lua, s, "isHidden"))); return 1 }),
        ("dataRange", { lua in
          let s = try set(lua, "dataRange")
          guard let r = s.dataRange() else { lua.pushNil(); lua.pushNil(); return 2 }
          lua.push(r.min); lua.push(r.max)
          return 2
        }),
        ("valuesAt", { lua in
          let s = try set(lua, "valuesAt")
          let f = try lua.checkNumber(2, function: "valuesAt")
          guard let pv = s.values(atFraction: max(0, min(1, f))) else { lua.pushNil(); return 1 }
          lua.newTable(hash: 3)
          lua.push(pv.timeMs); lua.rawSet(-2, "time")
          lua.push(pv.index + 1); lua.rawSet(-2, "index")
          lua.newTable(hash: Int32(pv.values.count))
          for (id, v) in pv.values where !v.isNaN { lua.push(v); lua.rawSet(-2, id) }
          // Also by name, where a name is not another line's id.
          for (line, (_, v)) in zip(s.lines, pv.values) where !v.isNaN && line.name != line.id && s.line(id: line.name) == nil {
            lua.push(v); lua.rawSet(-2, line.name)
          }
          lua.rawSet(-2, "values")
          return 1
        }),
      ],
      fields: [
        "name": { lua, s in lua.push(s.name) },
        "count": { lua, s in lua.push(s.count) },
        "zoomed": { lua, s in if let z = s.zoom { lua.push(z.day) } else { lua.pushNil() } },
        "lines": { lua, s in
          lua.newTable(array: Int32(s.lines.count))
          for (k, line) in s.lines.enumerated() {
            lua.newTable(hash: 5)
            lua.push(line.id); lua.rawSet(-2, "id")
            lua.push(line.name); lua.rawSet(-2, "name")
            lua.push(line.color.hexString); lua.rawSet(-2, "color")
            lua.push(line.kind.rawValue); lua.rawSet(-2, "type")
            lua.push(s.isHidden(line.id)); lua.rawSet(-2, "hidden")
            lua.rawSet(-2, index: k + 1)
          }
        },
      ],
      describe: { "ChartSet '\($0.name)' (\($0.count) points, \($0.lines.count) lines)" }))
  }
}
