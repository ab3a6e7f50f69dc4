-- cs.race: a bar chart race over a set's time axis, written on cs.view. Each period of
-- `period` seconds moves one step of the data: values are interpolated, so the value labels
-- count up, and ranks are interpolated, so bars swap places smoothly; the step's date is
-- large in a corner. Copy it with `chartscene composition show race > myrace.lua`.
local cs = require("chartscene")

local common = { "id", "padding", "background", "cornerRadius", "opacity", "offset", "scale", "rotation3d", "frame", "preset" }

local function clamp(x, lo, hi) return math.max(lo, math.min(x, hi)) end

-- 1234567 as "1.23M": three significant digits and a suffix.
local function compact(v)
  local a, units = math.abs(v), { { 1e12, "T" }, { 1e9, "B" }, { 1e6, "M" }, { 1e3, "K" } }
  for _, u in ipairs(units) do
    if a >= u[1] then
      local x = v / u[1]
      return (math.abs(x) >= 100 and ("%.0f") or math.abs(x) >= 10 and ("%.1f") or ("%.2f")):format(x) .. u[2]
    end
  end
  return math.abs(v) >= 100 and ("%.0f"):format(v) or ("%.1f"):format(v)
end

-- The lines' values at point k (by line id) and its time (UNIX ms).
local function point(set, k, steps)
  local p = set:valuesAt(steps > 0 and k / steps or 0)
  return p.values, p.time
end

-- Ranks (1 = largest) of the lines by their values, ties in line order.
local function ranks(lines, values)
  local order = {}
  for i, l in ipairs(lines) do order[i] = l end
  table.sort(order, function(a, b)
    local x, y = values[a.id] or -math.huge, values[b.id] or -math.huge
    if x ~= y then return x > y end
    return a.index < b.index
  end)
  local out = {}
  for r, l in ipairs(order) do out[l.id] = r end
  return out
end

-- What is shown at time t: the bars in the top places (value and rank, both interpolated
-- between the data's points) and the time of the moment (UNIX ms).
local function moment(set, o, t)
  local top, period = o.top or 10, o.period or 0.5
  local lines = {}
  for i, l in ipairs(set.lines) do
    if not l.hidden then lines[#lines + 1] = { id = l.id, name = l.name, color = l.color, index = i } end
  end
  local steps = math.max(0, set.count - 1)
  local pos = clamp(t / period, 0, steps)
  local k = math.floor(pos)
  local f = pos - k
  local a, ta = point(set, k, steps)
  local b, tb = point(set, math.min(k + 1, steps), steps)
  local ra, rb = ranks(lines, a), ranks(lines, b)
  local bars, biggest = {}, 0
  for _, l in ipairs(lines) do
    local va, vb = a[l.id] or 0, b[l.id] or 0
    local v = va + (vb - va) * f
    local rank = ra[l.id] + (rb[l.id] - ra[l.id]) * f
    -- A line that has not started (no value above 0 on either side) is not in the race yet.
    if rank < top + 1 and (va > 0 or vb > 0) then
      bars[#bars + 1] = { line = l, value = v, rank = rank }
      biggest = math.max(biggest, v)
    end
  end
  table.sort(bars, function(x, y) return x.rank < y.rank end)
  return bars, biggest, ta + (tb - ta) * f, lines
end

local function draw(self, g, w, h, t, set)
  local o = self.options
  local top = o.top or 10
  local bars, biggest, time, lines = moment(set, o, t)
  local title = o.title
  local titleHeight = title and 40 or 8
  -- The date gets a strip of its own at the bottom (it never covers a bar's label).
  local dateSize = clamp(h * 0.08, 14, 96)
  local slot = math.max(1, (h - titleHeight - dateSize * 1.4) / top)
  local thick = slot * 0.78
  local nameFont = { size = clamp(thick * 0.45, 8, 20), weight = "semibold" }
  local gutter = 0
  for _, l in ipairs(lines) do gutter = math.max(gutter, (cs.measure(l.name, nameFont))) end
  gutter = math.min(gutter + 12, w * 0.3)
  local valueRoom = cs.measure("888.8M", nameFont) + 12
  local span = math.max(1, w - gutter - valueRoom)
  -- Two bars passing each other hide their labels while they are closer than a label's
  -- height (so the texts never print over each other) and show them again as they part.
  for n, bar in ipairs(bars) do
    local near = math.huge
    if bars[n - 1] then near = math.min(near, bar.rank - bars[n - 1].rank) end
    if bars[n + 1] then near = math.min(near, bars[n + 1].rank - bar.rank) end
    bar.labels = clamp((near - 0.5) / 0.15, 0, 1)
  end
  -- The leaders drawn last (over a bar they are passing).
  for n = #bars, 1, -1 do
    local bar = bars[n]
    local y = titleHeight + (bar.rank - 1) * slot + (slot - thick) / 2
    -- Bars entering or leaving the top fade over the last place.
    local alpha = clamp(top + 1 - bar.rank, 0, 1)
    local hex = ("%02X"):format(math.floor(alpha * 255 + 0.5))
    local len = biggest > 0 and math.max(0, bar.value) / biggest * span or 0
    g:color(bar.line.color .. hex):rect(gutter, y, math.max(1, len), thick, math.min(4, thick / 4)):fill()
    local ty = y + thick / 2 - nameFont.size * 0.62
    local shown = math.min(alpha, bar.labels)
    if shown > 0.01 then
      g:text(bar.line.name, gutter - 8, ty, { size = nameFont.size, weight = "semibold", align = "right", color = "text", opacity = shown })
      g:text(compact(bar.value), gutter + len + 6, ty, { size = nameFont.size, color = "secondaryText", opacity = shown })
    end
  end
  if title then g:text(title, 0, 4, { size = 22, weight = "bold", color = "text" }) end
  -- The moment's date, large in the lower right corner.
  g:text(os.date("!" .. (o.dateFormat or "%b %Y"), math.floor(time / 1000)), w, h - dateSize * 1.3, { size = dateSize, weight = "bold", align = "right", color = "axisText" })
end

return function(t)
  cs.options("cs.race", t, {
    data = "any", top = { "number", 1, 50 }, period = { "number", 0.01, 3600 }, title = "string", dateFormat = "string",
  })
  if type(t.data) ~= "userdata" or not t.data.lines then cs.error("missing field 'data' in cs.race (a ChartSet from cs.data.*)") end
  local view = {
    kind = "race",
    options = { top = t.top, period = t.period, title = t.title, dateFormat = t.dateFormat },
    draw = function(self, g, w, h, time) draw(self, g, w, h, time, t.data) end,
    -- --inspect: the bars in order (name, value, rank as drawn) and the date shown.
    inspect = function(self)
      local bars, _, time = moment(t.data, self.options, self.time)
      local out = {}
      for i, bar in ipairs(bars) do out[i] = { name = bar.line.name, value = bar.value, rank = bar.rank } end
      return { bars = out, date = os.date("!" .. (self.options.dateFormat or "%b %Y"), math.floor(time / 1000)) }
    end,
  }
  for _, k in ipairs(common) do view[k] = t[k] end
  local v = cs.view(view)
  return v
end
