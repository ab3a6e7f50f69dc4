import ChartModel
import Drawing
import Motion

/// A text with fields that follow time (`cs.text{ text = }` and chart titles):
/// `"Sales {value:sales|compact} in {time:%B %Y}"`. Values are read at the chart's indicator
/// or at the last point of its window, and formatted with the model's number and date texts;
/// numbers tween from the value shown before (a counter).
public struct TextTemplate: Sendable, Equatable {
  public enum NumberFormat: String, Sendable, CaseIterable { case grouped, compact, int }
  public enum Part: Sendable, Equatable {
    case literal(String)
    case value(line: String, format: NumberFormat)
    /// nil: the poster's date at the data's precision; else an strftime pattern (UTC).
    case time(pattern: String?)
  }
  public var parts: [Part]
  public let source: String

  /// The value fields' line ids, in order (each one is a counter).
  public var lines: [String] {
    parts.compactMap { if case .value(let l, _) = $0 { return l }; return nil }
  }
  public var hasFields: Bool { parts.contains { if case .literal = $0 { return false }; return true } }

  /// Parses `text`; nil when it has no fields (plain text). `{{` and `}}` are literal braces.
  /// Errors say what is wrong in one sentence.
  public static func parse(_ text: String) throws(SceneError) -> TextTemplate? {
    guard text.contains("{") || text.contains("}") else { return nil }
    var parts: [Part] = []
    var literal = ""
    var i = text.startIndex
    while i < text.endIndex {
      let c = text[i]
      let next = text.index(after: i)
      if c == "{", next < text.endIndex, text[next] == "{" { literal.append("{"); i = text.index(after: next); continue }
      if c == "}", next < text.endIndex, text[next] == "}" { literal.append("}"); i = text.index(after: next); continue }
      if c == "}" { throw SceneError("template '\(text)' has a '}' without its '{' (write '}}' for a brace)") }
      guard c == "{" else { literal.append(c); i = next; continue }
      guard let close = text[next...].firstIndex(of: "}") else {
        throw SceneError("template '\(text)' has a '{' without its closing '}' (write '{{' for a brace)")
      }
      let field = String(text[next..<close])
      if !literal.isEmpty { parts.append(.literal(literal)); literal = "" }
      parts.append(try part(field))
      i = text.index(after: close)
    }
    if !literal.isEmpty { parts.append(.literal(literal)) }
    let t = TextTemplate(parts: parts, source: text)
    return t.hasFields ? t : nil
  }

  static func part(_ field: String) throws(SceneError) -> Part {
    let (name, arg): (String, String?) = {
      guard let colon = field.firstIndex(of: ":") else { return (field, nil) }
      return (String(field[..<colon]), String(field[field.index(after: colon)...]))
    }()
    switch name.trimmedSpaces {
    case "value":
      guard let arg, !arg.isEmpty else { throw SceneError("template field '{\(field)}' needs a line: '{value:LINE}' or '{value:LINE|compact}'") }
      let pieces = arg.split(separator: "|", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
      let line = pieces[0].trimmedSpaces
      guard !line.isEmpty else { throw SceneError("template field '{\(field)}' needs a line: '{value:LINE}'") }
      var format = NumberFormat.grouped
      if pieces.count > 1 {
        let f = pieces[1].trimmedSpaces
        guard let v = NumberFormat(rawValue: f) else {
          throw SceneError("unknown format '\(f)' in template field '{\(field)}' (formats are " + NumberFormat.allCases.map { "'\($0.rawValue)'" }.joined(separator: ", ") + ")")
        }
        format = v
      }
      return .value(line: line, format: format)
    case "time":
      guard let arg else { return .time(pattern: nil) }
      if let bad = DateText.unknownConversion(arg) {
        throw SceneError("unknown conversion '\(bad)' in template field '{\(field)}' (use %Y %y %m %d %e %B %b %A %a %H %M %S %j %q %%)")
      }
      return .time(pattern: arg)
    default:
      throw SceneError("unknown template field '{\(field)}' (fields are '{value:LINE}', '{value:LINE|FORMAT}', '{time}' and '{time:PATTERN}'; '{{' for a brace)")
    }
  }

  /// Checks the line ids against a set (line ids or names); returns the template with ids.
  public func resolved(in set: ChartSet) throws(SceneError) -> TextTemplate {
    var out = self
    for (k, p) in parts.enumerated() {
      guard case .value(let key, let f) = p else { continue }
      guard let id = set.lineID(for: key) else {
        throw SceneError("no line '\(key)' in '\(set.name)' for template field '{value:\(key)}'; lines are " + set.lines.map { "'\($0.id)'" }.joined(separator: ", "))
      }
      out.parts[k] = .value(line: id, format: f)
    }
    return out
  }

  /// The text with each value field's number (`values`, in order of `lines`) and the time.
  /// A value is `(shown, target)`: a counter on its way shows the decimals its target has.
  /// `format`: the scene's locale and time zone (English and UTC write what they always did).
  public func render(values: [(Double, Double)?], time: Double?, precision: TimePrecision, format: DisplayFormat = .standard) -> String {
    var s = ""
    var k = 0
    for p in parts {
      switch p {
      case .literal(let l): s += l
      case .value(_, let f):
        let v = k < values.count ? values[k] : nil
        k += 1
        guard let (v, target) = v, v.isFinite else { s += "–"; continue }
        switch f {
        case .grouped: s += format.grouped(TextTemplate.rounded(v, like: target))
        case .compact: s += format.compact(v)
        case .int: s += format.grouped(v.rounded())
        }
      case .time(let pattern):
        guard let time else { s += "–"; continue }
        s += pattern.map { format.format(time, strftime: $0) } ?? format.poster(time, precision: precision)
      }
    }
    return s
  }

  /// `v` with the decimals `target` is written with (a counter heading for 120 counts in whole numbers).
  static func rounded(_ v: Double, like target: Double) -> Double {
    let text = CompactNumber.grouped(target)
    let decimals = text.firstIndex(of: ".").map { text.distance(from: $0, to: text.endIndex) - 1 } ?? 0
    var scale = 1.0
    for _ in 0..<min(decimals, 17) { scale *= 10 }
    return (v * scale).rounded() / scale
  }

  /// Seconds a counter takes to reach a new value.
  public static let tween = 0.5

  /// The point the fields read: the chart's indicator when it shows, else the last point of
  /// the window drawn at t.
  public static func index(_ set: ChartSet, window: TimeWindow, indicator: Int?) -> Int? {
    if let i = indicator { return i }
    guard set.count > 0 else { return nil }
    let r = set.indices(in: window)
    return r.isEmpty ? set.nearestIndex(toTime: set.time(atFraction: window.hi)) : r.upperBound - 1
  }
}

extension Presentation {
  /// Moves a template's counter towards `target`: from the value shown now, over
  /// `TextTemplate.tween` seconds (at once while the script is evaluated or the first time).
  /// The curve starts fast and slows down (a decay), so a counter whose value changes on every
  /// frame (a moving window) chases it closely instead of restarting from rest each time.
  public func updateCounter(_ key: NumberKey, target: Double, at t: Double) {
    if let old = self.target(key), old == target { return }
    let first = self.target(key) == nil
    setNumber(key, target, initial: target, first || !animates ? .immediate : Transition(duration: TextTemplate.tween, curve: .decay(tau: TextTemplate.tween / 4)))
  }

