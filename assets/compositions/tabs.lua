-- cs.tabs: a tab bar and the selected tab's view (the app around the article's three
-- compositions), written on cs.view. A tap on a tab selects it; the new tab fades in.
-- Copy it with `chartscene composition show tabs > mytabs.lua` and `require("mytabs")`.
local cs = require("chartscene")

local barHeight = 56
local font = { size = 11, weight = "semibold" }
local icons = { "list", "carousel", "cards", "chart" }

-- Icons the bar draws (22 px), centred at x, y.
local draw = {
  list = function(g, x, y)
    for k = -1, 1 do
      local row = y + k * 7
      g:rect(x - 10, row - 2, 4, 4, 1):rect(x - 4, row - 1.5, 14, 3, 1.5)
    end
    g:fill()
  end,
  carousel = function(g, x, y)
    g:rect(x - 5, y - 9, 10, 18, 2):fill()
    g:lineWidth(2)
    g:moveTo(x - 8, y - 6):lineTo(x - 11, y - 4):lineTo(x - 11, y + 4):lineTo(x - 8, y + 6)
    g:moveTo(x + 8, y - 6):lineTo(x + 11, y - 4):lineTo(x + 11, y + 4):lineTo(x + 8, y + 6)
    g:stroke()
  end,
  cards = function(g, x, y)
    g:rect(x - 10, y - 4, 20, 13, 2.5):fill()
    g:lineWidth(2):moveTo(x - 7, y - 7):lineTo(x + 7, y - 7):moveTo(x - 4, y - 10):lineTo(x + 4, y - 10):stroke()
  end,
  chart = function(g, x, y)
    g:lineWidth(2.2):moveTo(x - 10, y + 6):lineTo(x - 4, y - 1):lineTo(x + 1, y + 3):lineTo(x + 10, y - 7):stroke()
  end,
}

-- A title wider than its tab ends in "…" (the longest start of it that fits with one).
local function fit(text, width)
  if cs.measure(text, font) <= width then return text end
  local n = utf8.len(text)
  local function head(k)
    if not n then return text:sub(1, k) end
    return text:sub(1, (utf8.offset(text, k + 1) or #text + 1) - 1)
  end
  local lo, hi = 0, n or #text
  while lo < hi do
    local mid = (lo + hi + 1) // 2
    if cs.measure(head(mid) .. "…", font) <= width then lo = mid else hi = mid - 1 end
  end
  return lo > 0 and (head(lo):gsub("%s+$", "") .. "…") or ""
end

return function(t)
  cs.options("cs.tabs", t) -- checked against the declared options (docs/lua-api.md, cs.tabs)
  local titles, kinds, view = {}, {}, {}
  for i, tab in ipairs(t) do
    if type(tab) ~= "table" then cs.error(("bad tab #%d in cs.tabs ({ title = ..., view = ... } expected, got %s)"):format(i, type(tab))) end
    local owner = "cs.tabs tab #" .. i
    cs.options(owner, tab, "cs.tabs tab")
    if tab.title == nil then cs.error("missing field 'title' in " .. owner) end
    if tab.view == nil then cs.error("missing field 'view' in " .. owner) end
    titles[i], kinds[i], view[i] = tab.title, tab.icon or "chart", tab.view
  end
  if #titles == 0 then cs.error("cs.tabs needs at least one tab ({ title = ..., view = ... })") end
  local selected = 1
  if type(t.selected) == "number" then
    if t.selected ~= math.floor(t.selected) or t.selected < 1 or t.selected > #titles then
      cs.error(("bad field 'selected' in cs.tabs (a tab number from 1 to %d, or a title)"):format(#titles))
    end
    selected = math.floor(t.selected)
  elseif type(t.selected) == "string" then
    selected = nil
    for i, title in ipairs(titles) do if title == t.selected then selected = i break end end
    if not selected then
      local names = {}
      for i, title in ipairs(titles) do names[i] = "'" .. title .. "'" end
      cs.error(("bad field 'selected' in cs.tabs (no tab titled '%s'; tabs are %s)"):format(t.selected, table.concat(names, ", ")))
    end
  elseif t.selected ~= nil then
    cs.error(("bad field 'selected' in cs.tabs (a tab number from 1 to %d, or a title)"):format(#titles))
  end

  view.kind = "tabs"
  view.state = { selected = selected, fade = 1 }
  view.animates = { "fade" }
  view.layout = function(self, w, h)
    local content = h - math.min(h, barHeight)
    for i, c in ipairs(self.children) do
      c.frame = { 0, 0, w, content }
      c.hidden = i ~= self.state.selected
      if i == self.state.selected then c.opacity = math.max(0, math.min(1, self.state.fade)) end
    end
  end
  -- The bar: an icon and a title per tab, the selected one in the accent colour.
  view.draw = function(self, g, w, h)
    local bh = math.min(h, barHeight)
    local y = h - bh
    local each = w / math.max(1, #titles)
    g:color("cardBackground"):rect(0, y, w, bh):fill()
    g:color("grid"):lineWidth(1):lineCap("butt"):moveTo(0, y + 0.5):lineTo(w, y + 0.5):stroke()
    g:lineCap("round")
    for i, title in ipairs(titles) do
      local color = i == self.state.selected and "accent" or "axisText"
      local x = (i - 1) * each + each / 2
      g:color(color)
      draw[kinds[i]](g, x, y + 19)
      local _, th = cs.measure(title, font)
      g:text(fit(title, each - 8), x, y + bh - th - 5, { size = font.size, weight = font.weight, align = "center", color = color })
    end
  end
  view.on = {
    tap = function(self, e)
      local pad = self.padding
      local x, y = e.x - pad.left, e.y - pad.top
      local bh = math.min(self.height, barHeight)
      if y < self.height - bh or y > self.height then return end
      local k = math.floor(x / (self.width / #titles)) + 1
      if k < 1 or k > #titles or k == self.state.selected then return end
      self.state.selected = k
      self.state.fade = 0
      cs.animate({ duration = 0.25 }, function() self.state.fade = 1 end)
    end,
  }
  view.inspect = function(self) return { selected = math.floor(self.target.selected), tabs = titles } end
  return cs.compose(t, view) -- the common view keys, and the caller's `on` beside the bar's tap
end
