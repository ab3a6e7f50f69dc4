-- cs.race: a bar chart race over a set's time axis, written on cs.view. Each period of
-- `period` seconds moves one step of the data: values are interpolated, so the value labels
-- count up, and two bars swap places smoothly where their values cross, one pair at a time; the step's date is
-- large in a corner. `kind = "line"` races lines instead: each draws itself as time passes,
-- its name and value at its tip. Copy it with `chartscene composition show race > myrace.lua`.
local cs = require("chartscene")

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

-- How long two bars take to swap places, as a share of a period: 0.3, and never under
-- `minSwap` seconds (a whole period when it is shorter), so that a fast race's swaps take
-- frames to watch rather than blink (issue 39: at 12 s for 96 months a swap of 0.3 of a
-- period lasted 0-1 frame at 30 fps).
local swapShare, minSwap = 0.3, 0.15
-- Samples of the ranks a fast race averages (below).
local smoothSamples = 8

local function smooth(x)
  x = clamp(x, 0, 1)
  return x * x * (3 - 2 * x)
end

-- Ranks (1 = largest) at the fraction f between points a and b: each pair of lines that
-- changes order between the two points swaps once, in `swap` of the period (swapShare, or
-- minSwap seconds) centred where
-- their interpolated values cross (kept inside the period), so bars pass each other one
-- pair at a time, in the order the values cross, and every bar is at rest on a point.
local function ranksBetween(lines, a, b, f, period)
  local swap = math.min(1, math.max(swapShare, minSwap / math.max(period, 1e-9)))
  local n, va, vb, index = #lines, {}, {}, {}
  for i, l in ipairs(lines) do va[i] = a[l.id] or -math.huge; vb[i] = b[l.id] or -math.huge; index[i] = l.index end
  local out = {}
  -- Every frame for every pair: written out flat (no closure, no table look-ups of a line),
  -- the terms added in the same order as ever, so the very same sums.
  for i = 1, n do
    local ai, bi, ii = va[i], vb[i], index[i]
    local rank = 1
    for j = 1, n do
      if j ~= i then
        local aj, bj = va[j], vb[j]
        -- 1 where j is ahead of i (the larger value; on a tie, the line first in order).
        local p0, p1
        if aj ~= ai then p0 = aj > ai and 1 or 0 else p0 = index[j] < ii and 1 or 0 end
        if bj ~= bi then p1 = bj > bi and 1 or 0 else p1 = index[j] < ii and 1 or 0 end
        if p0 == p1 then
          rank = rank + p0
        else
          local d0, d1 = aj - ai, bj - bi
          local fc = 0.5
          if d0 == d0 and d1 == d1 and math.abs(d0) < math.huge and math.abs(d1) < math.huge and d0 ~= d1 then fc = clamp(d0 / (d0 - d1), 0, 1) end
          local start = clamp(fc - swap / 2, 0, 1 - swap)
          rank = rank + p0 + (p1 - p0) * smooth((f - start) / swap)
        end
      end
    end
    out[lines[i].id] = rank
  end
  return out
end