  /// The text of `template` at t, read from `set` through the view's window and indicator;
  /// `node` owns its counters. Moves the counters first (call once per tick).
  public func templateText(_ template: TextTemplate, set: ChartSet, indicator: Int?, node: NodeIdentity, at t: Double, moves: Bool,
                           format: DisplayFormat = .standard) -> String {
    let window = self.window(set, at: t)
    let i = TextTemplate.index(set, window: window, indicator: indicator)
    var values: [(Double, Double)?] = []
    for (k, id) in template.lines.enumerated() {
      let counter = NumberKey.counter(node, line: k)
      if moves, let i, let line = set.line(id: id), i < line.values.count, line.values[i].isFinite {
        updateCounter(counter, target: line.values[i], at: t)
      }
      values.append(self.target(counter).map { (number(counter, initial: $0, at: t), $0) })
    }
    return template.render(values: values, time: i.map { set.xs[$0] }, precision: format.precision(of: set), format: format)
  }
}

extension String {
  var trimmedSpaces: String {
    var s = Substring(self)
    while s.first == " " { s.removeFirst() }
    while s.last == " " { s.removeLast() }
    return String(s)
  }
}

extension Scene {
  /// Writes the text of every template (texts and chart titles) as shown at t, moving their
  /// counters when `moves` (once per tick). Returns true when a text changed (a new layout).
  @discardableResult
  public func updateTemplates(at t: Double, moves: Bool = true) -> Bool {
    var changed = false
    let p = presentation
    root.walk { n in
      switch n.kind {
      case .text(var spec):
        guard let template = spec.template, let set = spec.source else { return }
        let s = p.templateText(template, set: set, indicator: nil, node: n.identity, at: t, moves: moves, format: format)
        if s != spec.text { spec.text = s; n.kind = .text(spec); changed = true }
      case .chart(var spec), .card(var spec):
        guard let template = spec.titleTemplate else { return }
        let set = spec.data
        var indicator: Int?
        if spec.indicator, let f = spec.indicatorAt, set.count > 0 {
          let i = set.nearestIndex(toTime: set.time(atFraction: f))
          let w = p.window(set, at: t)
          if set.xs[i] >= set.time(atFraction: w.lo) - 1e-6 && set.xs[i] <= set.time(atFraction: w.hi) + 1e-6 { indicator = i }
        }
        let s = p.templateText(template, set: set, indicator: indicator, node: n.identity, at: t, moves: moves, format: format)
        guard s != spec.title else { return }
        spec.title = s
        if case .card = n.kind { n.kind = .card(spec) } else { n.kind = .chart(spec) }
        changed = true
      default: return
      }
    }
    return changed
  }
}
