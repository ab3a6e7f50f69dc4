-- Benchmark workload W4, "a million points": 120 frames of 1280x720 (60 fps, 2 s) of one
-- CSV line of 1,000,000 points, the window sliding across the axis while it zooms in and
-- out (a fifth of the axis down to a hundredth and back), the y-range following the
-- visible points. scripts/bench writes the CSV and runs
--   chartscene bench/w4.lua --arg data=W4.CSV -o DIR/f-%04d.png
-- `--arg points=N` (with `--arg data=` unset) makes an inline series of N points instead
-- (scripts/bench uses it for the 100,000,000-point frame; it needs --max-memory and time).
local cs = require("chartscene")

local set
if cs.args.data then
  set = cs.data.csv(cs.args.data, { name = "A million points" })
else
  local n = math.tointeger(tonumber(cs.args.points or "1000000"))
  local xs, ys = {}, {}  -- collected once the script has run
  local y, seed = 1000.0, 1
  for i = 1, n do
    -- A deterministic random walk (a linear congruential generator).
    seed = (seed * 1103515245 + 12345) % 2147483648
    y = y + (seed / 2147483648 - 0.5)
    xs[i] = 1600000000000 + (i - 1) * 60000
    ys[i] = y
  end
  set = cs.data.series { name = n .. " points", x = xs, lines = { { id = "y0", name = "Load", values = ys } } }
end

local frames = tonumber(cs.args.frames or "120")
local function window(k)
  local u = frames > 1 and k / (frames - 1) or 0
  local width = 0.01 + 0.19 * (0.5 + 0.5 * math.cos(2 * math.pi * u))
  local lo = u * (1 - width)
  return lo, lo + width
end
set:setRange(window(0))

return cs.scene {
  width = 1280, height = 720, theme = "day", fps = 60, duration = frames / 60,
  root = cs.chart { id = "load", data = set, title = "A million points", lineWidth = 2 },
  update = function(t)
    local k = math.floor(t * 60 + 0.5)
    local lo, hi = window(k)
    set:setRange(lo, hi, false)
  end,
}
