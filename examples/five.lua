-- The contest's "all charts on one screen": the five sample sets stacked vertically,
-- each with its own window.
local cs = require("chartscene")
local sets = cs.data.sample()

local charts = { spacing = 0 }
local titles = { "Followers", "Views", "Shares", "Joined", "Messages" }
for i, set in ipairs(sets) do
  set:setRange(0.75, 1.0)
  charts[#charts + 1] = cs.chart { id = "chart" .. i, data = set, title = titles[i] }
end

return cs.scene {
  width = 720, height = 2600, theme = "day",
  root = cs.vstack(charts),
}
