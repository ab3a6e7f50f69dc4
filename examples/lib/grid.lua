-- A grid of charts on cs.view that opens one to fill the whole view: a tap on a chart grows
-- it from its cell (a spring) while the others fade back; a tap on "Close" (a text the grid
-- adds) or on the open chart's title puts it back.
--   local grid = require("lib.grid")
--   grid { id = "grid", columns = 3, chartA, chartB, ... }
-- In the grid, a pane of glass (an empty canvas) lies over the cells, so a tap anywhere on
-- a cell is the grid's, not the chart's (a chart's plot takes taps for its crosshair); once
-- a chart is open the glass is gone and it is a whole ChartView: crosshair, mini-map, legend.
local cs = require("chartscene")

local common = { "id", "background", "cornerRadius", "opacity", "offset", "scale", "rotation3d", "frame", "preset" }

local function lerp(a, b, t) return a + (b - a) * t end

-- The cell of chart i (from 1) in a grid of n charts filling w × h (inside the margin).
local function cell(self, n, i, w, h)
  local o = self.options
  local columns, gap, m = o.columns or 3, o.spacing or 12, o.margin or 12
  local rows = math.ceil(n / columns)
  local cw, ch = (w - 2 * m - gap * (columns - 1)) / columns, (h - 2 * m - gap * (rows - 1)) / rows
  local col, row = (i - 1) % columns, (i - 1) // columns
  return m + col * (cw + gap), m + row * (ch + gap), cw, ch
end

-- The chart under a point of the view, or nil (between cells).
local function chartAt(self, n, x, y)
  for i = 1, n do
    local cx, cy, cw, ch = cell(self, n, i, self.width, self.height)
    if x >= cx and x <= cx + cw and y >= cy and y <= cy + ch then return i end
  end
end

local function layout(self, w, h)
  local n = #self.children - 2 -- the charts, then the glass and the close button
  local open, e = self.state.open, self.state.expanded -- e: 0 in the grid, 1 open
  local fade = math.max(0, math.min(e, 1)) -- the spring swings a little past 0 and 1
  local m = self.options.margin or 12
  for i = 1, n do
    local c = self.children[i]
    local x, y, cw, ch = cell(self, n, i, w, h)
    if i == open then
      c.frame = { lerp(x, m, e), lerp(y, m, e), lerp(cw, w - 2 * m, e), lerp(ch, h - 2 * m, e) }
      c.z = 1
    else
      c.frame = { x, y, cw, ch }
      c.opacity = 1 - fade
      c.scale = 1 - 0.08 * fade
      c.hidden = fade >= 1
    end
  end
  local glass, close = self.children[n + 1], self.children[n + 2]
  glass.z = 3
  glass.hidden = self.target.expanded > 0
  -- Shown once the chart has (nearly) arrived, so it never crosses the moving chart's texts.
  close.frame = { w - m - 96, m + 8, 84, 32 }
  close.z = 2
  close.opacity = math.max(0, math.min(1, (fade - 0.9) * 10))
  close.hidden = fade <= 0.9
end

return function(t)
  cs.options("grid", t, {
    columns = { "number", 1, 12 }, spacing = { "number", 0, 200 }, margin = { "number", 0, 200 }, open = "number",
  })
  local n = #t
  if n < 1 then cs.error("grid needs at least one chart") end
  local function set(self, open, expanded)
    if expanded > 0 then self.state.open = open end -- at once: which chart grows
    cs.animate({ curve = "spring", duration = 0.6 }, function() self.state.expanded = expanded end)
  end
  local open = t.open and math.floor(t.open) or 0
  if open < 0 or open > n then cs.error(("bad field 'open' in grid (0 to %d)"):format(n)) end
  local view = {
    kind = "grid", clip = true,
    options = { columns = t.columns, spacing = t.spacing, margin = t.margin },
    state = { open = open, expanded = open > 0 and 1 or 0 },
    animates = { "expanded" }, -- the others fade only near the end of the spring
    layout = layout,
    inspect = function(self)
      return { open = self.target.expanded > 0 and self.state.open or 0 }
    end,
    on = {
      tap = function(self, e)
        if e.child == n + 1 then
          local i = chartAt(self, n, e.x, e.y)
          if i then set(self, i, 1) end
        elseif e.child == n + 2 or (e.child == self.state.open and e.y < 56) then
          set(self, self.state.open, 0)
        end
      end,
    },
  }
  for _, k in ipairs(common) do view[k] = t[k] end
  for i, child in ipairs(t) do view[i] = child end
  local id = t.id or "grid"
  view[n + 1] = cs.canvas { id = id .. "-glass", draw = function() end }
  view[n + 2] = cs.text { id = id .. "-close", text = "Close", weight = "semibold", color = "accent" }
  return cs.view(view)
end
