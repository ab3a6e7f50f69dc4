import ChartModel
import Drawing
import LuaKit
import SceneGraph

/// The view constructors: `cs.chart`, `cs.card`, `cs.vstack`, `cs.hstack`, `cs.zstack`,
/// `cs.spacer`, `cs.text`, `cs.canvas`. Each turns a table into a `Node`.
enum ViewBindings {
  static let typeName = "View"
  /// The modifiers every view takes (`OptionTable.view`).
  static let common = OptionTable.view.keys

  static func register(_ lua: LuaState, context: BindingContext) {
    lua.register(LuaTypeInfo(
      name: typeName,
      field: { [weak context] lua, obj, key in
        guard let n = obj as? Node else { return false }
        switch key {
        case "id": if n.explicitID { lua.push(n.id) } else { lua.pushNil() }
        case "kind": lua.push(n.kind.name)
        case "uid": lua.push(n.id)
        case "time":
          // The time laid out, drawn or inspected (in a handler: the event's).
          let v = context?.viewScript[ObjectIdentifier(n)]
          lua.push(v?.time ?? context?.presentation.now ?? 0)
        case "width": lua.push(n.contentFrame.width)
        case "height": lua.push(n.contentFrame.height)
        // The size its `frame` option fixes (nil: the layout decides).
        case "padding":
          let p = n.style.padding
          lua.newTable()
          for (k, v) in [("top", p.top), ("left", p.left), ("bottom", p.bottom), ("right", p.right)] { lua.push(v); lua.rawSet(-2, k) }
        case "frameWidth": if let w = n.style.width { lua.push(w) } else { lua.pushNil() }
        case "frameHeight": if let h = n.style.height { lua.push(h) } else { lua.pushNil() }
        default:
          // A composition's own fields (CompositionViewBinding): state, shown, children, options.
          guard case .view(let spec) = n.kind, let v = context?.viewScript[ObjectIdentifier(n)] else { return false }
          switch key {
          case "state": lua.pushRef(v.time != nil ? v.shown : v.state)
          case "shown": lua.pushRef(v.shown)
          case "target": lua.pushRef(v.state)
          case "add", "remove": if let context { CompositionViewBinding.pushMethod(lua, context, key) }
          case "children": if let r = v.records { lua.pushRef(r) } else { lua.pushRef(v.views) }
          case "options":
            lua.newTable()
            for (k, value) in spec.options {
              switch value {
              case .number(let d): lua.push(d)
              case .string(let s): lua.push(s)
              case .bool(let b): lua.push(b)
              case .strings(let list):
                lua.newTable()
                for (i, s) in list.enumerated() { lua.push(s); lua.rawSet(-2, index: i + 1) }
              }
              lua.rawSet(-2, k)
            }
          default: return false
          }
        }
        return true
      },
      describe: { obj in (obj as? Node).map { "View \($0.kind.name)" + ($0.explicitID ? " '\($0.id)'" : "") } ?? typeName }))
  }

