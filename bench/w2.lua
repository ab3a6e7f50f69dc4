-- Benchmark workload W2, "sliding window": 120 frames of 1280x720 (60 fps, 2 s) of round-1
-- set 5 (four lines), the window sliding linearly from [0.00, 0.25] to [0.75, 1.00], the
-- y-range following the visible points. Render it as a PNG sequence (-o DIR/f-%04d.png)
-- or a video (-o w2.mp4). bench/w2_matplotlib.py draws the same frames.
local cs = require("chartscene")
local set = cs.data.telegram("../assets/data/chart_data.json")[5]
set:setRange(0, 0.25)

local frames = 120
return cs.scene {
  width = 1280, height = 720, theme = "day", fps = 60, duration = frames / 60,
  root = cs.chart { id = "messages", data = set, title = "Messages", lineWidth = 2 },
  update = function(t)
    local k = math.floor(t * 60 + 0.5)
    local lo = 0.75 * k / (frames - 1)
    set:setRange(lo, lo + 0.25, false)
  end,
}
