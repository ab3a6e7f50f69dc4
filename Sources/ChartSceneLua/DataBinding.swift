import ChartModel
import Drawing
import LuaKit

/// `cs.data.telegram`, `cs.data.csv`, `cs.data.json`, `cs.data.series`, `cs.data.sample`.
enum DataBinding {
  static func install(_ lua: LuaState, into cs: Int32, context: BindingContext) {
    lua.newTable()
    let data = lua.top
    lua.setFunction(data, "telegram") { lua in
      let path = try lua.checkString(1, function: "telegram")
      let days = try DayFilesOption.read(lua, context: context)
      let sets = try load(lua, path: try context.confined(path), shown: path, context: context) { bytes, file throws(DataError) in
        try TelegramDecoder.decode(bytes, file: file)
      }
      if let days { DayFilesOption.attach(days, to: sets, context: context) }
      pushSets(lua, sets)
      return 1
    }
    TableBinding.install(lua, data: data, context: context)
    lua.setFunction(data, "series") { lua in
      try lua.checkTable(1, function: "series")
      let set = try series(lua)
      push(lua, set)
      return 1
    }
    lua.setFunction(data, "sample") { lua in
      guard let assets = context.assetsDirectory else {
        throw LuaError("the sample data was not found (set CHARTSCENE_ASSETS to the folder holding data/chart_data.json)")
      }
      let path = assets + "/data/chart_data.json"
      let sets = try load(lua, path: path, shown: path, context: context) { bytes, file throws(DataError) in
        try TelegramDecoder.decode(bytes, file: file)
      }
      pushSets(lua, sets)
      return 1
    }
    lua.rawSet(cs, "data")
  }

  /// Reads and decodes a data file once per script. A file may be a quarter of the memory
  /// limit (decoding takes a few times its size); the sets decoded count against it.
  static func load(_ lua: LuaState, path: String, shown: String, context: BindingContext,
                   decode: ([UInt8], String) throws(DataError) -> [ChartSet]) throws(LuaError) -> [ChartSet] {
    if let sets = context.loaded[path] { return sets }
    context.files.insert(path)
    let bytes: [UInt8]
    let quarter = lua.memoryLimit > 0 ? min(512 << 20, lua.memoryLimit / 4) : 512 << 20
    // The file and what is decoded from it are held at once: half of what is left each.
    let left = lua.memoryLimit > 0 ? max(0, lua.memoryLimit - lua.memoryUsed) / 2 : Int.max
    let limit = min(quarter, left)
    // Reading and decoding are the host's work: outside the script's time limit (bounded by
    // --max-memory and --max-total-time).
    do { bytes = try lua.outsideTimeLimit { () throws(FileReader.ReadError) in try FileReader.read(path, limit: limit) } } catch {
      let tooLarge = error.reason.hasPrefix("the file is larger") && limit < 512 << 20
      let why = left < quarter ? " (half of what --max-memory leaves)" : " (a quarter of --max-memory)"
      throw LuaError(error.description + (tooLarge ? why : ""))
    }
    let sets: [ChartSet]
    do {
      sets = try lua.outsideTimeLimit { () throws(DataError) in try decode(bytes, shown) }
      for set in sets { try set.checkTextLengths(file: shown) }
    } catch { throw LuaError(error.description) }
    context.loaded[path] = sets
    return sets
  }

  static func pushSets(_ lua: LuaState, _ sets: [ChartSet]) {
    lua.newTable(array: Int32(sets.count))
    for (k, s) in sets.enumerated() {
      push(lua, s)
      lua.rawSet(-2, index: k + 1)
    }
  }

  /// A set counts what it holds (its columns and names) against the memory limit.
  static func push(_ lua: LuaState, _ set: ChartSet) {
    lua.push(object: set, as: ChartSetBinding.typeName, footprint: set.footprint)
  }

  static func colorList(_ lua: LuaState, _ idx: Int32) throws(LuaError) -> [Color] {
    var out: [Color] = []
    for i in 0..<lua.rawLength(idx) {
      lua.rawGet(idx, index: i + 1)
      defer { lua.pop() }
      guard let s = lua.toString(-1), let c = Color(hex: s) else { throw LuaError("bad colour at colors[\(i + 1)] (expected '#RRGGBB')") }
      out.append(c)
    }
    return out
  }

  /// `cs.data.series{ name=, x={ms...}, lines={ {id=, name=, color=, values={...}}, ... } }`
  static func series(_ lua: LuaState) throws -> ChartSet {
    let o = try LuaOptions(lua, 1, .series)
    guard let xs = try o.numbers("x") else { throw LuaError("missing field 'x' in cs.data.series (a list of times in ms)") }
    var specs: [InlineSeries.LineSpec] = []
    let got: Void? = try o.with("lines") { idx in
      guard lua.type(at: idx) == .table else { throw o.fieldError("lines", expected: "table") }
      // Refused before any line is read.
      let count = lua.rawLength(idx)
      if count > ChartSet.maxLines {
        throw LuaError("bad field 'lines' in cs.data.series (at most \(ChartSet.maxLines) lines, got \(count))")
      }
      for i in 0..<count {
        lua.rawGet(idx, index: i + 1)
        defer { lua.pop() }
        guard lua.type(at: -1) == .table else { throw LuaError("bad field 'lines' in cs.data.series (table expected at [\(i + 1)], got \(lua.valueTypeName(at: -1)))") }
        let lo = try LuaOptions(lua, -1, .seriesLine, owner: "cs.data.series lines[\(i + 1)]")
        guard let values = try lo.numbers("values") else { throw LuaError("missing field 'values' in cs.data.series lines[\(i + 1)]") }
        var color: Color? = nil
        if let c = try lo.string("color") {
          guard let parsed = Color(hex: c) else { throw LuaError("bad colour '\(c)' in cs.data.series lines[\(i + 1)] (expected '#RRGGBB')") }
          color = parsed
        }
        let kind = try lo.choice("type", SeriesKind.self) ?? .line
        specs.append(InlineSeries.LineSpec(id: try lo.string("id"), name: try lo.string("name"), color: color, kind: kind, values: values.map { $0.isFinite ? $0 : .nan }))
      }
    }
    if got == nil { throw LuaError("missing field 'lines' in cs.data.series") }
    do {
      let set = try InlineSeries.make(name: try o.string("name") ?? "Series", xs: xs, lines: specs)
      try set.checkTextLengths(file: nil)
      return set
    } catch {
      throw LuaError("cs.data.series: \(String(describing: error))")
    }
  }
}
