-- Twelve made-up messengers' monthly active users over eight years (96 months): the data of
-- examples/race.lua and linerace.lua, from a small deterministic generator (the same numbers
-- on every run and machine).
--   local messengers = require("lib.messengers")
--   local set, months = messengers()
local cs = require("chartscene")

return function()
  -- A small deterministic generator (the same numbers on every run and machine).
  local seed = 7
  local function rand() seed = (seed * 1103515245 + 12345) % 2147483648; return seed / 2147483648 end

  local names = { "Wavely", "Chatter", "Pigeon", "Lumen", "Kite", "Orbit", "Murmur", "Beacon", "Quill", "Relay", "Echo", "Tandem" }
  local colors = { "#3497ED", "#F34C44", "#3CC23F", "#F5BD25", "#9B59B6", "#E67E22", "#1ABC9C", "#E84393", "#2D98DA", "#8E6E53", "#7F8C8D", "#16A085" }
  local months = 96
  local x = {}
  for m = 1, months do x[m] = os.time({ year = 2016 + (m - 1) // 12, month = (m - 1) % 12 + 1, day = 1, hour = 0 }) * 1000 end
  local lines = {}
  for i, name in ipairs(names) do
    local v, growth, start = 2e6 * rand(), 0.01 + 0.05 * rand(), math.floor(rand() * 40)
    local values = {}
    for m = 1, months do
      if m > start then v = v * (1 + growth + 0.04 * (rand() - 0.5)) + 2e5 * rand() end
      values[m] = m > start and v or 0
    end
    lines[i] = { id = "m" .. i, name = name, color = colors[i], values = values }
  end
  local set = cs.data.series { name = "Monthly active users", x = x, lines = lines }
  return set, months
end
