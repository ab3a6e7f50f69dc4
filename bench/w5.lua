-- Benchmark workload W5, "stacked bars": 120 frames of 1280x720 (60 fps, 2 s) of round-two
-- chart 3 (seven stacked bar series, 365 days), the window dragged linearly from
-- [0.00, 0.25] to [0.75, 1.00], the y-range following the stacked sums in the window.
-- Render it as a PNG sequence (-o DIR/f-%04d.png) or a video (-o w5.mp4).
-- bench/w5_matplotlib.py draws the same frames.
local cs = require("chartscene")
local set = cs.data.telegram("../examples/data/round2/3/overview.json")[1]
set:setRange(0, 0.25)

local frames = 120
return cs.scene {
  width = 1280, height = 720, theme = "day", fps = 60, duration = frames / 60,
  root = cs.chart { id = "fruits", data = set, title = "Fruits" },
  update = function(t)
    local k = math.floor(t * 60 + 0.5)
    local lo = 0.75 * k / (frames - 1)
    set:setRange(lo, lo + 0.25, false)
  end,
}