-- What is shown at time t: the bars in the top places (values interpolated between the
-- data's points, ranks swapping pair by pair) and the time of the moment (UNIX ms).
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
  local r = f > 0 and ranksBetween(lines, a, b, f, period) or ranks(lines, a)
  if period < minSwap and steps > 0 then
    -- A fast race (a period under minSwap): the ranks averaged over minSwap seconds around
    -- t, so a bar that passes several others in one period still takes frames to pass each.
    local sum = {}
    for j = 0, smoothSamples - 1 do
      local p = clamp(pos + ((j + 0.5) / smoothSamples - 0.5) * minSwap / period, 0, steps)
      local kj = math.floor(p)
      local fj = p - kj
      local aj = point(set, kj, steps)
      local rj = fj > 0 and ranksBetween(lines, aj, (point(set, math.min(kj + 1, steps), steps)), fj, period) or ranks(lines, aj)
      for id, v in pairs(rj) do sum[id] = (sum[id] or 0) + v / smoothSamples end
    end
    r = sum
  end
  local bars, biggest = {}, 0
  for _, l in ipairs(lines) do
    local va, vb = a[l.id] or 0, b[l.id] or 0
    local v = va + (vb - va) * f
    local rank = r[l.id]
    -- A line that has not started (no value above 0 on either side) is not in the race yet.
    if rank < top + 1 and (va > 0 or vb > 0) then
      bars[#bars + 1] = { line = l, value = v, rank = rank }
      biggest = math.max(biggest, v)
    end
  end
  table.sort(bars, function(x, y) return x.rank < y.rank end)
  return bars, biggest, ta + (tb - ta) * f, lines
end

-- The title at the top left, 22 px, or smaller (down to 11 px) where it would not fit.
local function drawTitle(g, title, w)
  local size = 22
  local tw = cs.measure(title, { size = size, weight = "bold" })
  if tw > w then size = math.max(11, size * w / tw) end
  g:text(title, 0, 4 + (22 - size) * 0.5, { size = size, weight = "bold", color = "text" })
end

-- Where things go in a w x h content box: the title's and the date's room, the slots of the
-- bars, the names' gutter and the room for values (and images) after a bar.
local function layout(o, w, h, lines)
  local top = o.top or 10
  local G = { titleHeight = o.title and 40 or 8, dateSize = clamp(h * 0.08, 14, 96) }
  G.slot = math.max(1, (h - G.titleHeight - G.dateSize * 1.4) / top)
  G.thick = G.slot * 0.78
  G.nameFont = { size = clamp(G.thick * 0.45, 8, 20), weight = "semibold" }
  local gutter = 0
  for _, l in ipairs(lines) do gutter = math.max(gutter, (cs.measure(l.name, G.nameFont))) end
  G.gutter = math.min(gutter + 12, w * 0.3)
  G.imageRoom = o.images and G.thick + 6 or 0
  G.valueRoom = cs.measure("888.8M", G.nameFont) + 12 + G.imageRoom
  G.span = math.max(1, w - G.gutter - G.valueRoom)
  return G
end

-- The same, kept in the race's own table `last` while the size and the lines shown stay the
-- same (the names are measured with Pango: the same 31 texts every frame otherwise).
local function geometry(o, w, h, lines, last)
  local ids = {}
  for i, l in ipairs(lines) do ids[i] = l.id end
  local key = w .. "x" .. h .. ":" .. table.concat(ids, "\0")
  if last.key ~= key then
    last.key, last.G = key, layout(o, w, h, lines)
  end
  return last.G
end

-- A bar's rectangle: x, y, length, thickness (the length at least 1 px).
local function barRect(G, bar, biggest)
  local y = G.titleHeight + (bar.rank - 1) * G.slot + (G.slot - G.thick) / 2
  local len = biggest > 0 and math.max(0, bar.value) / biggest * G.span or 0
  return G.gutter, y, math.max(1, len), G.thick
end

local function drawDate(g, o, w, h, time, size)
  g:text(os.date("!" .. (o.dateFormat or "%b %Y"), math.floor(time / 1000)), w, h - size * 1.3, { size = size, weight = "bold", align = "right", color = "axisText" })
end

local function drawBars(self, g, w, h, t, set, images, last)
  local o = self.options
  local top = o.top or 10
  local bars, biggest, time, lines = moment(set, o, t)
  local G = geometry(o, w, h, lines, last)
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
    local x, y, len, thick = barRect(G, bar, biggest)
    -- Bars entering or leaving the top fade over the last place.
    local alpha = clamp(top + 1 - bar.rank, 0, 1)
    local hex = ("%02X"):format(math.floor(alpha * 255 + 0.5))
    g:color(bar.line.color .. hex):rect(x, y, len, thick, math.min(4, thick / 4)):fill()
    local image = images and images[bar.line.id]
    if image then g:image(image, x + len + 4, y, thick, thick, { opacity = alpha }) end
    local ty = y + thick / 2 - G.nameFont.size * 0.62
    local shown = math.min(alpha, bar.labels)
    if shown > 0.01 then
      g:text(bar.line.name, G.gutter - 8, ty, { size = G.nameFont.size, weight = "semibold", align = "right", color = "text", opacity = shown })
      g:text(compact(bar.value), x + len + 6 + (image and G.imageRoom or 0), ty, { size = G.nameFont.size, color = "secondaryText", opacity = shown })
    end
  end
  if o.title then drawTitle(g, o.title, w) end
  -- The moment's date, large in the lower right corner.
  drawDate(g, o, w, h, time, G.dateSize)
end

-- A round step for about `n` grid lines up to `top`.
local function niceStep(top, n)
  local raw = math.max(top / n, 1e-12)
  local p = 10 ^ math.floor(math.log(raw, 10))
  for _, m in ipairs({ 1, 2, 2.5, 5, 10 }) do
    if m * p >= raw then return m * p end
  end
  return 10 * p
end

-- The line race at time t: the lines (top `top` by value now) as polylines up to now, in
-- plot coordinates, with their tips, and the scales.
local function lineMoment(set, o, t, w, h, cache)
  local bars, _, time, lines = moment(set, o, t)
  local period = o.period or 0.5
  local steps = math.max(0, set.count - 1)
  local pos = clamp(t / period, 0, steps)
  local k = math.floor(pos)
  local function at(j)
    if not cache[j] then
      local v, tm = point(set, j, steps)
      cache[j] = { values = v, time = tm }
    end
    return cache[j]
  end
  -- Time runs from the first point where any line has started to now.
  local first = 0
  while first < k do
    local any = false
    for _, v in pairs(at(first).values) do if v > 0 then any = true break end end
    if any then break end
    first = first + 1
  end
  local t0 = at(first).time
  local minSpan = steps > 0 and (at(math.min(first + 1, steps)).time - at(math.max(0, math.min(first + 1, steps) - 1)).time) or 1
  local span = math.max(time - t0, minSpan)
  local L = { titleHeight = o.title and 40 or 8, dateSize = clamp(h * 0.08, 14, 96) }
  L.font = { size = clamp(h / 40, 9, 18), weight = "semibold" }
  local nameRoom = 0
  for _, bar in ipairs(bars) do nameRoom = math.max(nameRoom, (cs.measure(bar.line.name, L.font))) end
  nameRoom = math.min(nameRoom + cs.measure(" 888.8M", L.font) + 16, w * 0.4)
  L.left, L.right = 0, math.max(1, w - nameRoom)
  L.top, L.bottom = L.titleHeight + 8, math.max(L.titleHeight + 9, h - L.dateSize * 1.4)
  -- The Y scale: from 0 to the largest value shown so far (continuous, so it moves smoothly).
  local ymax = 0
  for _, bar in ipairs(bars) do
    for j = 0, k do ymax = math.max(ymax, at(j).values[bar.line.id] or 0) end
    ymax = math.max(ymax, bar.value)
  end
  ymax = ymax > 0 and ymax * 1.08 or 1
  L.ymax = ymax
  -- Now is always at the right edge; the first point at the left once time has moved on.
  local function X(tm) return L.right - (time - tm) / span * (L.right - L.left) end
  local function Y(v) return L.bottom - math.max(0, v) / ymax * (L.bottom - L.top) end
  L.X, L.Y = X, Y
  L.lines = {}
  for _, bar in ipairs(bars) do
    local id, pts = bar.line.id, {}
    for j = 0, k do
      local v = at(j).values[id] or 0
      -- A line starts at its first value above 0 (before, it is not in the race).
      if v > 0 or #pts > 0 then pts[#pts + 1] = { X(at(j).time), Y(v) } end
    end
    if pos > k and bar.value > 0 then pts[#pts + 1] = { X(time), Y(bar.value) } end
    if #pts > 0 then
      L.lines[#L.lines + 1] = { bar = bar, points = pts, tip = pts[#pts], alpha = clamp((o.top or 10) + 1 - bar.rank, 0, 1) }
    end
  end
  -- Labels at the tips, pushed apart so that none covers another (in order of the tips).
  local gap = L.font.size * 1.25
  local order = {}
  for i, line in ipairs(L.lines) do order[i] = line end
  table.sort(order, function(a, b) if a.tip[2] ~= b.tip[2] then return a.tip[2] < b.tip[2] end return a.bar.line.index < b.bar.line.index end)
  for i, line in ipairs(order) do
    line.labelY = line.tip[2]
    if i > 1 then line.labelY = math.max(line.labelY, order[i - 1].labelY + gap) end
  end
  for i = #order, 1, -1 do
    local limit = i == #order and L.bottom - L.font.size * 0.5 or order[i + 1].labelY - gap
    order[i].labelY = math.min(order[i].labelY, limit)
  end
  return L, time
end

local function drawLines(self, g, w, h, t, set, images, cache)
  local o = self.options
  local L, time = lineMoment(set, o, t, w, h, cache)
  -- Grid lines at round values, labelled at the left.
  local step = niceStep(L.ymax, 4)
  local font = { size = clamp(L.font.size * 0.8, 8, 14), color = "axisText" }
  local v = 0
  while v <= L.ymax and step > 0 do
    local y = L.Y(v)
    g:color("grid"):lineWidth(1):moveTo(L.left, y):lineTo(L.right, y):stroke()
    g:text((compact(v):gsub("%.0+(%a?)$", "%1")), L.left + 2, y - font.size * 1.35, font)
    v = v + step
  end
  -- The leaders drawn last.
  for n = #L.lines, 1, -1 do
    local line = L.lines[n]
    local hex = ("%02X"):format(math.floor(line.alpha * 255 + 0.5))
    local c = line.bar.line.color .. hex
    g:color(c):lineWidth(clamp(h / 240, 1.5, 4))
    for i, p in ipairs(line.points) do
      if i == 1 then g:moveTo(p[1], p[2]) else g:lineTo(p[1], p[2]) end
    end
    g:stroke()
    g:color(c):circle(line.tip[1], line.tip[2], clamp(h / 150, 2.5, 7)):fill()
    local image = images and images[line.bar.line.id]
    local x = line.tip[1] + 10
    if image then
      local s = L.font.size * 1.3
      g:image(image, x, line.labelY - s / 2, s, s, { opacity = line.alpha })
      x = x + s + 4
    end
    local ty = line.labelY - L.font.size * 0.62
    g:text(line.bar.line.name, x, ty, { size = L.font.size, weight = "semibold", color = "text", opacity = line.alpha })
    local nw = cs.measure(line.bar.line.name .. " ", L.font)
    g:text(compact(line.bar.value), x + nw, ty, { size = L.font.size, color = "secondaryText", opacity = line.alpha })
  end
  if o.title then drawTitle(g, o.title, w) end
  drawDate(g, o, w, h, time, L.dateSize)
end

return function(t)
  cs.options("cs.race", t) -- checked against the declared options (docs/lua-api.md, cs.race)
  if type(t.data) ~= "userdata" or not t.data.lines then cs.error("missing field 'data' in cs.race (a ChartSet from cs.data.*)") end
  -- Images by line id, read now (next to the script, under the rules of data files).
  local images
  if t.images then
    images = {}
    local ids = {}
    for _, l in ipairs(t.data.lines) do ids[l.id] = true end
    for id, file in pairs(t.images) do
      if type(id) ~= "string" or type(file) ~= "string" then cs.error("bad field 'images' in cs.race (a table of line id = \"file.png\" expected)") end
      if not ids[id] then cs.error(("bad field 'images' in cs.race: the data has no line '%s'"):format(id)) end
      images[id] = cs.image(file)
    end
  end
  local line = t.kind == "line"
  local cache, last = {}, {}
  local view = {
    kind = line and "linerace" or "race",
    options = { top = t.top, period = t.period, title = t.title, dateFormat = t.dateFormat, images = t.images ~= nil },
    draw = function(self, g, w, h, time)
      if line then drawLines(self, g, w, h, time, t.data, images, cache) else drawBars(self, g, w, h, time, t.data, images, last) end
    end,
    -- --inspect: the bars in order (name, value, rank as drawn, and where: rect = {x, y, w, h}
    -- in the view's content box; a line's tip = {x, y}) and the date shown.
    inspect = function(self)
      local o, w, h = self.options, self.width, self.height
      local bars, biggest, time, lines = moment(t.data, o, self.time)
      local out = {}
      if line then
        local L = lineMoment(t.data, o, self.time, w, h, cache)
        local tips = {}
        for _, l in ipairs(L.lines) do tips[l.bar.line.id] = l end
        for i, bar in ipairs(bars) do
          local l = tips[bar.line.id]
          out[i] = { name = bar.line.name, value = bar.value, rank = bar.rank, tip = l and { l.tip[1], l.tip[2] } or nil, label = l and l.labelY or nil }
        end
      else
        local G = geometry(o, w, h, lines, last)
        for i, bar in ipairs(bars) do
          local x, y, len, thick = barRect(G, bar, biggest)
          out[i] = { name = bar.line.name, value = bar.value, rank = bar.rank, rect = { x, y, len, thick } }
        end
      end
      return { bars = out, date = os.date("!" .. (o.dateFormat or "%b %Y"), math.floor(time / 1000)) }
    end,
  }
  return cs.compose(t, view) -- the common view keys, and the caller's `on`
end
