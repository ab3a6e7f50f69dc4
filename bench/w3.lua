-- Benchmark workload W3, "a million rows": one CSV of 1,000,000 rows and two columns (a time
-- every minute from 2020-01-01, ISO 8601, and a value with four decimals), drawn whole on one
-- 1920×1080 chart: title, the line 2 px wide over every point (decimated per pixel column),
-- Y grid with labels, date labels, mini-map, chip. bench/w3_matplotlib.py draws the same from
-- the same file. scripts/bench writes the CSV next to a copy of this script (w3.csv).
local cs = require("chartscene")
local set = cs.data.csv("w3.csv", { name = "A million rows" })

return cs.scene {
  width = 1920, height = 1080, theme = "day",
  root = cs.chart { data = set, title = "A million rows", lineWidth = 2 },
}
