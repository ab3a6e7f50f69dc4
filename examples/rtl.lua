-- Right to left, at night: the Arabic chart title starts at the right edge by itself, the
-- heading sits there in a stack aligned "trailing"; Pango orders the words and keeps the
-- numbers readable ("الربع 4 — 2024"); the poster and chips name the lines in Arabic and Hebrew.
local cs = require("chartscene")

local x, a, b = {}, {}, {}
for i = 1, 60 do
  x[i] = 1546300800000 + (i - 1) * 86400000
  a[i] = 300 + 120 * math.sin(i / 6) + i * 3
  b[i] = 200 + 60 * math.cos(i / 5) + i * 2
end

return cs.scene {
  width = 720, height = 800, theme = "night",
  root = cs.vstack {
    align = "trailing",
    cs.text { text = "تقرير المبيعات: الربع 4 — 2024", size = 26, weight = "bold", padding = { 16, 16, 8, 16 } },
    cs.chart {
      id = "sales", title = "المبيعات اليومية (بالآلاف)", indicatorAt = 0.6,
      data = cs.data.series { x = x, lines = {
        { id = "online", name = "عبر الإنترنت", color = "#48AAF0", values = a },
        { id = "stores", name = "חנויות", color = "#E5B735", values = b },
      } },
    },
  },
}
