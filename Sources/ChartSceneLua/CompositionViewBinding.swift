import Drawing
import LuaKit
import Motion
import SceneGraph

/// What the bindings keep for one `cs.view`: its state proxies and functions (registry
/// references) and, while its layout runs, the records it writes and the time it lays out.
final class ViewScript {
  weak var node: Node?
  /// The view's number (from 1), part of its state numbers' keys.
  let number: Int
  var state: Int32 = 0, shown: Int32 = 0
  var layout: Int32?, inspect: Int32?
  /// The children as views, their ids and kinds (arrays), for the layout records.
  var views: Int32 = 0, ids: Int32 = 0, kinds: Int32 = 0
  /// While the layout runs: the records (`self.children`) and the time laid out.
  var records: Int32?
  var time: Double?
  /// A `cs.animate` block changed the state: the children's places before it (by identity).
  var pending: PendingMotion?
  init(node: Node, number: Int) { self.node = node; self.number = number }
}

/// What a `cs.animate` block that changes a view's state needs at its end: the block, its
/// timing, the children's values before the change and the speed asked for (as progress
/// per second: `velocity` over the change of the first number changed).
struct PendingMotion {
  var block: Int
  var transition: Transition
  var before: [ObjectIdentifier: ChildValues]
  /// The records themselves (what a child removed in the block is drawn with as it leaves).
  var records: [ObjectIdentifier: ChildLayout]
  var rate: Double?
  /// Children added in the block, and how they enter.
  var entering: [ObjectIdentifier: ViewTransition] = [:]
}

final class NullValue: @unchecked Sendable { static let shared = NullValue() }

/// `cs.view{}`: a composition written in Lua (state, layout, handlers), `cs.options` and
/// `cs.error` for the modules that define compositions (`assets/compositions/`).
enum CompositionViewBinding {

  static func install(_ lua: LuaState, into cs: Int32, context: BindingContext) {
    // `cs.null`: a value an `inspect` function returns for JSON's null.
    lua.register(LuaTypeInfo(name: "Null", describe: { _ in "cs.null" }))
    lua.push(object: NullValue.shared, as: "Null")
    lua.rawSet(cs, "null")
    lua.setFunction(cs, "view") { lua in
      try lua.checkTable(1, function: "view")
      return try view(lua, context, 1)
    }
    lua.setFunction(cs, "compose") { lua in
      try lua.checkTable(1, function: "compose")
      try lua.checkTable(2, function: "compose")
      try prelude(lua, context, "compose", results: 1) {
        lua.pushValue(1)
        lua.pushValue(2)
        lua.newTable(array: Int32(OptionTable.view.keys.count))
        for (i, k) in OptionTable.view.keys.enumerated() { lua.push(k); lua.rawSet(-2, index: i + 1) }
        return 3
      }
      return try view(lua, context, lua.top)
    }
    installHelpers(lua, into: cs, context: context)
  }

