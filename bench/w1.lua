-- Benchmark workload W1, "still list": the five round-1 sets of the Telegram contest stacked
-- on one 1080 px wide canvas, each panel 640 px tall (title, main plot of the window
-- [0.75, 1.0] with 2 px lines, Y grid with labels, date labels, mini-map with the window,
-- check-mark chips), day theme: one PNG of 1080×3200. bench/w1_matplotlib.py draws the same.
local cs = require("chartscene")
local sets = cs.data.telegram("../assets/data/chart_data.json")

local titles = { "Followers", "Views", "Shares", "Joined", "Messages" }
local charts = { spacing = 0 }
for i, set in ipairs(sets) do
  set:setRange(0.75, 1.0)
  charts[#charts + 1] = cs.chart { id = "chart" .. i, data = set, title = titles[i], lineWidth = 2 }
end

return cs.scene {
  width = 1080, height = 3200, theme = "day",
  root = cs.vstack(charts),
}
