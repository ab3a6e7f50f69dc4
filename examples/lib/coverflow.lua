-- A cover flow on cs.view: the item at the centre lies flat and large, the others turn
-- away (rotation3d) and stack close together on either side, the nearest in front. A tap
-- on a side item brings it to the centre with a spring; a drag moves the row under the
-- finger; a flick glides (decay) and comes to rest on an item.
--   local coverflow = require("lib.coverflow")
--   coverflow { id = "flow", index = 3, angle = 55, cs.card { ... }, cs.card { ... } }
local cs = require("chartscene")

local common = { "id", "padding", "background", "cornerRadius", "opacity", "offset", "scale", "rotation3d", "frame", "preset" }

local function clamp(x, lo, hi) return math.max(lo, math.min(x, hi)) end

-- Sizes from the content size: the centre item's width and height, the distance from the
-- centre to the first side item (`gap`) and between two side items (`pitch`).
local function metrics(self, w, h)
  local o = self.options
  local width = clamp(o.itemWidth or w * 0.42, 1, w * 0.9)
  local height = clamp(width * (o.aspect or 0.72), 1, h * 0.92)
  local gap = width * 0.5 + width * 0.3
  local pitch = width * (o.stack or 0.16)
  return width, height, gap, pitch
end

-- Where an item `d` items from the centre sits, in px from the centre (0 at the centre,
-- `gap` for the first side item, then `pitch` further for each one after it).
local function place(d, gap, pitch)
  local a = math.abs(d)
  local x = a <= 1 and a * gap or gap + (a - 1) * pitch
  return d < 0 and -x or x
end

local function layout(self, w, h)
  local width, height, gap, pitch = metrics(self, w, h)
  local last = #self.children - 1
  local scroll = self.state.scroll
  -- Past either end (a drag pulled it there) it gives way softly.
  if scroll == self.target.scroll then scroll = clamp(scroll, 0, last) end
  scroll = cs.rubberband(scroll, 0, last, 0.35)
  local angle = self.options.angle or 55
  local side = self.options.sideScale or 0.82
  for i, c in ipairs(self.children) do
    local d = (i - 1) - scroll
    local a = math.min(1.0, math.abs(d))
    local cx = w / 2 + place(d, gap, pitch)
    c.frame = { cx - width / 2, h / 2 - height / 2, width, height }
    c.rotation3d = { angle = (d < 0 and a or -a) * angle, perspective = width * 2.2 }
    c.scale = 1 - (1 - side) * a
    c.z = -math.abs(d)
    c.opacity = clamp(1.6 - 0.25 * math.abs(d), 0, 1)
    c.hidden = math.abs(d) > 6
  end
end

return function(t)
  cs.options("coverflow", t, {
    index = "number", angle = { "number", 0, 80 }, itemWidth = { "number", 1, 16384 },
    aspect = { "number", 0.1, 10 }, stack = { "number", 0, 1 }, sideScale = { "number", 0.1, 1 },
  })
  local n = #t
  if n == 0 then cs.error("coverflow needs at least one child") end
  local start -- the scroll when the drag began
  local view = {
    kind = "coverflow", clip = true, scrolls = "horizontal",
    options = { angle = t.angle, itemWidth = t.itemWidth, aspect = t.aspect, stack = t.stack, sideScale = t.sideScale },
    -- scroll: the position along the row in items (0 = the first item at the centre).
    state = { scroll = clamp(math.floor((t.index or 1) + 0.5), 1, n) - 1 },
    animates = { "scroll" }, -- the charts travel the row's curve as it moves
    layout = layout,
    inspect = function(self)
      return { index = clamp(math.floor(self.target.scroll + 0.5), 0, n - 1) + 1, scroll = self.shown.scroll }
    end,
    on = {
      -- A finger on a gliding row stops it where it is.
      press = function(self)
        if self.shown.scroll ~= self.state.scroll then self.state.scroll = self.shown.scroll end
      end,
      tap = function(self, e)
        if e.child and e.child - 1 ~= self.state.scroll then
          cs.animate({ curve = "spring", duration = 0.7 }, function() self.state.scroll = e.child - 1 end)
        end
      end,
      drag = function(self, e)
        local _, _, gap = metrics(self, self.width, self.height)
        if e.phase == "began" then
          start = self.shown.scroll
        elseif e.phase == "changed" then
          -- Under the finger: one item's move from the centre to the side is `gap` px.
          self.state.scroll = (start or self.shown.scroll) - e.dx / gap
        else
          -- Let go: glide at the finger's speed and come to rest on the item nearest to
          -- where the glide would stop (a decay whose length matches the speed); a slow
          -- release springs to the nearest item.
          local now, speed = self.shown.scroll, -e.vx / gap
          local rest = clamp(math.floor(now + speed * 0.35 + 0.5), 0, n - 1)
          local dist = rest - now
          if e.phase == "ended" and math.abs(speed) > 1 and dist * speed > 0.3 and now >= 0 and now <= n - 1 then
            local tau = clamp(dist / speed, 0.12, 0.6)
            cs.animate({ curve = "decay", duration = tau * 4, velocity = speed }, function() self.state.scroll = rest end)
          else
            cs.animate({ curve = "spring", duration = 0.6, velocity = speed }, function() self.state.scroll = rest end)
          end
        end
      end,
      scroll = function(self, e)
        local to = clamp(math.floor(self.target.scroll + (e.dx ~= 0 and e.dx or e.dy) / 40 + 0.5), 0, n - 1)
        cs.animate({ curve = "spring", duration = 0.5 }, function() self.state.scroll = to end)
      end,
    },
  }
  for _, k in ipairs(common) do view[k] = t[k] end
  for i, child in ipairs(t) do view[i] = child end
  return cs.view(view)
end
