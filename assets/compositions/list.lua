-- cs.list: a vertical scrolling list (the article's ListChartsView), written on cs.view.
-- Rows fill the width and are stacked from the top, moved up by the scroll offset. A drag
-- scrolls it (also one that starts on a chart's plot), a flick glides on and slows down, a
-- touch stops a glide, and past an end it swings softly and comes back. Copy it with
-- `chartscene composition show list > mylist.lua` and `require("mylist")`.
local cs = require("chartscene")

local overshoot = 0.12 -- how far past an end it may swing, a fraction of its height
local glide = 0.35     -- a flick travels speed × glide before it stops (s)
local snap = 0.45      -- the response of the spring back into range (s)
local common = { "id", "padding", "background", "cornerRadius", "opacity", "offset", "scale", "rotation3d", "frame", "preset" }

-- Row heights, their total with the spacing, and how far the list scrolls.
local function metrics(self, w, h)
  local spacing = self.options.spacing or 12
  local row = self.options.rowHeight or math.min(h, math.max(240, math.floor(w * 0.8 + 0.5)))
  local heights, content = {}, 0
  local views = self.children
  for i = 1, #views do
    local v = views[i]
    if type(v) == "table" then v = v.view end -- a layout's record
    heights[i] = v.frameHeight or row
    content = content + heights[i] + (i > 1 and spacing or 0)
  end
  return heights, spacing, math.max(0, content - h)
end

local function clamp(x, lo, hi) return math.max(lo, math.min(x, hi)) end

local function layout(self, w, h)
  local heights, spacing, last = metrics(self, w, h)
  -- The offset as shown; at rest, the one set, kept inside the content.
  local scroll = self.state.scroll
  if scroll == self.target.scroll then scroll = clamp(scroll, 0, last) end
  scroll = cs.rubberband(scroll, 0, last, overshoot * h)
  local y = -scroll
  for i, c in ipairs(self.children) do
    c.frame = { 0, y, w, heights[i] }
    c.hidden = not (y < h and y + heights[i] > 0 and w > 0)
    y = y + heights[i] + spacing
  end
end

return function(t)
  cs.options("cs.list", t) -- checked against the declared options (docs/lua-api.md, cs.list)
  local start -- the offset when the drag began
  local function last(self) return select(3, metrics(self, self.width, self.height)) end
  local function set(self, value, how)
    value = clamp(value, 0, last(self))
    if how then cs.animate(how, function() self.state.scroll = value end) else self.state.scroll = value end
  end
  local view = {
    kind = "list", clip = true, scrolls = "vertical",
    options = { spacing = t.spacing, rowHeight = t.rowHeight },
    state = { scroll = t.scroll or 0 },
    animates = { "scroll" }, -- rows come into view as it moves
    layout = layout,
    inspect = function(self) return { scroll = clamp(self.target.scroll, 0, last(self)) } end,
    on = {
      -- A finger that touches a gliding list stops it where it is (not while it swings past an end).
      press = function(self)
        local here = self.shown.scroll
        if here ~= self.target.scroll and here >= 0 and here <= last(self) then self.state.scroll = here end
      end,
      drag = function(self, e)
        if e.phase == "began" then
          start = self.shown.scroll
        elseif e.phase == "changed" then
          set(self, (start or self.shown.scroll) - e.dy)
        elseif e.phase == "ended" then
          -- The content leaves the hand at its speed and glides on; where that would end past
          -- an end, a spring takes it back from that speed.
          local speed = -e.vy
          local natural = self.shown.scroll + speed * glide
          local rest = clamp(natural, 0, last(self))
          if math.abs(rest - natural) < 0.5 then
            set(self, natural, { curve = "decay", duration = glide * 4, velocity = speed })
          else
            set(self, rest, { curve = "spring", response = snap, velocity = speed })
          end
        end
      end,
      scroll = function(self, e) set(self, self.target.scroll + e.dy, { curve = "linear", duration = 0.15 }) end,
    },
  }
  for _, k in ipairs(common) do view[k] = t[k] end
  for k, f in pairs(t.on or {}) do if view.on[k] == nil then view.on[k] = f end end
  for i, child in ipairs(t) do view[i] = child end
  return cs.view(view)
end
