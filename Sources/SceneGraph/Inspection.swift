import ChartModel
import Drawing

/// A JSON value with ordered keys, for output whose layout people read and diff.
public indirect enum OrderedJSON: Sendable {
  case null
  case bool(Bool)
  case number(Double)
  /// A number printed without a fraction when whole (pixel frames).
  case pixels(Double)
  case string(String)
  case array([OrderedJSON])
  case object([(String, OrderedJSON)])

  public func render(indent: Int = 0, pretty: Bool = true) -> String {
    var out = ""
    write(&out, indent: indent, pretty: pretty)
    return out
  }

  func write(_ out: inout String, indent: Int, pretty: Bool) {
    switch self {
    case .null: out += "null"
    case .bool(let b): out += b ? "true" : "false"
    case .number(let d): out += OrderedJSON.number(d)
    case .pixels(let d):
      let r = (d * 100).rounded() / 100
      out += r == r.rounded() && abs(r) < 1e15 ? String(Int64(r)) : OrderedJSON.number(r)
    case .string(let s): OrderedJSON.quote(s, into: &out)
    case .array(let items):
      // Arrays of scalars stay on one line.
      let flat = !pretty || items.allSatisfy { if case .array = $0 { return false }; if case .object = $0 { return false }; return true }
      out += "["
      for (k, v) in items.enumerated() {
        if k > 0 { out += flat ? ", " : "," }
        if !flat { out += "\n" + String(repeating: "  ", count: indent + 1) }
        v.write(&out, indent: indent + 1, pretty: pretty)
      }
      if !flat && !items.isEmpty { out += "\n" + String(repeating: "  ", count: indent) }
      out += "]"
    case .object(let fields):
      out += "{"
      for (k, (key, v)) in fields.enumerated() {
        if k > 0 { out += "," }
        if pretty { out += "\n" + String(repeating: "  ", count: indent + 1) }
        OrderedJSON.quote(key, into: &out)
        out += pretty ? ": " : ":"
        v.write(&out, indent: indent + 1, pretty: pretty)
      }
      if pretty && !fields.isEmpty { out += "\n" + String(repeating: "  ", count: indent) }
      out += "}"
    }
  }

  static func number(_ d: Double) -> String {
    if !d.isFinite { return "null" }
    if d == d.rounded() && abs(d) < 1e15 { return String(Int64(d)) + ".0" }
    return String(d)
  }

  static func quote(_ s: String, into out: inout String) {
    out += "\""
    for u in s.unicodeScalars {
      switch u {
      case "\"": out += "\\\""
      case "\\": out += "\\\\"
      case "\n": out += "\\n"
      case "\r": out += "\\r"
      case "\t": out += "\\t"
      case let c where c.value < 0x20:
        let h = String(c.value, radix: 16)
        out += "\\u" + String(repeating: "0", count: 4 - h.count) + h
      default: out.unicodeScalars.append(u)
      }
    }
    out += "\""
  }
}

/// Builds the `--inspect` JSON of a laid-out scene at time t (contract § `--inspect` JSON).
public struct Inspector {
  public let measurer: TextMeasurer
  public init(measurer: TextMeasurer) { self.measurer = measurer }

  public func inspect(_ scene: Scene, time: Double) -> OrderedJSON {
    var copy = self
    copy.presentation = scene.presentation
    copy.time = time
    copy.root = scene.root
    return copy.document(scene, time: time)
  }

  var presentation: Presentation?
  var time = 0.0
  var root: Node?

  func document(_ scene: Scene, time: Double) -> OrderedJSON {
    var fields: [(String, OrderedJSON)] = [
      ("time", .number(time)),
      ("size", .array([.pixels(scene.width), .pixels(scene.height)])),
      ("theme", .string(scene.theme.name)),
    ]
    // Only when not English and UTC, so the documents of other scenes stay as they were.
    if !scene.format.isStandard { fields += [("locale", .string(scene.format.locale.id)), ("timezone", .string(scene.format.zone.id))] }
    return .object(fields + [("root", node(scene.root))])
  }

  func rect(_ r: Rect) -> OrderedJSON { .array([.pixels(r.x), .pixels(r.y), .pixels(r.width), .pixels(r.height)]) }

  func label(_ l: DrawnLabel) -> OrderedJSON {
    .object([("text", .string(l.text)), ("frame", rect(l.frame)), ("alpha", .number((l.alpha * 1000).rounded() / 1000))])
  }

