-- Axis labels a reader can read (issue 21): on the night theme, Y labels of bars, stacks and
-- percentages sit in a gutter left of the plot, "%" included; labels asked inside a plot of
-- bars sit on an opaque backing; a chart with two Y axes labels the same grid lines on both
-- sides, each in its line's colour made readable (4.5:1 or more, as every axis label is).
local cs = require("chartscene")
local dir = "data/round2/"
local function set(n)
  local s = cs.data.telegram(dir .. n .. "/overview.json")[1]
  s:setRange(0.8, 1.0)
  return s
end

local function chart(id, n, title, extra)
  local t = { id = id, data = set(n), title = title, indicator = false, legend = false,
    minimap = false, background = "cardBackground", cornerRadius = 12 }
  for k, v in pairs(extra or {}) do t[k] = v end
  return cs.chart(t)
end

return cs.scene {
  width = 720, height = 1240, theme = "night", background = "groupedBackground",
  root = cs.vstack {
    spacing = 16, padding = 16,
    chart("stacked", 3, "Fruits: stacked bars, labels in a gutter"),
    chart("twoAxes", 2, "Views and shares: two axes on one grid", { yLabels = "outside" }),
    chart("shares", 5, "Fruits (share): percentages with their %"),
    chart("inside", 4, "Views: labels inside, on a backing", { yLabels = "inside" }),
  },
}
