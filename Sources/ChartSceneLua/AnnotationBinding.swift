import ChartModel
import LuaKit
import SceneGraph

/// `cs.note`, `cs.band`, `cs.rule` (marks for a chart's `annotations`) and the chart's
/// `annotations` key. The placing and drawing are in SceneGraph/Annotations.swift.
enum AnnotationBinding {
  static let typeName = "Annotation"

  final class Box { let annotation: Annotation; init(_ a: Annotation) { annotation = a } }

  static func register(_ lua: LuaState) {
    lua.register(LuaTypeInfo(name: typeName, describe: { obj in (obj as? Box).map { "Annotation \($0.annotation.kind.name)" } ?? typeName }))
  }

  static func install(_ lua: LuaState, into cs: Int32) {
    func make(_ name: String, _ table: OptionTable, _ kind: @escaping (LuaOptions) throws -> Annotation.Kind) {
      lua.setFunction(cs, name) { lua in
        try lua.checkTable(1, function: name)
        let o = try LuaOptions(lua, 1, table)
        var a = Annotation(kind: try kind(o), text: try o.string("text") ?? "")
        a.color = try ViewBindings.color(o, "color")
        a.appear = try o.number(table.spec("appear"))
        a.disappear = try o.number(table.spec("disappear"))
        if let s = a.appear, let e = a.disappear, e <= s {
          throw LuaError("bad field 'disappear' in cs.\(name) (must be after 'appear', got \(LuaOptions.text(e)) and \(LuaOptions.text(s)))")
        }
        lua.push(object: Box(a), as: typeName, footprint: 256 + a.text.utf8.count)
        return 1
      }
    }
    make("note", .note) { o in
      guard let at = try time(o, "at") else { throw LuaError("missing field 'at' in cs.note (a time: UNIX ms or 'YYYY-MM-DD[THH:MM]')") }
      let value = try o.number("value")
      if let v = value, !v.isFinite { throw LuaError("bad field 'value' in cs.note (a finite number expected)") }
      let line = try o.string("line")
      guard value != nil || line != nil else { throw LuaError("missing field 'value' in cs.note (a number, or line = ID to sit on that line)") }
      return .note(at: at, value: value, line: line)
    }
    make("band", .band) { o in
      guard let from = try time(o, "from") else { throw LuaError("missing field 'from' in cs.band (a time: UNIX ms or 'YYYY-MM-DD[THH:MM]')") }
      guard let to = try time(o, "to") else { throw LuaError("missing field 'to' in cs.band (a time: UNIX ms or 'YYYY-MM-DD[THH:MM]')") }
      guard to > from else { throw LuaError("bad field 'to' in cs.band (must be after 'from')") }
      return .band(from: from, to: to)
    }
    make("rule", .rule) { o in
      let value = try o.number("value"), at = try time(o, "at")
      if let v = value, !v.isFinite { throw LuaError("bad field 'value' in cs.rule (a finite number expected)") }
      guard (value == nil) != (at == nil) else { throw LuaError("cs.rule takes 'value' (a horizontal line) or 'at' (a vertical one), one of them") }
      return .rule(value: value, at: at)
    }
  }

  /// A time option: UNIX ms (as `set:valuesAt` and `cs.chartGeometry` give) or an ISO date.
  static func time(_ o: LuaOptions, _ key: String) throws(LuaError) -> Double? {
    let isString = (try? o.with(key) { idx in o.lua.type(at: idx) == .string }) == true
    if isString, let s = try o.string(key) {
      guard let ms = ISODate.parseMs(s) else {
        throw LuaError("bad field '\(key)' in \(o.owner) (a time expected: UNIX ms or 'YYYY-MM-DD[THH:MM[:SS]]', got '\(s)')")
      }
      return ms
    }
    guard let v = try o.number(key) else { return nil }
    guard v.isFinite, abs(v) <= DataLimits.maxTimeMs else {
      throw LuaError("bad field '\(key)' in \(o.owner) (a time in UNIX ms, within ±\(LuaOptions.text(DataLimits.maxTimeMs)), expected)")
    }
    return v
  }

  /// A chart's `annotations`: an array of cs.note / cs.band / cs.rule, checked against the set.
  static func read(_ lua: LuaState, _ o: LuaOptions, set: ChartSet) throws -> [Annotation] {
    try o.with("annotations") { idx throws -> [Annotation] in
      guard lua.type(at: idx) == .table else { throw o.fieldError("annotations", expected: "table of cs.note, cs.band, cs.rule") }
      var out: [Annotation] = []
      var k = 1
      while true {
        lua.rawGet(idx, index: k)
        defer { lua.pop() }
        if lua.isNil(-1) { break }
        guard let box = lua.object(at: -1, typeName) as? Box else {
          throw LuaError("bad annotation #\(k) in \(o.owner) (cs.note, cs.band or cs.rule expected, got \(lua.valueTypeName(at: -1)))")
        }
        var a = box.annotation
        if case .note(let at, let value, let line?) = a.kind {
          guard let id = set.lineID(for: line) else {
            throw LuaError("bad field 'line' in cs.note (no line '\(line)' in '\(set.name)'; lines are " + set.lines.map { "'\($0.id)'" }.joined(separator: ", ") + ")")
          }
          a.kind = .note(at: at, value: value, line: id)
        }
        out.append(a)
        k += 1
        guard k <= 1000 else { throw LuaError("too many annotations in \(o.owner) (at most 1000)") }
      }
      return out
    } ?? []
  }
}
