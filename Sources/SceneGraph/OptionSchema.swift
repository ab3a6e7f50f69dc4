/// The options of the `cs.*` constructors, declared once (LÖVE/LuaSwift style): each key with
/// its type, its accepted values, its default and one line of documentation. Everything that
/// knows an option reads it from here: the Lua bindings and the compositions written in Lua
/// (`cs.options`) validate with it, presets validate their sections with it (`Preset.schema`),
/// the LuaLS definitions (`chartscene definitions`) and the option tables of docs/lua-api.md
/// (`chartscene definitions --docs`) are generated from it. The declarations are in
/// `OptionTable+Catalog.swift`.
public struct OptionSpec: Sendable {
  /// What a value must be. The generic kinds are checked by `OptionTable` users alike (the
  /// bindings, `cs.options`, presets); `.any` is checked by the binding that reads it (a
  /// ChartSet, a union of types).
  public enum Kind: Sendable, Equatable {
    case number(Bounds?)
    case boolean
    case string
    /// `"#RRGGBB"`, `"#RRGGBBAA"`, `"#RGB"` or a theme colour's name.
    case color
    case choice([String])
    case table
    case function
    case view
    case any
  }

  public var key: String
  /// The LuaLS type: `number`, `string`, `boolean`, `cs.View`, `number[]`, an alias, `A|B`.
  public var type: String
  public var kind: Kind
  /// The default as the docs show it (nil: none).
  public var defaultText: String?
  /// One line: what it is (LuaLS, docs, `chartscene preset keys`).
  public var doc: String
  /// More for the docs' table only (markdown: an error it gives, how it behaves).
  public var notes: String?
  /// A preset's section of the constructor may set it (`carousel.itemWidth`).
  public var preset: Bool
  public var required: Bool
  /// The reason an out-of-range number gives, when not the bounds' own words (kept where
  /// scripts and tests know an older text).
  public var outOfRange: (@Sendable (Double) -> String)?

  public init(_ key: String, _ type: String, _ kind: Kind, default defaultText: String? = nil, _ doc: String,
              notes: String? = nil, preset: Bool = false, required: Bool = false) {
    self.key = key; self.type = type; self.kind = kind; self.defaultText = defaultText; self.doc = doc
    self.notes = notes; self.preset = preset; self.required = required
  }

  /// A number option within bounds.
  public static func number(_ key: String, _ bounds: Bounds?, default d: String? = nil, _ doc: String, notes: String? = nil,
                            preset: Bool = false, required: Bool = false, type: String = "number") -> OptionSpec {
    OptionSpec(key, type, .number(bounds), default: d, doc, notes: notes, preset: preset, required: required)
  }

  public static func boolean(_ key: String, default d: String? = nil, _ doc: String, notes: String? = nil, preset: Bool = false) -> OptionSpec {
    OptionSpec(key, "boolean", .boolean, default: d, doc, notes: notes, preset: preset)
  }

  /// What is wrong with a number given for this option, or nil (`must be between 1 and 16384, got 0`).
  public func problem(_ d: Double) -> String? {
    guard case .number(let b?) = kind, !b.contains(d) else { return nil }
    return outOfRange?(d) ?? b.problem(d)
  }

  /// One line of plain text (LuaLS): what it is, its values and its default.
  public var summary: String {
    var out = doc
    if case .number(let b?) = kind { out += ", " + b.text }
    if required { out += " (required)" } else if let d = defaultText { out += " (default " + d.filter { $0 != "`" } + ")" }
    return out
  }

  /// The accepted values as the docs say them: `1 to 16384`, `"bar"` or `"line"`.
  public var acceptedText: String? {
    switch kind {
    case .number(let b?): return b.text
    case .choice(let values):
      let quoted = values.map { "`\"\($0)\"`" }
      return quoted.count < 2 ? quoted.joined() : quoted.dropLast().joined(separator: ", ") + " or " + quoted.last!
    default: return nil
    }
  }
}

/// The range of a number option; either end may be open (`lineWidth`: above 0, at most 50).
public struct Bounds: Sendable, Equatable {
  public var lower: Double
  public var upper: Double
  public var lowerOpen: Bool
  public var upperOpen: Bool

