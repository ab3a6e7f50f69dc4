import ChartModel
import Drawing
import Glibc
import LuaKit
import Platform
import SceneGraph

/// `cs.data.csv(path [, opts])` and `cs.data.json(path [, opts])`: the option tables and the
/// loading (the decoding is `ChartModel`'s `CSVDecoder` and `RecordsDecoder`).
enum TableBinding {
  /// The set's name when its data came from standard input and `name` was not given.
  static let standardInputName = "Data"
  static func named(_ o: TableOptions, _ path: String) -> TableOptions {
    var o = o
    if path == "-" && o.name == nil { o.name = standardInputName }
    return o
  }

  static func install(_ lua: LuaState, data: Int32, context: BindingContext) {
    lua.setFunction(data, "csv") { lua in
      let path = try lua.checkString(1, function: "csv")
      var (options, key) = try tableOptions(lua, function: "csv", .csv)
      options.memoryBudget = lua.memoryLimit > 0 ? max(0, lua.memoryLimit - lua.memoryUsed) : nil
      options.memoryBudgetName = "--max-memory"
      let opts = options
      let set = try load(lua, path: try context.confined(path), shown: path, key: key, context: context) { full, shown in
        // "-": the data piped into standard input, held whole (it cannot be read in blocks twice).
        if full == "-" {
          let bytes: [UInt8]
          do throws(FileReader.ReadError) { bytes = try FileReader.read("-", limit: opts.memoryBudget.map { max(1 << 20, $0 / 2) } ?? 512 << 20) } catch { throw LuaError(error.description) }
          return try CSVDecoder.decodeTable(bytes, file: shown, options: named(opts, full))
        }
        return try CSVDecoder.read(path: full, shown: shown, options: opts)
      }
      DataBinding.push(lua, set)
      return 1
    }
    lua.setFunction(data, "json") { lua in
      let path = try lua.checkString(1, function: "json")
      let (options, key) = try tableOptions(lua, function: "json", .json)
      let set = try load(lua, path: try context.confined(path), shown: path, key: key, context: context) { full, shown in
        // As for contest files: a quarter of the limit, and half of what it leaves.
        let quarter = lua.memoryLimit > 0 ? min(512 << 20, lua.memoryLimit / 4) : 512 << 20
        let left = lua.memoryLimit > 0 ? max(0, lua.memoryLimit - lua.memoryUsed) / 2 : Int.max
        let limit = min(quarter, left)
        let bytes: [UInt8]
        do throws(FileReader.ReadError) { bytes = try FileReader.read(full, limit: limit) } catch {
          let tooLarge = error.reason.hasPrefix("the file is larger") && limit < 512 << 20
          let why = left < quarter ? " (half of what --max-memory leaves)" : " (a quarter of --max-memory)"
          throw LuaError(error.description + (tooLarge ? why : ""))
        }
        // What is decoded must fit in what the limit leaves besides the file.
        var named = named(options, full)
        if lua.memoryLimit > 0 {
          named.memoryBudget = max(0, lua.memoryLimit - lua.memoryUsed - bytes.count)
          named.memoryBudgetName = "--max-memory"
        }
        return try RecordsDecoder.decodeTable(bytes, file: shown, options: named)
      }
      DataBinding.push(lua, set)
      return 1
    }
  }

  /// Loads once per path and options; warns about skipped columns once.
  static func load(_ lua: LuaState, path: String, shown: String, key: String, context: BindingContext,
                   decode: (String, String) throws -> TableResult) throws(LuaError) -> ChartSet {
    // Keyed apart from `cs.data.telegram`'s loads of the same path (and by the options).
    let cacheKey = "table\u{0}" + path + "\u{0}" + key
    if let sets = context.loaded[cacheKey] { return sets[0] }
    context.files.insert(path)
    let result: TableResult
    let t0 = Clock.monotonic(), c0 = Clock.processCPU()
    // Reading and decoding a file are the host's work: outside the script's time limit
    // (bounded by --max-memory and --max-total-time). Standard input stays under it: a pipe
    // may never end, and waiting on it costs no CPU.
    do { result = try path == "-" ? decode(path, shown) : lua.outsideTimeLimit { () throws in try decode(path, shown) } } catch let e as LuaError { throw e } catch let e as DataError {
      throw LuaError(e.description)
    } catch let e as FileReader.ReadError { throw LuaError(e.description) } catch { throw LuaError(String(describing: error)) }
    do throws(DataError) { try result.set.checkTextLengths(file: shown) } catch { throw LuaError(error.description) }
    for note in result.notes { context.warn(note) }
    if StageTiming.enabled {
      let dt = Clock.monotonic() - t0, cpu = Clock.processCPU() - c0
      var size = stat()
      let bytes = stat(path, &size) == 0 ? Double(size.st_size) : 0
      let set = result.set
      StageTiming.note("timing: \(shown): \(set.count) rows, \(set.lines.count) lines, \(String(format1: bytes / 1e6)) MB read in \(String(format1: dt * 1000)) ms (\(String(format1: bytes / 1e6 / max(dt, 1e-9))) MB/s; \(String(format1: cpu * 1000)) ms of CPU)")
    }
    context.loaded[cacheKey] = [result.set]
    return result.set
  }

