-- cs.carousel: a horizontal strip (the article's HStack with a 3D effect), written on cs.view.
-- The item at the centre faces the viewer; the others turn away, fade and shrink with their
-- distance from it. A drag scrolls it, a flick comes to rest with an item at the centre.
-- Copy it with `chartscene composition show carousel > mine.lua` and `require("mine")`.
local cs = require("chartscene")

local overshoot = 0.12 -- how far past an end it may swing, a fraction of an item's pitch
local glide = 0.35     -- a flick travels speed × glide before it stops (s)
local snap = 0.45      -- the response of the spring that brings an item to the centre (s)
local common = { "id", "padding", "background", "cornerRadius", "opacity", "offset", "scale", "rotation3d", "frame", "preset" }

local function clamp(x, lo, hi) return math.max(lo, math.min(x, hi)) end

-- An item's width, the distance between two items' centres and the largest offset. An
-- item is at most three quarters of the width (three fifths in a portrait carousel, where
-- the neighbours turned away would otherwise be out of sight), so its neighbours show.
local function metrics(self, w)
  local share = (self.height or 0) > w and 0.6 or 0.75
  local width = math.min(self.options.itemWidth or w, math.floor(w * share + 0.5))
  local pitch = width + (self.options.spacing or 16)
  return width, pitch, pitch * math.max(0, #self.children - 1)
end

-- The item nearest a scroll at the centre.
local function nearest(scroll, pitch, last)
  return clamp(math.floor(scroll / pitch + 0.5) * pitch, 0, last)
end

-- `untouched`: the scroll the script asked for, while nothing has moved the carousel yet: it
-- rests with the item nearest it at the centre (a scroll written for one size rests between
-- two items at another: issue 39, examples/carousel.lua at 360x640).
local function layout(self, w, h, untouched)
  local width, pitch, last = metrics(self, w)
  local angle = self.options.angle or 30
  local scroll = self.state.scroll
  if untouched and scroll == untouched then scroll = nearest(scroll, pitch, last)
  elseif scroll == self.target.scroll then scroll = clamp(scroll, 0, last) end
  scroll = cs.rubberband(scroll, 0, last, overshoot * pitch)
  local height = math.floor(h * 0.92 + 0.5)
  for i, c in ipairs(self.children) do
    local cx = w / 2 + (i - 1) * pitch - scroll
    local x = cx - width / 2
    c.frame = { x, h / 2 - height / 2, width, height }
    local d = (cx - w / 2) / pitch
    local turn = clamp(-d * angle, -80, 80)
    c.rotation3d = turn
    c.opacity = math.max(0.35, 1 - 0.3 * math.abs(d))
    c.scale = math.max(0.7, 1 - 0.08 * math.abs(d))
    -- Nearer the centre is in front; far outside is not drawn.
    c.z = -math.abs(turn)
    c.hidden = not (x + width > -width and x < w + width)
  end
end

return function(t)
  cs.options("cs.carousel", t) -- checked against the declared options (docs/lua-api.md, cs.carousel)
  local start
  -- The scroll asked for, until the first gesture or call moves it (then nil).
  local untouched = t.scroll or 0
  -- The first move starts where the carousel was shown at rest.
  local function wake(self)
    if not untouched then return end
    local _, pitch, last = metrics(self, self.width)
    if self.state.scroll == untouched then self.state.scroll = nearest(untouched, pitch, last) end
    untouched = nil
  end
  local function set(self, value, how)
    local _, _, last = metrics(self, self.width)
    untouched = nil
    value = clamp(value, 0, last)
    if how then cs.animate(how, function() self.state.scroll = value end) else self.state.scroll = value end
  end
  local view = {
    kind = "carousel", clip = true, scrolls = "horizontal",
    options = { spacing = t.spacing, itemWidth = t.itemWidth, angle = t.angle },
    state = { scroll = t.scroll or 0 },
    animates = { "scroll" }, -- the items turn along their arc as it moves
    layout = function(self, w, h) layout(self, w, h, untouched) end,
    -- --inspect: the scroll it is going to (px) and the distance between two items' centres;
    -- at rest one is a whole number of the other (an item at the centre).
    inspect = function(self)
      local _, pitch, last = metrics(self, self.width)
      local scroll = self.target.scroll
      if untouched and scroll == untouched then scroll = nearest(scroll, pitch, last) end
      return { scroll = clamp(scroll, 0, last), pitch = pitch }
    end,
    on = {
      drag = function(self, e)
        if e.phase == "began" then
          if untouched then wake(self); start = self.state.scroll else start = self.shown.scroll end
        elseif e.phase == "changed" then
          set(self, (start or self.shown.scroll) - e.dx)
        elseif e.phase == "ended" then
          -- It leaves the hand at its speed; it comes to rest with the nearest item at the centre.
          local _, pitch, last = metrics(self, self.width)
          local speed = -e.vx
          local natural = self.shown.scroll + speed * glide
          local rest = clamp(math.floor(natural / pitch + 0.5) * pitch, 0, last)
          if math.abs(rest - natural) < 0.5 then
            set(self, natural, { curve = "decay", duration = glide * 4, velocity = speed })
          else
            set(self, rest, { curve = "spring", response = snap, velocity = speed })
          end
        end
      end,
      scroll = function(self, e)
        wake(self)
        set(self, self.target.scroll + (e.dx ~= 0 and e.dx or e.dy), { curve = "linear", duration = 0.15 })
      end,
    },
  }
  for _, k in ipairs(common) do view[k] = t[k] end
  for k, f in pairs(t.on or {}) do if view.on[k] == nil then view.on[k] = f end end
  for i, child in ipairs(t) do view[i] = child end
  return cs.view(view)
end
