import ChartSceneHost
import Foundation
import XCTest

/// Every binding works in a coroutine exactly as on the main thread (issue 37, item 4): a
/// Swift function reads its arguments from, and pushes its results on, the stack of the
/// thread that called it. Before, they used the main thread's stack: `require` in a
/// coroutine failed with "string expected, got thread", `cs.text{…}` got no argument, and a
/// thousand `cs.data.sample()` calls crashed the process.
final class CoroutineBindingTests: XCTestCase {
  let dir = ScriptFolder()

  /// The probe: every constructor and function of `cs` and every ChartSet method, called
  /// with good and with bad arguments, described as a string (results, or the error).
  static let probe = """
    local function describe(v, depth)
      depth = depth or 0
      local t = type(v)
      if t == "table" and depth < 3 then
        local keys = {}
        for k in pairs(v) do keys[#keys + 1] = tostring(k) end
        table.sort(keys)
        local parts = {}
        for _, k in ipairs(keys) do parts[#parts + 1] = k .. "=" .. describe(v[k] == nil and v[tonumber(k)] or v[k], depth + 1) end
        return "{" .. table.concat(parts, ",") .. "}"
      elseif t == "userdata" or t == "string" or t == "number" or t == "boolean" or t == "nil" then
        return tostring(v)
      end
      return t
    end
    local function probe(csvPath, pngPath)
      local out = {}
      local function try(name, f, ...)
        local r = table.pack(pcall(f, ...))
        local parts = {}
        for i = 1, r.n do parts[i] = describe(r[i]) end
        out[#out + 1] = name .. ": " .. table.concat(parts, " | ")
      end
      try("require", require, "chartscene")
      try("require string", function() return require("string") == string end)
      try("require missing", require, "no_such_module")
      try("cs.version", function() return cs.version end)
      try("cs.args", function() return cs.args end)
      try("cs.data.sample", function() local s = cs.data.sample(); return #s, s[1], s[5] end)
      -- A set of its own each time (sets are shared: a sample's state would carry over).
      local ok, set = pcall(cs.data.series, { name = "S", x = { 1546300800000, 1546387200000, 1546473600000 },
        lines = { { id = "y0", values = { 1, 2, 3 } }, { id = "y1", values = { 3, 1, 2 } } } })
      try("cs.data.series", function() return ok, set end)
      try("cs.data.series bad", cs.data.series, { x = 5 })
      try("cs.data.csv", cs.data.csv, csvPath)
      try("cs.data.csv missing", cs.data.csv, "missing.csv")
      try("cs.data.json missing", cs.data.json, "missing.json")
      try("cs.data.telegram missing", cs.data.telegram, "missing.json")
      try("ChartSet:range", set.range, set)
      try("ChartSet:setRange", set.setRange, set, 0.25, 0.75)
      try("ChartSet:range after", set.range, set)
      try("ChartSet:setRange bad", set.setRange, set, "x")
      try("ChartSet:hide", set.hide, set, "y0")
      try("ChartSet:isHidden", set.isHidden, set, "y0")
      try("ChartSet:show", set.show, set, "y0")
      try("ChartSet:toggle", set.toggle, set, "y1")
      try("ChartSet:toggle back", set.toggle, set, "y1")
      try("ChartSet:hide bad", set.hide, set, "nope")
      try("ChartSet:dataRange", set.dataRange, set)
      try("ChartSet:valuesAt", set.valuesAt, set, 0.5)
      try("ChartSet:zoom", set.zoom, set, "2019-01-01")
      try("ChartSet:zoomOut", set.zoomOut, set)
      try("ChartSet fields", function() return set.name, set.count, #set.lines, set.zoomed end)
      try("ChartSet field set", function() set.name = "x" end)
      try("cs.chart", cs.chart, { id = "c1", data = set, title = "T" })
      try("cs.chart bad", cs.chart, { data = set, titel = "T" })
      try("cs.card", cs.card, { id = "c2", data = set })
      try("cs.vstack", cs.vstack, { cs.spacer {}, cs.spacer {} })
      try("cs.hstack", cs.hstack, { cs.spacer {} })
      try("cs.zstack", cs.zstack, { cs.spacer {} })
      try("cs.spacer", cs.spacer)
      try("cs.text", cs.text, { text = "hello", id = "t" })
      try("cs.text bad", cs.text, 42)
      try("cs.canvas", cs.canvas, { draw = function(g) end })
      try("cs.list", cs.list, { cs.card { data = set }, cs.card { data = set } })
      try("cs.carousel", cs.carousel, { cs.card { data = set }, cs.card { data = set } })
      try("cs.cards", cs.cards, { cs.card { data = set }, cs.card { data = set } })
      try("cs.tabs", cs.tabs, { tabs = { { title = "A", view = cs.card { data = set } } } })
      try("cs.race", cs.race, { data = set, top = 2 })
      try("cs.image", cs.image, pngPath)
      try("cs.image missing", cs.image, "missing.png")
      try("cs.note", cs.note, { at = "2019-01-01", line = "y0", text = "N" })
      try("cs.band", cs.band, { from = "2019-01-01", to = "2019-01-05", text = "B" })
      try("cs.rule", cs.rule, { value = 5, text = "R" })
      try("cs.follow", function() return type(cs.follow { data = set, window = 0.2 }) end)
      try("cs.view", cs.view, { kind = "pair", state = { n = 1 }, cs.spacer {} })
      try("cs.view bad", cs.view, { state = { f = print } })
      try("cs.options", cs.options, "mine", { a = 1 }, { a = "number" })
      try("cs.options bad", cs.options, "mine", { a = "x" }, { a = "number" })
      try("cs.error", cs.error, "my message")
      try("cs.rubberband", cs.rubberband, 12, 0, 10, 5)
      try("cs.tap", cs.tap, { at = 1, target = "c1" })
      try("cs.longpress", cs.longpress, { at = 1, target = "c1" })
      try("cs.drag", cs.drag, { at = 1, target = "c1", by = { 0, 10 } })
      try("cs.scroll", cs.scroll, { at = 1, target = "c1", by = { 0, 10 } })
      try("cs.call", cs.call, { at = 1, fn = function() end })
      try("cs.animate", cs.animate, 0.5, function() end)
      try("cs.measure early", cs.measure, "text")
      try("cs.chartGeometry early", cs.chartGeometry, "c1")
      try("cs.scene", cs.scene, { width = 100, height = 80, root = cs.spacer {} })
      try("cs.scene bad", cs.scene, { width = 0, root = cs.spacer {} })
      return table.concat(out, "\\n")
    end
    """