  public init(_ lower: Double, _ upper: Double, lowerOpen: Bool = false, upperOpen: Bool = false) {
    self.lower = lower; self.upper = upper; self.lowerOpen = lowerOpen; self.upperOpen = upperOpen
  }

  /// `lo...hi`, both ends included.
  public static func closed(_ r: ClosedRange<Double>) -> Bounds { Bounds(r.lowerBound, r.upperBound) }
  /// Above `lo`, at most `hi`.
  public static func above(_ lo: Double, atMost hi: Double) -> Bounds { Bounds(lo, hi, lowerOpen: true) }
  /// At least `lo`, below `hi`.
  public static func atLeast(_ lo: Double, below hi: Double) -> Bounds { Bounds(lo, hi, upperOpen: true) }

  public func contains(_ d: Double) -> Bool {
    (lowerOpen ? d > lower : d >= lower) && (upperOpen ? d < upper : d <= upper)
  }

  /// The one message every reader gives for a number outside (the bindings, `cs.options`, presets).
  public func problem(_ d: Double) -> String? {
    if contains(d) { return nil }
    return "must be \(words), got \(Bounds.number(d))"
  }

  /// Messages: `between 1 and 16384`, `above 0 and at most 50`, `at least 0`.
  var words: String { phrase(" and ") }

  /// The docs' text: `1 to 16384`, `above 0, at most 50`, `0 or more`.
  public var text: String {
    if upper == .infinity, !lowerOpen { return "\(Bounds.number(lower)) or more" }
    if !lowerOpen, !upperOpen, upper != .infinity { return "\(Bounds.number(lower)) to \(Bounds.number(upper))" }
    return phrase(", ")
  }

  func phrase(_ join: String) -> String {
    let low = (lowerOpen ? "above " : upper == .infinity || upperOpen ? "at least " : "between ") + Bounds.number(lower)
    if upper == .infinity { return low }
    return low + join + (upperOpen ? "below " : lowerOpen ? "at most " : "") + Bounds.number(upper)
  }

  /// The short form of tables: `1…16384`, with an open end marked `(0…50]`, `[0…0.5)`.
  public var shortText: String {
    let body = "\(Bounds.number(lower))…\(Bounds.number(upper))"
    if !lowerOpen && !upperOpen { return body }
    return (lowerOpen ? "(" : "[") + body + (upperOpen ? ")" : "]")
  }

  /// A number as messages show it: `8`, `0.5`, `1e+30`.
  public static func number(_ d: Double) -> String {
    if d == d.rounded(), abs(d) < 1e15 { return String(Int64(d)) }
    return "\(d)"
  }
}

/// The options of one constructor (`cs.carousel`) or of a table inside one (`cs.tabs tab`).
public struct OptionTable: Sendable {
  /// How messages name it: `cs.carousel`.
  public var owner: String
  /// The LuaLS class: `cs.CarouselOptions`.
  public var className: String
  public var doc: String
  /// Takes the common view keys (`id`, `padding`, ... `on`).
  public var viewKeys: Bool
  /// Children in the array part: their LuaLS type (`cs.View`).
  public var arrayOf: String?
  /// The preset section that fills it (`carousel`), or nil.
  public var presetSection: String?
  /// An unknown key's message lists every known key (small tables: `cs.data.csv`).
  public var listsKeys: Bool
  /// The owner whose docs table shows these options too (`cs.data.json`: `cs.data.csv`'s).
  public var documentedWith: String?
  public var options: [OptionSpec]

  public init(_ owner: String, _ className: String, _ doc: String, viewKeys: Bool = true, arrayOf: String? = nil,
              preset: String? = nil, listsKeys: Bool = false, documentedWith: String? = nil, _ options: [OptionSpec]) {
    self.owner = owner; self.className = className; self.doc = doc; self.viewKeys = viewKeys
    self.arrayOf = arrayOf; self.presetSection = preset; self.listsKeys = listsKeys; self.documentedWith = documentedWith; self.options = options
  }

  public var keys: [String] { options.map(\.key) }

  public subscript(_ key: String) -> OptionSpec? { options.first { $0.key == key } }

  /// The declared table of an owner (`cs.carousel`), or nil.
  public static func named(_ owner: String) -> OptionTable? { all.first { $0.owner == owner } }
}
