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

local function layout(self, w, h)
  local width, pitch, last = metrics(self, w)
  local angle = self.options.angle or 30
  local scroll = self.state.scroll
  if scroll == self.target.scroll then scroll = clamp(scroll, 0, last) end
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
  local function set(self, value, how)
    local _, _, last = metrics(self, self.width)
    value = clamp(value, 0, last)
    if how then cs.animate(how, function() self.state.scroll = value end) else self.state.scroll = value end
  end
  local view = {
    kind = "carousel", clip = true, scrolls = "horizontal",
    options = { spacing = t.spacing, itemWidth = t.itemWidth, angle = t.angle },
    state = { scroll = t.scroll or 0 },
    animates = { "scroll" }, -- the items turn along their arc as it moves
    layout = layout,
    inspect = function(self)
      local _, _, last = metrics(self, self.width)
      return { scroll = clamp(self.target.scroll, 0, last) }
    end,
    on = {
      drag = function(self, e)
        if e.phase == "began" then
          start = self.shown.scroll
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
        set(self, self.target.scroll + (e.dx ~= 0 and e.dx or e.dy), { curve = "linear", duration = 0.15 })
      end,
    },
  }
  for _, k in ipairs(common) do view[k] = t[k] end
  for k, f in pairs(t.on or {}) do if view.on[k] == nil then view.on[k] = f end end
  for i, child in ipairs(t) do view[i] = child end
  return cs.view(view)
end
