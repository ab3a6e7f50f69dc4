-- Zooming into a day, the contest's round-two rule: the indicator stands on 6 October;
-- tap its poster to zoom into the day (the window narrows while the day's hourly detail
-- fades in), then "Zoom Out". The percentage chart zooms into a pie of the day's shares;
-- a tap on a slice pulls it out with its value.
-- `chartscene examples/zoom.lua` writes zoom.mp4; `-o zoom.png --at 2` one frame.
local cs = require("chartscene")
local dir = "data/round2/"
local joined = cs.data.telegram(dir .. "1/overview.json", { days = dir .. "1" })[1]
local fruits = cs.data.telegram(dir .. "5/overview.json")[1]
joined:setRange(0.45, 0.6)
fruits:setRange(0.45, 0.6)

return cs.scene {
  width = 720, height = 1100, theme = "day", fps = 30, duration = 9,
  root = cs.vstack {
    spacing = 0,
    cs.chart { id = "joined", data = joined, title = "Followers", indicatorAt = 0.5 },
    cs.chart { id = "fruits", data = fruits, title = "Fruits", indicatorAt = 0.5 },
  },
  timeline = {
    -- A tap on the poster of 6 October zooms into the day.
    cs.tap { at = 1.2, target = "joined.poster" },
    cs.drag { at = 2.2, target = "joined.plot", by = { 120, 0 }, duration = 0.6 },
    cs.tap { at = 3.4, target = "joined.zoomOut" },
    -- The percentage chart: a tap on its poster shows the pie; a tap pulls a slice out.
    cs.tap { at = 5.4, target = "fruits.poster" },
    cs.tap { at = 6.6, pos = { 360, 780 } },
    cs.call { at = 8.0, fn = function() fruits:zoomOut() end },
  },
}
