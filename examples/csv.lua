-- Your own data: two CSV files shipped in examples/data/, in a list with the sample charts.
-- temperatures.csv is wide (a date column, then one column per city, "NA" for a missing
-- day); rainfall.csv is long ("tidy": a month column, a city column and a value column), so
-- it names the column that splits it into lines (series) and the one that holds the numbers
-- (value). Lines are addressed by their column or series name: set:hide("Oslo").
local cs = require("chartscene")

local temps = cs.data.csv("data/temperatures.csv", {
  name = "Temperature",
  colors = { Oslo = "#3497ED", Lisbon = "#F34C44" },
})
local rain = cs.data.csv("data/rainfall.csv", {
  series = "city", value = "rain_mm",
  colors = { Oslo = "#3497ED", Lisbon = "#F34C44" },
})

local rows = { id = "list", spacing = 12, rowHeight = 520, padding = { 12, 0 } }
rows[1] = cs.chart { id = "temps", data = temps, title = "Daily mean temperature, °C (2023)", background = "background", cornerRadius = 0 }
rows[2] = cs.chart { id = "rain", data = rain, title = "Rainfall, mm a month (2023)", background = "background", cornerRadius = 0 }
local titles = { "Followers", "Views", "Shares", "Joined", "Messages" }
for i, set in ipairs(cs.data.sample()) do
  set:setRange(0.75, 1.0)
  rows[#rows + 1] = cs.chart { id = "chart" .. i, data = set, title = titles[i], background = "background", cornerRadius = 0 }
end

return cs.scene {
  width = 720, height = 1080, theme = "day", background = "groupedBackground",
  fps = 30, duration = 3,
  root = cs.list(rows),
  timeline = {
    cs.tap { at = 1.0, target = "temps.legend.Oslo" },
    cs.tap { at = 2.0, target = "temps.legend.Oslo" },
  },
}
