-- A cover flow of the five sample charts (the composition is examples/lib/coverflow.lua,
-- written on cs.view). A tap on a side chart brings it to the centre, a drag moves the row
-- under the finger and a flick glides and comes to rest on a chart.
local cs = require("chartscene")
local coverflow = require("lib.coverflow")
local sets = cs.data.sample()
local titles = { "Followers", "Views", "Shares", "Joined", "Messages" }

local flow = { id = "flow", index = 2, background = "groupedBackground" }
for i, set in ipairs(sets) do
  set:setRange(0.7, 1.0)
  flow[#flow + 1] = cs.card { id = "card" .. i, data = set, title = titles[i] }
end

return cs.scene {
  width = 1000, height = 520, theme = "day", background = "groupedBackground",
  fps = 30, duration = 6,
  root = coverflow(flow),
  timeline = {
    -- A tap on the chart right of the centre: it comes to the centre.
    cs.tap { at = 0.5, target = "card3" },
    -- A slow drag to the right brings the row back by about one chart, under the finger.
    cs.drag { at = 1.8, target = "flow", by = { 330, 0 }, duration = 0.8 },
    -- A flick to the left glides past two charts and comes to rest on one.
    cs.drag { at = 3.6, target = "flow", by = { -260, 0 }, duration = 0.2, flick = true },
  },
}
