-- cs.follow: a camera that keeps a chart's window on the newest data as the scene's time
-- advances (gganimate's view_follow), for a "data arriving" story. It is written on the
-- public API: it returns an `update(t, dt)` function that moves the set's window with
-- set:setRange every tick. Copy it with `chartscene composition show follow > myfollow.lua`.
local cs = require("chartscene")

local curves = {
  linear = function(p) return p end,
  easeIn = function(p) return p * p * p end,
  easeOut = function(p) return 1 - (1 - p) ^ 3 end,
  easeInOut = function(p) return p < 0.5 and 4 * p * p * p or 1 - (-2 * p + 2) ^ 3 / 2 end,
}

return function(t)
  cs.options("cs.follow", t) -- checked against the declared options (docs/lua-api.md, cs.follow)
  if t.data ~= nil and t.chart ~= nil then cs.error("cs.follow takes 'data' (a ChartSet) or 'chart' (a chart's id), not both") end
  if t.chart == nil and (type(t.data) ~= "userdata" or not t.data.lines) then
    cs.error("missing field 'data' in cs.follow (the ChartSet whose window it moves, or chart = ID)")
  end
  if not t.window then cs.error("missing field 'window' in cs.follow (the seconds of data the window shows)") end
  if not t.duration then cs.error("missing field 'duration' in cs.follow (the seconds of the scene it takes to reach the newest point)") end
  local from, duration, ease = t.from or 0, t.duration, curves[t.curve or "easeInOut"]
  -- The script's line that called cs.follow, for an error found later (a chart id is
  -- checked on the first tick, once the scene is built).
  local _, here = pcall(error, "", 4)
  local set, width, start
  return function(time)
    if not set then
      -- A chart's set is known once the scene is built (the first tick).
      if t.data then set = t.data else
        local ok, geometry = pcall(cs.chartGeometry, t.chart)
        if not ok then error(tostring(here) .. "bad field 'chart' in cs.follow (" .. tostring(geometry):gsub("^cs.chartGeometry: ", "") .. ")", 0) end
        set = geometry.data
      end
      local first, last = set:valuesAt(0).time, set:valuesAt(1).time
      local span = last - first
      -- The window's width as a fraction of the axis (a set of one point: the whole axis).
      width = span > 0 and math.min(1, t.window * 1000 / span) or 1
      -- Where the newest point starts: the window's right edge as the follow begins.
      start = math.max(t.start or width, width)
    end
    local p = math.max(0, math.min(1, (time - from) / duration))
    local newest = start + (1 - start) * ease(p)
    set:setRange(newest - width, newest, false)
  end
end
