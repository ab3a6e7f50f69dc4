import Drawing
import LuaKit
import SceneGraph

/// Records the `g:` calls of a `cs.canvas` draw function into display items, so custom
/// drawing shows the same in PNG, SVG and PDF.
final class CanvasRecorder {
  let theme: Theme
  var items: [DisplayItem] = []
  var path = Path()
  var color: Color
  var lineWidth = 1.0
  /// How strokes end (`g:lineCap`); round by default. Not restored by g:restore.
  var lineCap = LineCap.round
  /// Per g:save() level: how many pushes (transforms, clips) to undo on g:restore().
  var levels: [(pushes: [DisplayItem], color: Color, lineWidth: Double, net: Affine)] = []
  /// All the transforms in force (translations and scales), to bound what they reach.
  var net = Affine.identity
  var pushes: [DisplayItem] = []

  init(theme: Theme) { self.theme = theme; self.color = theme.text }

  /// Shapes and texts one draw call may record (each is ~100 bytes; this bounds a frame).
  static let maxItems = 1_000_000
  /// Bytes of texts recorded, and bytes charged against the memory limit for this call
  /// (items, path elements, texts), given back when the call ends.
  var textBytes = 0
  var charged = 0
  static let itemBytes = MemoryLayout<DisplayItem>.stride
  static let elementBytes = MemoryLayout<Path.Element>.stride
  /// What the recording holds now: its items, the path being built, the texts.
  var footprint: Int { items.count &* CanvasRecorder.itemBytes &+ path.elements.count &* CanvasRecorder.elementBytes &+ textBytes }

  func push(_ item: DisplayItem) { items.append(item); pushes.append(item) }

  func unwind(_ list: [DisplayItem]) {
    for item in list.reversed() {
      if case .pushClip = item { items.append(.popClip) } else { items.append(.popTransform) }
    }
  }

  func finish() -> [DisplayItem] {
    unwind(pushes)
    for level in levels.reversed() { unwind(level.pushes) }
    return items
  }
}

enum CanvasBinding {
  static let typeName = "Graphics"

  static func run(_ lua: LuaState, _ ref: Int32, width: Double, height: Double, time: Double, theme: Theme) throws -> [DisplayItem] {
    let recorder = CanvasRecorder(theme: theme)
    lua.pushRef(ref)
    lua.push(object: recorder, as: typeName)
    // The recorder lives for this call only (a `g` kept by the script reaches nothing).
    defer { lua.forget(object: recorder, footprint: 1024 + recorder.charged) }
    lua.push(width); lua.push(height); lua.push(time)
    try lua.pcall(nargs: 4, nresults: 0)
    return recorder.finish()
  }

  static func g(_ lua: LuaState, _ fn: String) throws(LuaError) -> CanvasRecorder {
    let object = lua.object(at: 1, typeName)
    if object != nil && !(object is CanvasRecorder) {
      throw LuaError("'\(fn)' on a Graphics of an earlier draw call (draw with the g this call was given)")
    }
    guard let r = object as? CanvasRecorder else {
      throw lua.argumentError(1, function: fn, expected: "Graphics (call it as g:\(fn)(...))")
    }
    return r
  }

  static func colorArg(_ lua: LuaState, _ i: Int32, _ fn: String, theme: Theme) throws(LuaError) -> Color {
    let s = try lua.checkString(i, function: fn)
    guard let c = ColorRef(s)?.resolve(theme) else {
      throw lua.argumentError(i, function: fn, "'#RRGGBB', '#RRGGBBAA' or a theme colour expected, got '\(s)'")
    }
    return c
  }

  /// The largest coordinate, size or radius a canvas call takes (about 60 scene widths):
  /// numbers like 1e300 would make cairo loop for minutes over the segments of one arc.
  static let coordinateLimit = 1_000_000.0
  /// The least and largest scale a canvas's transforms may reach, all of them together.
  static let scaleLimits: ClosedRange<Double> = 1e-6...1e6

