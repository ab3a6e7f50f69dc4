-- The night theme: set 5 (four lines) with one line hidden and the indicator shown.
local cs = require("chartscene")
local set = cs.data.sample()[5]

set:setRange(0.55, 0.9)
set:hide("y3")

return cs.scene {
  width = 720, height = 640, theme = "night",
  root = cs.chart { id = "messages", data = set, title = "Messages", indicatorAt = 0.8 },
}
