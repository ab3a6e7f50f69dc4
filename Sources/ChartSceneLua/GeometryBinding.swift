import ChartModel
import Drawing
import LuaKit
import SceneGraph

/// `cs.chartGeometry(id [, view])`: where chart `id` draws its data now (`ChartGeometry`), as
/// a table: `plot = {x, y, width, height}`, `window = {from, to}` (UNIX ms), `data` (its set), and the
/// functions `x(time)`, `y(value [, "right"])`, `timeAt(x)`, `valueAt(y [, "right"])`. In scene
/// pixels (the layout's, before the offsets, scales and 3D turns around the chart), or
/// relative to `view`'s frame when one is given (a canvas over the chart).
enum GeometryBinding {
  /// Adds the mapping functions to a geometry table from its numbers: the formulas of
  /// `ChartGeometry.x`, `.y`, `.time(atX:)` and `.value(atY:)`, as Lua closures (collected
  /// with the table, unlike host functions, which live as long as the state).
  static let maker = """
    return function(g, ox, oy, lr, lo, hi, rlo, rhi)
      local p, from, to = g.plot, g.window.from, g.window.to
      local function range(side)
        if side == "right" and rlo then return rlo, rhi end
        if side ~= nil and side ~= "right" and side ~= "left" then error("bad argument #2 (\\"left\\" or \\"right\\" expected)", 3) end
        return lo, hi
      end
      local function num(v, what)
        if type(v) ~= "number" then error("bad argument #1 (" .. what .. " expected, got " .. type(v) .. ")", 3) end
        return v
      end
      g.x = function(t) num(t, "time")
        if to > from then return p.x + (t - from) / (to - from) * p.width end
        return p.x + p.width / 2
      end
      g.y = function(v, side) num(v, "value")
        local a, b = range(side)
        if b > a then return lr.y + lr.height - (v - a) / (b - a) * lr.height end
        return lr.y + lr.height / 2
      end
      g.timeAt = function(x) num(x, "x")
        if p.width > 0 then return from + (x - p.x) / p.width * (to - from) end
        return from
      end
      g.valueAt = function(y, side) num(y, "y")
        local a, b = range(side)
        if lr.height > 0 then return a + (lr.y + lr.height - y) / lr.height * (b - a) end
        return a
      end
      return g
    end
    """

  static func install(_ lua: LuaState, into cs: Int32, context: BindingContext) {
    var makerRef: Int32 = 0
    do {
      try lua.load(Array(maker.utf8), chunkName: "=chartGeometry")
      try lua.pcall(nargs: 0, nresults: 1)
      makerRef = lua.ref()
    } catch { return }
    lua.setFunction(cs, "chartGeometry") { lua in
      let id = try lua.checkString(1, function: "chartGeometry")
      guard let scene = context.scene, let measurer = context.measurer else {
        throw LuaError("cs.chartGeometry: the scene is not laid out yet (call it from a draw, update, handler or timeline function)")
      }
      var origin = Point(0, 0)
      if !lua.isNil(2) {
        guard let view = lua.object(at: 2, ViewBindings.typeName) as? Node else {
          throw lua.argumentError(2, function: "chartGeometry", expected: "view")
        }
        origin = Point(view.frame.x, view.frame.y)
      }
      var found: Node?
      scene.root.walk { n in if found == nil, n.id == id, n.chart != nil { found = n } }
      guard let node = found, let spec = node.chart else {
        var charts: [String] = []
        scene.root.walk { n in if n.chart != nil, n.explicitID { charts.append("'\(n.id)'") } }
        throw LuaError("cs.chartGeometry: no chart '\(id)'" + (charts.isEmpty ? "" : " (charts: " + charts.joined(separator: ", ") + ")"))
      }
      let isCard: Bool = { if case .card = node.kind { return true }; return false }()
      let p = scene.presentation
      let g = ChartGeometry(spec: spec, card: isCard, frame: node.contentFrame, measurer: measurer, presentation: p, key: ChartKey(node.identity), t: p.now)
      func rect(_ r: Rect) {
        lua.newTable(hash: 4)
        for (k, v) in [("x", r.x - origin.x), ("y", r.y - origin.y), ("width", r.width), ("height", r.height)] { lua.push(v); lua.rawSet(-2, k) }
      }
      lua.pushRef(makerRef)
      lua.newTable(hash: 6)
      rect(g.plot); lua.rawSet(-2, "plot")
      lua.newTable(hash: 2)
      lua.push(g.from); lua.rawSet(-2, "from")
      lua.push(g.to); lua.rawSet(-2, "to")
      lua.rawSet(-2, "window")
      // The set the chart was given (a script or module that knows only the chart's id moves its window with it).
      lua.push(object: spec.base, as: ChartSetBinding.typeName)
      lua.rawSet(-2, "data")
      lua.push(origin.x); lua.push(origin.y)
      rect(g.linesRect)
      lua.push(g.yRange.min); lua.push(g.yRange.max)
      if let r = g.rightRange { lua.push(r.min); lua.push(r.max) } else { lua.pushNil(); lua.pushNil() }
      try lua.pcall(nargs: 8, nresults: 1)
      return 1
    }
  }
}
