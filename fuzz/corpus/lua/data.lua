local a = cs.data.csv("../csv/dates.csv", { name = "A", colors = { "#ff0000" } })
local b = cs.data.telegram("../telegram/round2-2-mini.json")[1]
local c = cs.data.series { name = "S", x = { 0, 1000, 2000 }, lines = { { id = "p", values = { 1, 0/0, 3 }, type = "bar" } } }
b:setRange(0.2, 0.9)
a:hide("y1", true)
local lo, hi = b:dataRange()
local v = c:valuesAt(0.5)
return cs.scene {
  width = 360, height = 640, theme = "night",
  root = cs.vstack { spacing = 8,
    cs.chart { data = a, title = a.name, indicatorAt = 0.5 },
    cs.card { data = b, title = tostring(lo) .. "-" .. tostring(hi), xAxis = false },
    cs.chart { data = c, legend = false, yAxis = false },
  },
}