  static func install(_ lua: LuaState, into cs: Int32, context: BindingContext) {
    lua.setFunction(cs, "chart") { lua in try push(lua, chart(lua, "chart", card: false, context)) }
    lua.setFunction(cs, "card") { lua in try push(lua, chart(lua, "card", card: true, context)) }
    for (name, axis, table) in [("vstack", StackAxis.vertical, OptionTable.vstack), ("hstack", .horizontal, .hstack), ("zstack", .depth, .zstack)] {
      lua.setFunction(cs, name) { lua in
        try lua.checkTable(1, function: name)
        let o = try LuaOptions(lua, 1, table)
        // A z-stack checks its spacing and has no gaps (OptionTable.zstack).
        let spacing = try o.number(table.spec("spacing")) ?? (axis == .depth ? 0 : 8)
        let align = try o.choice("align", Alignment.self) ?? .center
        let node = Node(id: try o.string("id"), kind: .stack(axis, spacing: spacing, align: align), style: try style(o), children: try children(lua, o, context))
        return push(lua, try finish(node, o, context))
      }
    }
    CompositionViewBinding.install(lua, into: cs, context: context)
    lua.setFunction(cs, "spacer") { lua in
      var minLength = 0.0
      var o: LuaOptions? = nil
      if !lua.isNil(1) {
        try lua.checkTable(1, function: "spacer")
        o = try LuaOptions(lua, 1, .spacer)
        minLength = try o?.number(OptionTable.spacer.spec("minLength")) ?? 0
      }
      let node = Node(id: try o?.string("id"), kind: .spacer(minLength: max(0, minLength)), style: try o.map(style) ?? Style())
      if let o { try GestureBinding.read(lua, o, into: node) }
      return push(lua, node)
    }
    lua.setFunction(cs, "text") { lua in
      try lua.checkTable(1, function: "text")
      let o = try LuaOptions(lua, 1, .text)
      let text: String
      if let s = try o.string("text") { text = s } else if let n = try o.number("text") { text = "\(n)" } else {
        throw LuaError("missing field 'text' in cs.text")
      }
      var spec = TextSpec(text: text)
      let source: ChartSet? = try o.with("data") { idx throws -> ChartSet in
        guard let s = lua.object(at: idx, ChartSetBinding.typeName) as? ChartSet else { throw o.fieldError("data", expected: "ChartSet (from cs.data.*)") }
        return s
      }
      if let template = try templateOption(text, key: "text", owner: "cs.text", set: source) {
        guard source != nil else {
          throw LuaError("missing field 'data' in cs.text (the ChartSet its template '\(text)' reads)")
        }
        spec.template = template
        spec.source = source
        spec.text = ""  // until the first frame reads the data
      }
      if let size = try o.number(OptionTable.text.spec("size")) { spec.size = size }
      spec.weight = try o.choice("weight", Font.Weight.self) ?? .regular
      spec.align = try o.choice("align", TextAlign.self) ?? .natural(text)
      if let c = try color(o, "color") { spec.color = c }
      let node = Node(id: try o.string("id"), kind: .text(spec), style: try style(o))
      context.places[ObjectIdentifier(node)] = lua.where(level: 1)
      try GestureBinding.read(lua, o, into: node)
      return push(lua, node)
    }
    lua.setFunction(cs, "canvas") { lua in
      try lua.checkTable(1, function: "canvas")
      let o = try LuaOptions(lua, 1, .canvas)
      let drawRef: Int32? = try o.with("draw") { idx throws -> Int32 in
        guard lua.type(at: idx) == .function else { throw o.fieldError("draw", expected: "function") }
        lua.pushValue(idx)
        return lua.ref()
      }
      guard let drawRef else { throw LuaError("missing field 'draw' in cs.canvas (a function(g, w, h, t))") }
      let spec = CanvasSpec { [weak lua] w, h, t, theme in
        guard let lua else { return [] }
        return try CanvasBinding.run(lua, drawRef, width: w, height: h, time: t, theme: theme)
      }
      let node = Node(id: try o.string("id"), kind: .canvas(spec), style: try style(o))
      try GestureBinding.read(lua, o, into: node)
      return push(lua, node)
    }
  }

  /// A view already known to Lua (a handler's `self`): the same object, not charged again.
  static func pushExisting(_ lua: LuaState, _ node: Node) { lua.push(object: node, as: typeName) }

  /// A view counts about 1 KiB and its text against the memory limit.
  static func push(_ lua: LuaState, _ node: Node) -> Int32 {
    var footprint = 1024
    if case .text(let t) = node.kind { footprint += t.text.utf8.count }
    if let title = node.chart?.title { footprint += title.utf8.count }
    lua.push(object: node, as: typeName, footprint: footprint)
    return 1
  }

  /// Records what the script set (presets fill in the rest) and loads a view's preset.
  static func finish(_ node: Node, _ o: LuaOptions, _ context: BindingContext) throws -> Node {
    node.explicitKeys = o.presentKeys
    try GestureBinding.read(o.lua, o, into: node)
    if let name = try o.string("preset") {
      do { node.preset = try context.presets.load(name) } catch { throw LuaError(error.message, wantsLocation: !error.located) }
    }
    return node
  }

