-- One chart set with its window on the last quarter and the indicator shown:
-- the contest's ChartView with title, Y grid, date labels, mini-map and check marks.
local cs = require("chartscene")
local sets = cs.data.sample()

local followers = sets[1]
followers:setRange(0.75, 1.0)

return cs.scene {
  width = 720, height = 640, theme = "day",
  root = cs.chart {
    id = "followers", data = followers, title = "Followers",
    indicatorAt = 0.93,
  },
}