  static func numbers(_ lua: LuaState, _ fn: String, _ n: Int32, from first: Int32 = 2) throws(LuaError) -> [Double] {
    var out: [Double] = []
    for i in first..<(first + n) {
      out.append(try coordinate(lua, i, fn))
    }
    return out
  }

  /// A finite number within ±`coordinateLimit`.
  static func coordinate(_ lua: LuaState, _ i: Int32, _ fn: String) throws(LuaError) -> Double {
    let d = try lua.checkNumber(i, function: fn)
    guard d.isFinite else { throw lua.argumentError(i, function: fn, "finite number expected") }
    guard abs(d) <= coordinateLimit else {
      throw lua.argumentError(i, function: fn, "a number between -\(Int(coordinateLimit)) and \(Int(coordinateLimit)) expected, got \(LuaOptions.text(d))")
    }
    return d
  }

  static func register(_ lua: LuaState) {
    var methods: [(String, LuaFunction)] = []
    func method(_ name: String, _ body: @escaping (LuaState, CanvasRecorder) throws -> Void) {
      methods.append((name, { lua in
        let r = try g(lua, name)
        guard r.items.count < CanvasRecorder.maxItems else {
          throw LuaError("a canvas may draw at most \(CanvasRecorder.maxItems) shapes and texts a frame")
        }
        let before = r.footprint
        try body(lua, r)
        // What the call added is charged while the frame is drawn (a text per g:text).
        let grown = r.footprint - before
        if grown > 0 {
          r.charged += grown
          lua.charge(grown)
        }
        lua.pushValue(1)  // chainable
        return 1
      }))
    }
    method("color") { lua, r in r.color = try colorArg(lua, 2, "color", theme: r.theme) }
    method("lineWidth") { lua, r in
      let w = try lua.checkNumber(2, function: "lineWidth")
      guard w >= 0, w.isFinite else { throw lua.argumentError(2, function: "lineWidth", "non-negative number expected") }
      guard w <= coordinateLimit else { throw lua.argumentError(2, function: "lineWidth", "a number between 0 and \(Int(coordinateLimit)) expected, got \(LuaOptions.text(w))") }
      r.lineWidth = w
    }
    method("lineCap") { lua, r in
      let name = try lua.checkString(2, function: "lineCap")
      guard let cap = LineCap(rawValue: name) else { throw lua.argumentError(2, function: "lineCap", "'butt', 'round' or 'square' expected, got '\(name)'") }
      r.lineCap = cap
    }
    method("moveTo") { lua, r in let p = try numbers(lua, "moveTo", 2); r.path.move(to: Point(p[0], p[1])) }
    method("lineTo") { lua, r in let p = try numbers(lua, "lineTo", 2); r.path.line(to: Point(p[0], p[1])) }
    method("rect") { lua, r in
      let p = try numbers(lua, "rect", 4)
      let radius = lua.isNil(6) ? 0 : try coordinate(lua, 6, "rect")
      r.path.rect(Rect(p[0], p[1], p[2], p[3]), radius: max(0, radius))
    }
    method("circle") { lua, r in let p = try numbers(lua, "circle", 3); r.path.circle(Point(p[0], p[1]), abs(p[2])) }
    method("close") { _, r in r.path.close() }
    method("stroke") { _, r in
      if !r.path.isEmpty { r.items.append(.path(r.path, .stroke(r.color, width: r.lineWidth, cap: r.lineCap))) }
      r.path = Path()
    }
    method("fill") { _, r in
      if !r.path.isEmpty { r.items.append(.path(r.path, .fill(r.color))) }
      r.path = Path()
    }
    method("clip") { _, r in
      r.push(.pushClip(r.path))
      r.path = Path()
    }
    method("translate") { lua, r in
      let p = try numbers(lua, "translate", 2)
      var net = r.net
      net.tx += net.a * p[0]; net.ty += net.d * p[1]
      guard abs(net.tx) <= 16 * coordinateLimit, abs(net.ty) <= 16 * coordinateLimit else {
        throw LuaError("g:translate would move the canvas by more than \(Int(16 * coordinateLimit)) pixels in all")
      }
      r.net = net
      r.push(.pushTransform(.translation(p[0], p[1])))
    }
    method("scale") { lua, r in
      let sx = try lua.checkNumber(2, function: "scale")
      let sy = lua.isNil(3) ? sx : try lua.checkNumber(3, function: "scale")
      for (i, v) in [(Int32(2), sx), (Int32(3), sy)] where !(v.isFinite && scaleLimits.contains(abs(v))) {
        throw lua.argumentError(i, function: "scale", "a factor between 1e-06 and 1e+06 (or its negative) expected, got \(LuaOptions.text(v))")
      }
      var net = r.net
      net.a *= sx; net.d *= sy
      guard scaleLimits.contains(abs(net.a)), scaleLimits.contains(abs(net.d)) else {
        throw LuaError("g:scale would make the canvas's scale \(LuaOptions.text(abs(net.a))) x \(LuaOptions.text(abs(net.d))) in all (between 1e-06 and 1e+06 allowed)")
      }
      r.net = net
      r.push(.pushTransform(.scale(sx, sy)))
    }
    method("save") { _, r in
      r.levels.append((r.pushes, r.color, r.lineWidth, r.net))
      r.pushes = []
    }
    method("restore") { lua, r in
      guard let level = r.levels.popLast() else { throw LuaError("g:restore() without a matching g:save()") }
      r.unwind(r.pushes)
      r.pushes = level.pushes
      r.color = level.color
      r.lineWidth = level.lineWidth
      r.net = level.net
    }
    method("text") { lua, r in
      let s = try lua.checkString(2, function: "text")
      r.textBytes += s.utf8.count
      let x = try coordinate(lua, 3, "text"), y = try coordinate(lua, 4, "text")
      var font = Font(size: 14)
      var align = TextAlign.left
      if !lua.isNil(5) {
        try lua.checkTable(5, function: "text")
        let table = OptionTable.graphicsText
        let o = try LuaOptions(lua, 5, table)
        // This text's opacity, 0 to 1, times its colour's (a label fading while it moves).
        let opacity = try o.number(table.spec("opacity")) ?? 1
        if let size = try o.number(table.spec("size")) { font.size = size }
        font.weight = try o.choice("weight", Font.Weight.self) ?? .regular
        align = try o.choice("align", TextAlign.self) ?? .left
        if let c = try o.string("color") {
          guard let col = ColorRef(c) else { throw LuaError("bad colour '\(c)' in g:text") }
          r.items.append(.text(TextRun(s, font: font, color: col.resolve(r.theme).multipliedAlpha(opacity), origin: Point(x, y), align: align)))
          return
        }
        if opacity < 1 {
          r.items.append(.text(TextRun(s, font: font, color: r.color.multipliedAlpha(opacity), origin: Point(x, y), align: align)))
          return
        }
      }
      r.items.append(.text(TextRun(s, font: font, color: r.color, origin: Point(x, y), align: align)))
    }
    // A picture from cs.image, scaled to fit x, y, w, h (proportions kept, centred).
    method("image") { lua, r in
      guard let img = lua.object(at: 2, ImageBinding.typeName) as? ImageHandle else {
        throw lua.argumentError(2, function: "image", expected: "Image (from cs.image)")
      }
      let x = try coordinate(lua, 3, "image"), y = try coordinate(lua, 4, "image")
      let w = try coordinate(lua, 5, "image"), h = try coordinate(lua, 6, "image")
      var opacity = 1.0
      if !lua.isNil(7) {
        try lua.checkTable(7, function: "image")
        opacity = try LuaOptions(lua, 7, .graphicsImage).number(OptionTable.graphicsImage.spec("opacity")) ?? 1
      }
      r.items.append(.image(img.ref, Rect(x, y, max(0, w), max(0, h)), opacity: opacity))
    }
    lua.register(LuaTypeInfo(name: typeName, methods: methods))
  }
}