  static func chart(_ lua: LuaState, _ name: String, card: Bool, _ context: BindingContext) throws -> Node {
    try lua.checkTable(1, function: name)
    let table: OptionTable = card ? .card : .chart
    let o = try LuaOptions(lua, 1, table)
    let set: ChartSet? = try o.with("data") { idx throws -> ChartSet in
      guard let s = lua.object(at: idx, ChartSetBinding.typeName) as? ChartSet else {
        throw o.fieldError("data", expected: "ChartSet (from cs.data.*)")
      }
      return s
    }
    guard let set else { throw LuaError("missing field 'data' in cs.\(name) (a ChartSet from cs.data.*)") }
    var spec = ChartSpec(data: set)
    spec.title = try o.string("title") ?? set.name
    if let title = spec.title, let template = try templateOption(title, key: "title", owner: "cs.\(name)", set: set) {
      spec.titleTemplate = template
      spec.title = ""  // until the first frame reads the data
    }
    spec.description = try o.string("description")
    spec.annotations = try AnnotationBinding.read(lua, o, set: set)
    if !card {
      spec.minimap = try o.bool("minimap") ?? true
      spec.legend = try o.bool("legend") ?? true
      spec.indicator = try o.bool("indicator") ?? true
      spec.indicatorAt = try o.number(table.spec("indicatorAt"))
    } else {
      spec.minimap = false; spec.legend = false; spec.indicator = false
    }
    spec.overrides = try ChartTypeOptions.read(o)
    try ChartTypeOptions.checkShares(spec)
    spec.xAxis = try o.bool("xAxis") ?? true
    spec.yAxis = try o.bool("yAxis") ?? true
    if let v = try o.choice("yLabels", YLabelPlacement.self) { spec.yLabelsAsked = v }
    if let w = try o.number(table.spec("lineWidth")) { spec.lineWidth = w }
    let node = Node(id: try o.string("id"), kind: card ? .card(spec) : .chart(spec), style: try style(o))
    context.places[ObjectIdentifier(node)] = lua.where(level: 1)
    return try finish(node, o, context)
  }

  /// A text option with template fields (`{value:LINE}`, `{time}`), checked; nil for plain text.
  static func templateOption(_ text: String, key: String, owner: String, set: ChartSet?) throws(LuaError) -> TextTemplate? {
    do {
      guard let t = try TextTemplate.parse(text) else { return nil }
      return try set.map { s throws(SceneError) in try t.resolved(in: s) } ?? t
    } catch { throw LuaError("bad field '\(key)' in \(owner) (\(error.message))") }
  }

  static func children(_ lua: LuaState, _ o: LuaOptions, _ context: BindingContext, owner: String? = nil) throws(LuaError) -> [Node] {
    let owner = owner ?? o.owner
    var out: [Node] = []
    var views = 1
    for i in 0..<o.arrayCount {
      lua.rawGet(o.index, index: i + 1)
      defer { lua.pop() }
      guard let n = lua.object(at: -1, typeName) as? Node else {
        throw LuaError("bad child #\(i + 1) in \(owner) (view expected, got \(lua.valueTypeName(at: -1)))")
      }
      if !context.adopt(n) {  // also a view given twice in this list
        throw LuaError("child #\(i + 1) in \(owner) is already used elsewhere in the scene (a view can be placed once)")
      }
      guard n.levels < Node.maxLevels else {
        throw LuaError("views are nested more than \(Node.maxLevels) levels deep in \(owner)")
      }
      views += n.views
      try checkViewCount(views, owner)
      out.append(n)
    }
    return out
  }

  /// The error for a tree of more than `Node.maxViews` views.
  static func checkViewCount(_ views: Int, _ owner: String) throws(LuaError) {
    guard views <= Node.maxViews else {
      throw LuaError("a scene may hold at most \(Node.maxViews) views (\(owner) would hold \(views))")
    }
  }

  static func color(_ o: LuaOptions, _ key: String) throws(LuaError) -> ColorRef? {
    guard let s = try o.string(key) else { return nil }
    guard let c = ColorRef(s) else {
      throw LuaError("bad colour '\(s)' for '\(key)' in \(o.owner) (expected '#RRGGBB', '#RRGGBBAA' or a theme colour: " + Theme.colorKeys.map { "'\($0.0)'" }.joined(separator: ", ") + ")")
    }
    return c
  }

  /// How far `offset` may move a view: a few scenes' widths either way.
  static let offsets = 4 * Scene.maximumSide