  func node(_ n: Node) -> OrderedJSON { node(n, outer: .identity, parent: nil) }

  /// What a `cs.view`'s layout gave a child, as drawn at the time.
  func placed(_ p: Placement) -> OrderedJSON {
    func r(_ d: Double) -> OrderedJSON { .number((d * 1000).rounded() / 1000) }
    return .object([("offset", .array([r(p.offset.x), r(p.offset.y)])), ("scale", r(p.scale)), ("opacity", r(p.opacity)),
                    ("rotation3d", r(p.turn)), ("z", r(p.z)), ("depth", r(p.depth))])
  }

  func node(_ n: Node, outer: DrawnTransform, parent: Node?) -> OrderedJSON {
    let drawn = outer.then(n)
    var f: [(String, OrderedJSON)] = [("id", .string(n.id)), ("kind", .string(n.kind.name)), ("frame", rect(n.frame)),
                                      ("drawn", rect(drawn.apply(n.frame)))]
    switch n.kind {
    case .chart(let spec), .card(let spec):
      let isCard: Bool = { if case .card = n.kind { return true }; return false }()
      let window = presentation?.window(spec.data, at: time) ?? spec.data.window
      let parts = ChartParts.make(spec: spec, card: isCard, frame: n.contentFrame, measurer: measurer, window: window)
      let snap = ChartSnapshot(spec: spec, plot: parts.plot, presentation: presentation, key: ChartKey(n.identity), t: time)
      let set = spec.data
      f.append(("title", spec.title.map { .string($0) } ?? .null))
      f.append(("range", .array([.number(snap.window.lo), .number(snap.window.hi)])))
      f.append(("dataRange", snap.dataRange.map { .array([.number($0.min), .number($0.max)]) } ?? .null))
      f.append(("yRange", .array([.number(snap.yRange.min), .number(snap.yRange.max)])))
      f.append(("hidden", .array(set.lines.filter { snap.hidden.contains($0.id) }.map { .string($0.id) })))
      if let i = snap.indicatorIndex {
        f.append(("indicator", .object([("index", .pixels(Double(i))), ("time", .pixels(set.xs[i]))])))
      } else {
        f.append(("indicator", .null))
      }
      let axes = ChartAxes(spec: spec, parts: parts, snap: snap, measurer: measurer, presentation: presentation, key: ChartKey(n.identity), t: time)
      f += roundTwo(spec, parts: parts, snap: snap, frame: n.contentFrame)
      // After the others: poster (while the indicator shows), zoomOut, yAxis.right (Inspection+ChartTypes.swift).
      let named = (parts.named + roundTwoParts(spec, parts: parts, snap: snap, frame: n.contentFrame)).map { ($0.0, rect($0.1)) }
      f.append(("parts", .object(named)))
      f.append(("xLabels", .array(axes.xLabels.map(label))))
      f.append(("xContext", axes.xContext.map(label) ?? .null))
      f.append(("yLabels", .array(axes.yLabels.map(label))))
      if snap.style.yScaled { f.append(("rightLabels", .array(axes.rightLabels.map(label)))) }
      if let more = parts.legendMore { f.append(("legendMore", .string(more.text))) }
      if let p = ChartParts.posterContent(spec: spec, parts: parts, snap: snap, frame: n.contentFrame, measurer: measurer) {
        f.append(("poster", .object([("date", .string(p.date)),
                                     ("rows", .array(p.rows.map { .array([.string($0.name), .string($0.value)]) })),
                                     ("left", .pixels(Double(p.left)))])))
      }
      if !spec.annotations.isEmpty {
        f.append(("annotations", annotations(n, spec, parts: parts, snap: snap, axes: axes)))
      }
    case .text(let t):
      f.append(("text", .string(t.text)))
    case .view(let spec):
      f += spec.inspect?(time) ?? []
    case .stack, .spacer, .canvas:
      break
    }
    if n.style.opacity != 1 { f.append(("opacity", .number(n.style.opacity))) }
    let turn = n.drawnTurn?.angle ?? 0
    if turn != 0 || n.style.rotation3d != nil { f.append(("rotation3d", .number((turn * 100).rounded() / 100))) }
    if let parent, case .view = parent.kind { f.append(("placed", placed(n.placement))) }
    if !n.placement.visible { f.append(("visible", .bool(false))) }
    f.append(("children", .array(n.children.map { node($0, outer: drawn, parent: n) })))
    return .object(f)
  }
}