  func testEveryBindingGivesInACoroutineWhatItGivesOnTheMainThread() throws {
    dir.write("d.csv", "date,a\n2019-01-01,1\n2019-01-02,2\n")
    try Data(base64Encoded: "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=")!
      .write(to: URL(fileURLWithPath: dir.path + "/p.png"))
    let script = Self.probe + """

      local main1 = probe("d.csv", "p.png")
      local main2 = probe("d.csv", "p.png")
      local wrapped = coroutine.wrap(probe)("d.csv", "p.png")
      local ok, resumed = coroutine.resume(coroutine.create(probe), "d.csv", "p.png")
      assert(ok, resumed)
      local function firstDifference(a, b)
        local la, lb = {}, {}
        for l in (a .. "\\n"):gmatch("(.-)\\n") do la[#la + 1] = l end
        for l in (b .. "\\n"):gmatch("(.-)\\n") do lb[#lb + 1] = l end
        for i = 1, math.max(#la, #lb) do
          if la[i] ~= lb[i] then return "main: " .. tostring(la[i]) .. "\\ncoroutine: " .. tostring(lb[i]) end
        end
      end
      if main1 ~= main2 then error("the probe itself differs between two runs:\\n" .. firstDifference(main1, main2)) end
      if wrapped ~= main1 then error("coroutine.wrap:\\n" .. firstDifference(main1, wrapped)) end
      if resumed ~= main1 then error("coroutine.resume:\\n" .. firstDifference(main1, resumed)) end
      -- Enough of the probe succeeded to mean something.
      local successes = select(2, main1:gsub(": true", ""))
      assert(successes >= 45, "only " .. successes .. " calls succeeded:\\n" .. main1)

      -- What needs the built scene: in a canvas's draw, the Graphics methods, cs.measure and
      -- cs.chartGeometry, directly and in a coroutine.
      local drawn = {}
      local function drawProbe(g)
        local r = {}
        local function try(name, f, ...)
          local res = table.pack(pcall(f, ...))
          for i = 1, res.n do res[i] = tostring(res[i]) end
          r[#r + 1] = name .. ": " .. table.concat(res, " | ")
        end
        try("color", g.color, g, "#FF0000")
        try("color bad", g.color, g, "nope")
        try("lineWidth", g.lineWidth, g, 2)
        try("lineCap", g.lineCap, g, "butt")
        try("moveTo", g.moveTo, g, 1, 2)
        try("lineTo", g.lineTo, g, 10, 20)
        try("lineTo bad", g.lineTo, g, "x", 20)
        try("rect", g.rect, g, 0, 0, 5, 5, 1)
        try("circle", g.circle, g, 3, 3, 2)
        try("close", g.close, g)
        try("stroke", g.stroke, g)
        try("fill", g.fill, g)
        try("save", g.save, g)
        try("translate", g.translate, g, 1, 1)
        try("scale", g.scale, g, 2)
        try("rect again", g.rect, g, 0, 0, 2, 2)
        try("clip", g.clip, g)
        try("restore", g.restore, g)
        try("text", g.text, g, "hi", 1, 10, { size = 9 })
        try("image", g.image, g, cs.image("p.png"), 0, 0, 4, 4)
        try("cs.measure", function() local w, h = cs.measure("text", { size = 12 }); return w > 0, h > 0 end)
        try("cs.chartGeometry", function() local geo = cs.chartGeometry("geo"); return geo.plot.width > 0, geo.x(geo.window.from) end)
        try("cs.chartGeometry bad", cs.chartGeometry, "nope")
        return table.concat(r, "\\n")
      end
      local geoSet = cs.data.sample()[1]
      return cs.scene { width = 300, height = 300, root = cs.vstack {
        cs.chart { id = "geo", data = geoSet },
        cs.canvas { draw = function(g)
          drawn.main = drawProbe(g)
          drawn.co = coroutine.wrap(drawProbe)(g)
          if drawn.main ~= drawn.co then error(firstDifference(drawn.main, drawn.co)) end
          if select(2, drawn.main:gsub(": true", "")) < 20 then error("too few draw calls succeeded:\\n" .. drawn.main) end
        end },
      } }
      """
    let s = try dir.session(script)
    _ = try s.displayList(at: 0)
  }

  /// The crash of the issue: many calls in a coroutine, each pushing results.
  func testAThousandCallsInACoroutine() throws {
    let script = """
      local n = 0
      local co = coroutine.wrap(function()
        for i = 1, 1000 do
          local sets = cs.data.sample()
          n = n + #sets
          local t = cs.text { text = "x" .. i }
          if i % 100 == 0 then coroutine.yield(i) end
        end
        return "end"
      end)
      local last
      repeat last = co() until last == "end"
      assert(n == 5000, n)
      local m = coroutine.wrap(function() return require("chartscene") == cs, require("string") == string end)
      local a, b = m()
      assert(a and b)
      return cs.scene { root = cs.text { text = tostring(n) } }
      """
    let s = try dir.session(script)
    _ = try s.displayList(at: 0)
  }

  /// An error from a binding inside a coroutine names the coroutine's line.
  func testABindingErrorInACoroutineNamesItsLine() {
    let message = dir.error("""
      local co = coroutine.wrap(function()
        return cs.text(42)
      end)
      co()
      """)
    XCTAssertTrue(message.hasPrefix("s.lua:2: bad argument #1 to 'text'"), message)
  }
}