  /// The modifiers every view takes.
  static func style(_ o: LuaOptions) throws -> Style {
    var s = Style()
    if o.has("padding") {
      if let p = try? o.number("padding") {
        guard p >= 0 else { throw LuaError("bad field 'padding' in \(o.owner) (must not be negative)") }
        guard p <= Scene.maximumSide else { throw LuaError("bad field 'padding' in \(o.owner) (must be between 0 and \(Int(Scene.maximumSide)), got \(LuaOptions.text(p)))") }
        s.padding = Insets(all: p)
      } else if let p = try o.numbers("padding") {
        switch p.count {
        case 2: s.padding = Insets(top: p[0], left: p[1], bottom: p[0], right: p[1])
        case 4: s.padding = Insets(top: p[0], left: p[1], bottom: p[2], right: p[3])
        default: throw LuaError("bad field 'padding' in \(o.owner) (a number, {vertical, horizontal} or {top, left, bottom, right} expected)")
        }
        guard p.allSatisfy({ $0 >= 0 }) else { throw LuaError("bad field 'padding' in \(o.owner) (must not be negative)") }
        guard p.allSatisfy({ $0.isFinite && $0 <= Scene.maximumSide }) else { throw LuaError("bad field 'padding' in \(o.owner) (each side must be between 0 and \(Int(Scene.maximumSide)))") }
      }
    }
    s.background = try color(o, "background")
    let view = OptionTable.view
    s.cornerRadius = max(0, try o.number(view.spec("cornerRadius")) ?? 0)
    if let op = try o.number(view.spec("opacity")) { s.opacity = op }
    if let off = try o.numbers("offset", count: 2) {
      guard off.allSatisfy({ abs($0) <= offsets }) else {
        throw LuaError("bad field 'offset' in \(o.owner) (each between -\(Int(offsets)) and \(Int(offsets)) expected)")
      }
      s.offset = Point(off[0], off[1])
    }
    if let sc = try o.number(view.spec("scale")) { s.scale = sc }
    _ = try o.with("frame") { idx throws in
      guard o.lua.type(at: idx) == .table else { throw o.fieldError("frame", expected: "table") }
      let f = try LuaOptions(o.lua, idx, .frame, owner: "\(o.owner) frame")
      for (key, path) in [("width", \Style.width), ("height", \Style.height)] {
        if let v = try f.number(OptionTable.frame.spec(key)) { s[keyPath: path] = v }
      }
    }
    _ = try o.with("transition") { idx throws in
      let expected = "\"opacity\", \"scale\" or { edge = \"left\" | \"right\" | \"top\" | \"bottom\" } expected"
      let lua = o.lua
      switch lua.type(at: idx) {
      case .string:
        switch lua.toString(idx) ?? "" {
        case "opacity": s.transition = .opacity
        case "scale": s.transition = .scale
        case let other: throw LuaError("bad field 'transition' in \(o.owner) (\(expected), got '\(other)')")
        }
      case .table:
        let edge = lua.rawGet(idx, "edge") == .string ? lua.toString(-1) : nil
        lua.pop()
        var keys = 0
        lua.forEach(idx) { keys += 1 }
        guard keys == 1, let edge, let e = ViewTransition.Edge(rawValue: edge) else {
          throw LuaError("bad field 'transition' in \(o.owner) (\(expected))")
        }
        s.transition = .edge(e)
      default: throw LuaError("bad field 'transition' in \(o.owner) (\(expected), got \(lua.valueTypeName(at: idx)))")
      }
    }
    _ = try o.with("rotation3d") { idx throws in
      guard o.lua.type(at: idx) == .table else { throw o.fieldError("rotation3d", expected: "table") }
      let table = OptionTable.rotation3d
      let r = try LuaOptions(o.lua, idx, table, owner: "\(o.owner) rotation3d")
      guard let angle = try r.number(table.spec("angle")) else { throw LuaError("missing field 'angle' in \(o.owner) rotation3d (degrees)") }
      let axis = try r.numbers("axis", count: 3) ?? [0, 1, 0]
      let perspective = try r.number(table.spec("perspective")) ?? 1000
      guard perspective > 0 else { throw LuaError("bad field 'perspective' in \(o.owner) rotation3d (must be positive)") }
      guard axis[2] == 0, (axis[0] == 0) != (axis[1] == 0) else {
        throw LuaError("bad field 'axis' in \(o.owner) rotation3d (a turn about {0, 1, 0} or {1, 0, 0} expected)")
      }
      s.rotation3d = Rotation3D(angle: angle, axis: (axis[0], axis[1], axis[2]), perspective: perspective)
    }
    return s
  }
}
