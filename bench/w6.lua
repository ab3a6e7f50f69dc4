-- Benchmark workload W6, "race": a bar chart race of 30 series over 20 periods (one a year),
-- the ten largest shown, 1280x720 at 30 fps, one period a second (19 s, 570 frames), to an
-- MP4. bench/w6_bar_chart_race.py renders the same CSV with the `bar_chart_race` package.
-- scripts/bench writes the CSV (bench/w6_data.py) next to a copy of this script (w6.csv).
local cs = require("chartscene")
local set = cs.data.csv(cs.args.data or "w6.csv", { name = "W6" })

return cs.scene {
  width = 1280, height = 720, theme = "day", fps = 30, duration = 19,
  root = cs.race { data = set, top = 10, period = 1, title = "W6", dateFormat = "%Y", padding = { 16, 24 } },
}