  /// `cs.view{}` of the table at `index`.
  static func view(_ lua: LuaState, _ context: BindingContext, _ index: Int32) throws -> Int32 {
    let o = try LuaOptions(lua, index, .composition)
    let name = try o.string("kind") ?? "view"
    guard !name.isEmpty, name.count <= 64, name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" || $0 == "-" }) else {
      throw LuaError("bad field 'kind' in cs.view (a name of letters, digits, '_' and '-', at most 64)")
    }
    var spec = ViewSpec(name: name)
    spec.clips = try o.bool("clip") ?? false
    spec.scrolls = try o.choice("scrolls", ScrollAxis.self)
    if let options = try o.with("options", { idx throws -> [String: PresetValue] in
      guard lua.type(at: idx) == .table else { throw o.fieldError("options", expected: "table") }
      var out: [String: PresetValue] = [:]
      try lua.forEach(idx) {
        guard lua.type(at: -2) == .string, let k = lua.toString(-2) else { throw LuaError("bad field 'options' in cs.view (keys are names)") }
        switch lua.type(at: -1) {
        case .number: out[k] = .number(lua.toNumber(-1) ?? 0)
        case .string: out[k] = .string(lua.toString(-1) ?? "")
        case .boolean: out[k] = .bool(lua.toBool(-1) ?? false)
        default: throw LuaError("bad field 'options' in cs.view (option '\(k)' must be a number, string or boolean)")
        }
      }
      return out
    }) { spec.options = options }
    // Messages about the children name the composition's constructor (`cs.tabs`).
    let children = try ViewBindings.children(lua, o, context, owner: name == "view" ? "cs.view" : "cs.\(name)")
    spec.explicitOptions = Set(spec.options.keys)
    let node = Node(id: try o.string("id"), kind: .view(spec), style: try ViewBindings.style(o), children: children)
    let script = ViewScript(node: node, number: context.viewScripts.count + 1)
    context.viewScripts.append(script)
    context.viewScript[ObjectIdentifier(node)] = script
    try attach(lua, o, script, node, context)
    return ViewBindings.push(lua, try ViewBindings.finish(node, o, context))
  }

  static func installHelpers(_ lua: LuaState, into cs: Int32, context: BindingContext) {
    lua.setFunction(cs, "options") { lua in
      let owner = try lua.checkString(1, function: "options")
      try lua.checkTable(2, function: "options")
      if !lua.isNil(3), lua.type(at: 3) != .string { try lua.checkTable(3, function: "options") }
      let viewKeys = lua.isNil(4) ? true : (lua.toBool(4) ?? true)
      // A script's own composition's options are not the API's: the definitions test
      // (which observes every options table opened) hears only the built-ins'.
      let observer = LuaOptions.observer
      if !lua.isBuiltIn(level: 1) { LuaOptions.observer = nil }
      defer { LuaOptions.observer = observer }
      // Placed like cs.error: at the script line that called the composition.
      do { try check(lua, owner: owner, options: 2, schema: 3, viewKeys: viewKeys) } catch let e as LuaError where e.wantsLocation {
        throw LuaError(lua.where(level: lua.isBuiltIn(level: 1) ? 1 : 2) + " " + e.message, wantsLocation: false)
      }
      lua.pushValue(2)
      return 1
    }
    lua.setFunction(cs, "measure") { lua in
      let text = try lua.checkString(1, function: "measure")
      var font = Font(size: 14, weight: .regular)
      if !lua.isNil(2) {
        try lua.checkTable(2, function: "measure")
        let o = try LuaOptions(lua, 2, .measure)
        font.size = try o.number(OptionTable.measure.spec("size")) ?? 14
        font.weight = try o.choice("weight", Font.Weight.self) ?? .regular
      }
      guard let m = context.measurer else { throw LuaError("cs.measure works once the scene is built (in layout, draw, handlers, cs.call and update)") }
      let s = m.measure(text, font: font)
      lua.push(s.width)
      lua.push(s.height)
      return 2
    }
    lua.setFunction(cs, "rubberband") { lua in
      let x = try lua.checkNumber(1, function: "rubberband"), lo = try lua.checkNumber(2, function: "rubberband")
      let hi = try lua.checkNumber(3, function: "rubberband"), margin = try lua.checkNumber(4, function: "rubberband")
      lua.push(rubberBand(x, lo, hi, margin: margin))
      return 1
    }
    lua.setFunction(cs, "error") { lua in
      let message = try lua.checkString(1, function: "error")
      // From a built-in composition, its own frame (the place is then its caller's).
      let level = Int32(try lua.optNumber(2, function: "error") ?? (lua.isBuiltIn(level: 1) ? 1 : 2))
      throw LuaError(lua.where(level: max(1, min(level, 100))) + " " + message, wantsLocation: false)
    }
  }

  /// Loads the prelude with the host's functions; keeps its module table in the context.
  /// It can fail like any script code (no memory left under --max-memory): the error is the
  /// caller's, and the next cs.view tries again.
  static func loadPrelude(_ lua: LuaState, _ context: BindingContext) throws {
    let base = lua.top
    do {
      try lua.load(Array(ViewStatePrelude.source.utf8), chunkName: "=chartscene/view")
      lua.newTable()
      let p = context.presentation
      lua.setFunction(lua.top, "number") { [weak context] lua in
        guard let context, let v = script(lua, context) else { return 0 }
        if v.time != nil { throw LuaError("a layout or draw function cannot change the state (change it in a handler, cs.call or update)") }
        let value = lua.toNumber(4) ?? 0
        let end = p.setState(Presentation.StateKey(view: v.number, path: statePath(lua)), value, old: lua.toNumber(5))
        if case .view(let spec)? = v.node?.kind { spec.layout?.invalidate(movingUntil: end) }
        return 0
      }
      lua.setFunction(lua.top, "touched") { [weak context] lua in
        guard let context, let v = script(lua, context), case .view(let spec)? = v.node?.kind else { return 0 }
        if v.time != nil { throw LuaError("a layout or draw function cannot change the state (change it in a handler, cs.call or update)") }
        spec.layout?.invalidate()
        return 0
      }
      lua.setFunction(lua.top, "before") { [weak context] lua in
        guard let context, let v = script(lua, context) else { return 0 }
        if v.time != nil { throw LuaError("a layout or draw function cannot change the state (change it in a handler, cs.call or update)") }
        try before(context, v, value: lua.toNumber(2), old: lua.toNumber(3))
        return 0
      }
      lua.setFunction(lua.top, "shown") { [weak context] lua in
        guard let context, let v = script(lua, context) else { lua.pushValue(4); return 1 }
        let key = Presentation.StateKey(view: v.number, path: statePath(lua))
        // A number that never moved is the one set (an integer stays one).
        guard p.isStateAnimated(key) else { lua.pushValue(4); return 1 }
        lua.push(p.state(key, model: lua.toNumber(4) ?? 0, at: v.time ?? p.now))
        return 1
      }
      try lua.pcall(nargs: 1, nresults: 1)
      context.viewPrelude = lua.ref()
    } catch {
      lua.pop(lua.top - base)
      // Placed at the script's line that made the view, not inside the prelude.
      var message = error.message
      if message.hasPrefix("chartscene/view:"), let colon = message.firstIndex(of: " ") { message = String(message[message.index(after: colon)...]) }
      throw LuaError(message)
    }
  }

  /// The path of a state number from the prelude's `host.number(view, path, key, ...)` and
  /// `host.shown(view, path, key, ...)`: the keys of the table `path` (argument 2), then `key`
  /// (argument 3), each as Lua has it (never joined into a string, where keys could meet).
  static func statePath(_ lua: LuaState) -> [Presentation.StateKey.Part] {
    var out: [Presentation.StateKey.Part] = []
    if lua.type(at: 2) == .table {
      let n = lua.rawLength(2)
      out.reserveCapacity(n + 1)
      for i in 0..<n {
        lua.rawGet(2, index: i + 1)
        out.append(statePart(lua, -1))
        lua.pop()
      }
    }
    out.append(statePart(lua, 3))
    return out
  }

  static func statePart(_ lua: LuaState, _ i: Int32) -> Presentation.StateKey.Part {
    switch lua.type(at: i) {
    case .string: return .name(lua.toString(i) ?? "")
    case .number:
      if let k = lua.toInteger(i) { return .index(k) }
      return .number(lua.toNumber(i) ?? 0)
    case .boolean: return .flag(lua.toBool(i) ?? false)
    default: return .object(lua.address(at: i))
    }
  }

  /// A change of a state key that moves the children by identity: inside a `cs.animate`
  /// block, the first one notes where the children are laid out now (the model's places,
  /// before the change); the block's end starts their motion (`flush`).
  static func before(_ context: BindingContext, _ v: ViewScript, value: Double?, old: Double?) throws {
    let p = context.presentation
    guard let block = context.animateBlock, p.animates, let tr = p.override, tr.duration > 0 else { return }
    if v.pending == nil {
      guard let node = v.node, case .view(let spec) = node.kind, let layout = spec.layout, let size = layout.size else { return }
      let records = try layout.children(width: size.width, height: size.height, t: p.now)
      let ids = live(node).map { ObjectIdentifier($0) }
      var byID: [ObjectIdentifier: ChildLayout] = [:]
      for (k, id) in ids.enumerated() { byID[id] = k < records.count ? records[k] : ChildLayout() }
      v.pending = PendingMotion(block: block, transition: tr, before: ViewLayout.values(records, ids, content: size), records: byID)
      context.pendingMotions.append(v)
    }
    if v.pending?.rate == nil, let speed = p.overrideVelocity, let value, let old, value != old {
      v.pending?.rate = speed / (value - old)
    }
  }

  /// The end of `cs.animate` block `block`: each view it changed lays out once for the new
  /// state, and its children move from where they were to there.
  static func flush(_ context: BindingContext, block: Int) throws {
    let p = context.presentation
    let mine = context.pendingMotions.filter { $0.pending?.block == block }
    guard !mine.isEmpty else { return }
    context.pendingMotions.removeAll { $0.pending?.block == block }
    for v in mine {
      guard let m = v.pending else { continue }
      v.pending = nil
      guard let node = v.node, case .view(let spec) = node.kind, let layout = spec.layout, let size = layout.size else { continue }
      let records = try layout.children(width: size.width, height: size.height, t: p.now)
      let after = ViewLayout.values(records, live(node).map { ObjectIdentifier($0) }, content: size)
      if let end = layout.animate(from: m.before, to: after, entering: m.entering, content: size, at: p.now, m.transition, rate: m.rate) {
        p.childMotionsUntil = max(p.childMotionsUntil, end)
      }
    }
  }

  /// A block that failed: its views forget what they noted.
  static func drop(_ context: BindingContext, block: Int) {
    for v in context.pendingMotions where v.pending?.block == block { v.pending = nil }
    context.pendingMotions.removeAll { $0.pending == nil }
  }

  /// A view's children that are not leaving (the layout's `self.children`).
  static func live(_ node: Node) -> ArraySlice<Node> {
    guard case .view(let spec) = node.kind, let leaving = spec.layout?.leaving.count, leaving > 0 else { return node.children[...] }
    return node.children.prefix(node.children.count - leaving)
  }

  /// The children as views, their ids and kinds (arrays the layout records are made from).
  static func childLists(_ lua: LuaState, _ v: ViewScript, _ node: Node) {
    for r in [v.views, v.ids, v.kinds] where r != 0 { lua.unref(r) }
    let children = Array(live(node))
    for (k, fill) in [(0, { (c: Node) in ViewBindings.pushExisting(lua, c) }), (1, { c in if c.explicitID { lua.push(c.id) } else { lua.push(false) } }), (2, { c in lua.push(c.kind.name) })] {
      lua.newTable(array: Int32(children.count))
      for (i, c) in children.enumerated() { fill(c); lua.rawSet(-2, index: i + 1) }
      let r = lua.ref()
      if k == 0 { v.views = r } else if k == 1 { v.ids = r } else { v.kinds = r }
    }
  }

  /// `self:add` and `self:remove`, made once per script.
  static func pushMethod(_ lua: LuaState, _ context: BindingContext, _ name: String) {
    if let r = context.viewMethods[name] { lua.pushRef(r); return }
    lua.push(function: name) { [weak context] lua in
      guard let context else { return 0 }
      if name == "add" { return try add(lua, context) }
      return try remove(lua, context)
    }
    lua.pushValue(-1)
    context.viewMethods[name] = lua.ref()
  }

  /// The view a method is called on (`self:add(...)`), with its script.
  static func receiver(_ lua: LuaState, _ context: BindingContext, _ name: String) throws -> (Node, ViewScript) {
    guard let n = lua.object(at: 1, ViewBindings.typeName) as? Node, let v = context.viewScript[ObjectIdentifier(n)] else {
      throw LuaError("bad self to '\(name)' (a cs.view expected: call it as self:\(name)(...))")
    }
    if v.time != nil { throw LuaError("a layout or draw function cannot change the children (\(name) them in a handler, cs.call or update)") }
    return (n, v)
  }

  /// True inside a `cs.animate` block that moves things (a change there is animated).
  static func animating(_ context: BindingContext) -> Bool {
    let p = context.presentation
    return context.animateBlock != nil && p.animates && (p.override?.duration ?? 0) > 0
  }

  /// `self:add(view [, index])`: a new child (at `index`, from 1; default last). Inside
  /// `cs.animate` it enters with its `transition`.
  static func add(_ lua: LuaState, _ context: BindingContext) throws -> Int32 {
    let (n, v) = try receiver(lua, context, "add")
    guard let child = lua.object(at: 2, ViewBindings.typeName) as? Node else { throw lua.argumentError(2, function: "add", expected: "view") }
    let count = live(n).count
    var index = count + 1
    if !lua.isNil(3) {
      guard let d = lua.toNumber(3), let k = LuaOptions.integer(d), k >= 1, k <= count + 1 else {
        throw lua.argumentError(3, function: "add", "an index from 1 to \(count + 1) expected")
      }
      index = k
    }
    if child.levels + 1 >= Node.maxLevels { throw LuaError("views are nested more than \(Node.maxLevels) levels deep in add") }
    var ids: [String: Node] = [:]
    var views = 0
    let leaving = Set(n.children.suffix(n.children.count - count).map { ObjectIdentifier($0) })
    func collect(_ x: Node) {
      if leaving.contains(ObjectIdentifier(x)) { return }
      views += 1
      ids[x.id] = x
      x.children.forEach(collect)
    }
    if let scene = context.scene { collect(scene.root) } else { collect(n) }
    try ViewBindings.checkViewCount(views + child.views, "add")
    // The new views' ids: their own, else one made from the view's (unique in the scene).
    context.addedViews += 1
    let base = "\(n.id)+\(context.addedViews)"
    var fresh: Set<String> = []
    var clash: String?
    func name(_ x: Node, _ path: String) {
      if !x.explicitID { x.id = "\(x.kind.name)@\(path)" }
      if ids[x.id] != nil || !fresh.insert(x.id).inserted { clash = clash ?? x.id }
      for (k, c) in x.children.enumerated() { name(c, "\(path)/\(k)") }
    }
    name(child, base)
    if let clash { throw LuaError("add: the scene already has a view with id '\(clash)' (ids must be unique)") }
    guard context.adopt(child) else { throw LuaError("add: the view is already placed in the scene (a view can be placed once)") }
    if let scene = context.scene {
      let f = scene.format
      child.walk { x in
        switch x.kind {
        case .chart(var spec): spec.format = f; x.kind = .chart(spec)
        case .card(var spec): spec.format = f; x.kind = .card(spec)
        default: break
        }
      }
    }
    // Its place before the change, then the change.
    let animated = animating(context)
    if animated { try before(context, v, value: nil, old: nil) }
    // A child leaving with the same id is gone now.
    if case .view(let spec) = n.kind, let layout = spec.layout {
      let same = Set(n.children.suffix(n.children.count - count).filter { $0.id == child.id }.map { ObjectIdentifier($0) })
      if !same.isEmpty {
        layout.leaving.removeAll { same.contains($0.node) }
        n.children.removeAll { same.contains(ObjectIdentifier($0)) }
      }
    }
    n.children.insert(child, at: index - 1)
    if animated, v.pending != nil { v.pending?.entering[ObjectIdentifier(child)] = child.style.transition ?? .opacity }
    childLists(lua, v, n)
    if case .view(let spec) = n.kind { spec.layout?.invalidate() }
    return 0
  }

  /// `self:remove(id)`: the child with that id goes; inside `cs.animate` it leaves with its
  /// `transition` first.
  static func remove(_ lua: LuaState, _ context: BindingContext) throws -> Int32 {
    let (n, v) = try receiver(lua, context, "remove")
    let id = try lua.checkString(2, function: "remove")
    let children = live(n)
    guard let k = children.firstIndex(where: { $0.id == id }) else {
      let names = children.map { "'\($0.id)'" }.prefix(8).joined(separator: ", ")
      throw LuaError("remove: no child '\(id)' in the view (its children are \(names.isEmpty ? "none" : names))")
    }
    let child = n.children[k]
    let key = ObjectIdentifier(child)
    let animated = animating(context)
    if animated { try before(context, v, value: nil, old: nil) }
    n.children.remove(at: k)
    context.adopted.remove(key)  // it may be added again
    if animated, case .view(let spec) = n.kind, let layout = spec.layout, let m = v.pending, let record = m.records[key], let size = layout.size {
      if m.entering[key] != nil {
        v.pending?.entering[key] = nil  // added and removed in one block: never shown
      } else {
        let from = ChildValues(record, content: size)
        let away = (child.style.transition ?? .opacity).away(from, content: size)
        layout.leaving.append(LeavingChild(node: key, record: record, delta: away - from, at: context.presentation.now, m.transition))
        n.children.append(child)
        context.presentation.childMotionsUntil = max(context.presentation.childMotionsUntil, layout.leaving.last!.end)
      }
    }
    childLists(lua, v, n)
    if case .view(let spec) = n.kind { spec.layout?.invalidate() }
    return 0
  }

  static func script(_ lua: LuaState, _ context: BindingContext) -> ViewScript? {
    guard let n = lua.toNumber(1), let k = LuaOptions.integer(n), k >= 1, k <= context.viewScripts.count else { return nil }
    return context.viewScripts[k - 1]
  }

  /// Calls a function of the prelude with `args` pushed by `push`; leaves `results` on the stack.
  static func prelude(_ lua: LuaState, _ context: BindingContext, _ name: String, results: Int32, _ push: () -> Int32) throws {
    // Loaded on first use: a script without compositions pays nothing for it.
    if context.viewPrelude == 0 { try loadPrelude(lua, context) }
    lua.pushRef(context.viewPrelude)
    lua.rawGet(-1, name)
    let fn = lua.top
    let n = push()
    try lua.pcall(nargs: n, nresults: results)
    // Drop the module table below the results.
    lua.remove(fn - 1)
  }

  /// Reads `state`, `layout` and `inspect`, makes the state proxies and gives the node its layout.
  static func attach(_ lua: LuaState, _ o: LuaOptions, _ v: ViewScript, _ node: Node, _ context: BindingContext) throws {
    _ = try o.with("state") { idx throws in
      guard lua.type(at: idx) == .table else { throw o.fieldError("state", expected: "table") }
    }
    let options = o.index
    try checkAnimates(lua, o)
    try prelude(lua, context, "state", results: 3) {
      lua.push(v.number)
      lua.rawGet(options, "state")
      lua.rawGet(options, "animates")
      return 3
    }
    lua.pop()  // the plain table
    v.shown = lua.ref()
    v.state = lua.ref()
    func function(_ key: String) throws -> Int32? {
      try o.with(key) { idx throws -> Int32 in
        guard lua.type(at: idx) == .function else { throw o.fieldError(key, expected: "function") }
        lua.pushValue(idx)
        return lua.ref()
      }
    }
    v.layout = try function("layout")
    v.inspect = try function("inspect")
    let draw = try function("draw")
    childLists(lua, v, node)
    guard case .view(var spec) = node.kind else { return }
    if let layoutRef = v.layout {
      spec.layout = ViewLayout { [weak lua, weak v, weak context] w, h, t in
        guard let lua, let v, let context, let node = v.node else { return [] }
        return try layout(lua, context, v, node, layoutRef, w, h, t)
      }
    }
    if let draw {
      // The canvas function (g, w, h, t) with the view bound as `self`.
      try prelude(lua, context, "bind", results: 1) {
        lua.pushRef(draw)
        ViewBindings.pushExisting(lua, node)
        return 2
      }
      lua.unref(draw)
      let bound = lua.ref()
      spec.draw = { [weak lua, weak v] w, h, t, theme in
        guard let lua else { return [] }
        // Drawn as shown at t, and the state cannot change while drawing (frames rendered
        // apart must equal frames rendered in one run).
        v?.time = t
        defer { v?.time = nil }
        return try CanvasBinding.run(lua, bound, width: w, height: h, time: t, theme: theme)
      }
    }
    spec.inspect = { [weak lua, weak v, weak context] t in
      guard let lua, let v, let context, let node = v.node else { return [] }
      return (try? inspect(lua, context, v, node, t)) ?? []
    }
    node.kind = .view(spec)
  }

  /// `animates`: true, or keys of the state that hold numbers (or tables of numbers), which
  /// then move by value (SwiftUI's animatableData) instead of moving the children by identity.
  static func checkAnimates(_ lua: LuaState, _ o: LuaOptions) throws {
    let options = o.index
    _ = try o.with("animates") { idx throws in
      if lua.type(at: idx) == .boolean { return }
      guard lua.type(at: idx) == .table else { throw o.fieldError("animates", expected: "true or a list of state keys") }
      let n = lua.rawLength(idx)
      var count = 0
      lua.forEach(idx) { count += 1 }
      guard count == n else { throw LuaError("bad field 'animates' in \(o.owner) (a list of state keys expected)") }
      lua.rawGet(options, "state")
      let state = lua.top
      defer { lua.pop() }
      for i in 0..<n {
        lua.rawGet(idx, index: i + 1)
        defer { lua.pop() }
        guard lua.type(at: -1) == .string, let key = lua.toString(-1) else {
          throw LuaError("bad field 'animates' in \(o.owner) (state keys expected, got \(lua.valueTypeName(at: -1)) at [\(i + 1)])")
        }
        let kind: LuaType = lua.type(at: state) == .table ? lua.rawGet(state, key) : .nil
        if lua.type(at: state) == .table { lua.pop() }
        switch kind {
        case .number, .table: break
        case .nil: throw LuaError("bad field 'animates' in \(o.owner) (the state has no key '\(key)')")
        default:
          throw LuaError("bad field 'animates' in \(o.owner) ('\(key)' is a \(kind == .string ? "string" : kind == .boolean ? "boolean" : "value") in the state, not a number or a table of numbers)")
        }
      }
    }
  }

  /// Runs the script's layout for a content size at t: the children as it placed them.
  static func layout(_ lua: LuaState, _ context: BindingContext, _ v: ViewScript, _ node: Node, _ ref: Int32, _ w: Double, _ h: Double, _ t: Double) throws -> [ChildLayout] {
    let base = lua.top
    defer { lua.pop(lua.top - base) }
    try prelude(lua, context, "records", results: 2) {
      lua.pushRef(v.views); lua.pushRef(v.ids); lua.pushRef(v.kinds)
      return 3
    }
    let values = lua.top
    lua.pushValue(values - 1)
    v.records = lua.ref()
    v.time = t
    defer {
      if let r = v.records { lua.unref(r) }
      v.records = nil
      v.time = nil
    }
    lua.pushRef(ref)
    ViewBindings.pushExisting(lua, node)
    lua.push(w)
    lua.push(h)
    do { try lua.pcall(nargs: 3, nresults: 0) } catch {
      throw LuaError(GestureBinding.placed(error.message, "in layout at \(GestureBinding.seconds(t)) s"), wantsLocation: false)
    }
    var out: [ChildLayout] = []
    for i in 0..<node.children.count {
      lua.rawGet(values, index: i + 1)
      defer { lua.pop() }
      out.append(child(lua, lua.top))
    }
    return out
  }

  /// One child's record as the prelude normalised it.
  static func child(_ lua: LuaState, _ t: Int32) -> ChildLayout {
    var c = ChildLayout()
    func numbers(_ key: String) -> [Double]? {
      guard lua.rawGet(t, key) == .table else { lua.pop(); return nil }
      var out: [Double] = []
      for i in 1...4 {
        lua.rawGet(-1, index: i)
        if let d = lua.toNumber(-1) { out.append(d) }
        lua.pop()
      }
      lua.pop()
      return out
    }
    func number(_ key: String) -> Double? { lua.rawGet(t, key); defer { lua.pop() }; return lua.toNumber(-1) }
    func bool(_ key: String) -> Bool { lua.rawGet(t, key); defer { lua.pop() }; return lua.toBool(-1) ?? false }
    if let f = numbers("frame"), f.count == 4 { c.frame = Rect(f[0], f[1], f[2], f[3]) }
    if let o = numbers("offset"), o.count == 2 { c.offset = Point(o[0], o[1]) }
    if let s = number("scale") { c.scale = s }
    if let a = number("opacity") { c.opacity = a }
    if let z = number("z") { c.z = z }
    c.hidden = bool("hidden")
    c.clip = bool("clip")
    c.depth = number("depth") ?? 0
    c.passing = number("passing") ?? 0
    c.sheet = number("sheet") ?? 0
    c.modal = bool("modal")
    if lua.rawGet(t, "rotation3d") == .table {
      lua.rawGet(-1, index: 1); c.turn = lua.toNumber(-1) ?? 0; lua.pop()
      lua.rawGet(-1, index: 2); c.turnAboutX = lua.toBool(-1) ?? false; lua.pop()
      lua.rawGet(-1, index: 3); c.perspective = lua.toNumber(-1); lua.pop()
    }
    lua.pop()
    return c
  }

  /// The view's `--inspect` fields at t: what its `inspect` function returns, then `state`.
  static func inspect(_ lua: LuaState, _ context: BindingContext, _ v: ViewScript, _ node: Node, _ t: Double) throws -> [(String, OrderedJSON)] {
    let base = lua.top
    defer { lua.pop(lua.top - base) }
    v.time = t
    defer { v.time = nil }
    var out: [(String, OrderedJSON)] = []
    if let ref = v.inspect {
      lua.pushRef(ref)
      ViewBindings.pushExisting(lua, node)
      try lua.pcall(nargs: 1, nresults: 1)
      if case .object(let fields) = json(lua, lua.top, depth: 0), lua.type(at: -1) == .table { out += fields }
      lua.pop()
    }
    try prelude(lua, context, "plain", results: 1) { lua.pushRef(v.shown); return 1 }
    out.append(("state", json(lua, lua.top, depth: 0)))
    return out
  }

  /// A Lua value as JSON: a table with keys 1…n is an array, other tables objects (keys sorted).
  static func json(_ lua: LuaState, _ i: Int32, depth: Int) -> OrderedJSON {
    switch lua.type(at: i) {
    case .number: return lua.isInteger(i) ? .pixels(lua.toNumber(i) ?? 0) : .number(lua.toNumber(i) ?? 0)
    case .string: return .string(lua.toString(i) ?? "")
    case .boolean: return .bool(lua.toBool(i) ?? false)
    case .table:
      guard depth < 32 else { return .null }
      let t = lua.absIndex(i)
      var fields: [(String, OrderedJSON)] = []
      var count = 0
      lua.forEach(t) {
        count += 1
        guard count <= 10_000 else { return }
        let key: String
        if lua.type(at: -2) == .number { key = LuaOptions.text(lua.toNumber(-2) ?? 0) } else { key = lua.toString(-2) ?? "?" }
        fields.append((key, json(lua, -1, depth: depth + 1)))
      }
      let n = lua.rawLength(t)
      if n > 0, n == fields.count {
        var items: [OrderedJSON] = []
        for k in 1...n {
          lua.rawGet(t, index: k)
          items.append(json(lua, -1, depth: depth + 1))
          lua.pop()
        }
        return .array(items)
      }
      return .object(fields.sorted { $0.0 < $1.0 })
    default: return .null
    }
  }

  /// `cs.options(owner, t, schema)`: checks a composition's options as the built-in views'
  /// are checked (unknown keys with a suggestion, types, ranges); the common view keys pass.
  /// `schema` is a table (a script's own composition), or the name of a declared table
  /// (`"cs.tabs tab"`); without it, the owner's declared table (`cs.options("cs.list", t)`).
  static func check(_ lua: LuaState, owner: String, options: Int32, schema: Int32, viewKeys: Bool = true) throws {
    let table: OptionTable
    if lua.type(at: schema) == .table {
      table = try OptionTable.fromLua(lua, schema: schema, owner: owner, viewKeys: viewKeys)
    } else {
      let name = lua.toString(schema) ?? owner
      guard let declared = OptionTable.named(name) else {
        throw LuaError("cs.options: no declared options named '\(name)' (give a schema table)")
      }
      table = declared
    }
    // As for any composition: a view's children may come in the array part.
    let o = try LuaOptions(lua, options, table, owner: owner, allowsArray: table.viewKeys || table.arrayOf != nil)
    try o.check(table)
  }
}