  /// The options at argument 2, and a text that tells two different option tables apart.
  static func tableOptions(_ lua: LuaState, function: String, _ table: OptionTable) throws -> (TableOptions, String) {
    var options = TableOptions()
    guard !lua.isNil(2) else { return (options, "") }
    try lua.checkTable(2, function: function)
    let owner = "cs.data.\(function)"
    let o = try LuaOptions(lua, 2, table)
    var key: [String] = []
    options.name = try o.string("name")
    if let x = try column(o, "x") { options.x = x; key.append("x=\(x)") }
    if let f = try o.string("timeFormat") {
      guard let p = TimePattern(f) else {
        throw LuaError("bad field 'timeFormat' in \(owner) ('\(f)' is not a strftime pattern: use %Y %m %d %e %H %I %M %S %f %p %b %B %a %y %j %q %z %s %F %T and other characters as they are)")
      }
      options.timeFormat = p
      key.append("t=\(f)")
    }
    if let cols = try o.with("columns", { idx throws -> [ColumnRef] in
      if lua.type(at: idx) != .table { return [try columnValue(lua, idx, owner: owner, field: "columns")] }
      var out: [ColumnRef] = []
      for i in 0..<lua.rawLength(idx) {
        lua.rawGet(idx, index: i + 1)
        defer { lua.pop() }
        out.append(try columnValue(lua, -1, owner: owner, field: "columns[\(i + 1)]"))
      }
      return out
    }) {
      options.columns = cols
      key.append("c=\(cols)")
    }
    if let s = try column(o, "series") { options.series = s; key.append("s=\(s)") }
    if let v = try column(o, "value") { options.value = v; key.append("v=\(v)") }
    if let m = try o.with("missing", { idx throws -> [String] in try strings(lua, idx, owner: owner, field: "missing") }) {
      options.missing = m
      key.append("m=\(m)")
    }
    if table["delimiter"] != nil, let d = try o.string("delimiter") {
      let b: UInt8?
      switch d {
      case "\\t", "tab": b = 9
      default: b = d.utf8.count == 1 ? d.utf8.first : nil
      }
      guard let b, b != 34, b != 10, b != 13 else { throw LuaError("bad field 'delimiter' in \(owner) (one character expected)") }
      options.delimiter = b
      key.append("d=\(b)")
    }
    if let s = try o.bool("sort") { options.sort = s; key.append("sort=\(s)") }
    if let g = try o.bool("gaps") { options.gaps = g; key.append("gaps=\(g)") }
    let _: Void? = try o.with("names") { idx in
      guard lua.type(at: idx) == .table else { throw o.fieldError("names", expected: "table") }
      if lua.rawLength(idx) > 0 {
        options.names = try strings(lua, idx, owner: owner, field: "names")
      } else {
        try lua.forEach(idx) {
          guard let k = lua.toString(-2), let v = lua.toString(-1), lua.type(at: -1) == .string else {
            throw LuaError("bad field 'names' in \(owner) (a list of names, or { column = name, ... } expected)")
          }
          options.namesByKey[k] = v
        }
      }
    }
    let _: Void? = try o.with("colors") { idx in
      guard lua.type(at: idx) == .table else { throw o.fieldError("colors", expected: "table") }
      if lua.rawLength(idx) > 0 {
        options.colors = try DataBinding.colorList(lua, idx)
      } else {
        try lua.forEach(idx) {
          guard let k = lua.toString(-2), let s = lua.toString(-1), let c = Color(hex: s) else {
            throw LuaError("bad colour in colors of \(owner) (expected '#RRGGBB')")
          }
          options.colorsByKey[k] = c
        }
      }
    }
    return (options, key.joined(separator: ";"))
  }

  static func column(_ o: LuaOptions, _ field: String) throws(LuaError) -> ColumnRef? {
    let lua = o.lua
    lua.rawGet(o.index, field)
    defer { lua.pop() }
    if lua.isNil(-1) { return nil }
    return try columnValue(lua, -1, owner: o.owner, field: field)
  }

  static func columnValue(_ lua: LuaState, _ idx: Int32, owner: String, field: String) throws(LuaError) -> ColumnRef {
    switch lua.type(at: idx) {
    case .string: return .name(lua.toString(idx)!)
    case .number:
      guard let d = lua.toNumber(idx), d == d.rounded(), d >= 1, d < 1e9 else {
        throw LuaError("bad field '\(field)' in \(owner) (a column name or a 1-based column number expected)")
      }
      return .index(Int(d))
    default:
      throw LuaError("bad field '\(field)' in \(owner) (a column name or a 1-based column number expected, got \(lua.valueTypeName(at: idx)))")
    }
  }

  static func strings(_ lua: LuaState, _ idx: Int32, owner: String, field: String) throws(LuaError) -> [String] {
    if lua.type(at: idx) == .string { return [lua.toString(idx)!] }
    guard lua.type(at: idx) == .table else { throw LuaError("bad field '\(field)' in \(owner) (a list of strings expected, got \(lua.valueTypeName(at: idx)))") }
    var out: [String] = []
    for i in 0..<lua.rawLength(idx) {
      lua.rawGet(idx, index: i + 1)
      defer { lua.pop() }
      guard lua.type(at: -1) == .string, let s = lua.toString(-1) else {
        throw LuaError("bad field '\(field)' in \(owner) (string expected at [\(i + 1)], got \(lua.valueTypeName(at: -1)))")
      }
      out.append(s)
    }
    return out
  }
}

extension String {
  /// One decimal.
  init(format1 d: Double) {
    let r = (d * 10).rounded() / 10
    self = r == r.rounded() ? String(Int64(r)) + ".0" : String(r)
  }
}
