-- One chart in many scripts: titles and line names in Chinese, Japanese, Korean, Arabic,
-- Hebrew, Hindi, Thai, Russian, Greek and an emoji, each drawn from the fonts built into
-- chartscene (no installed font is used). Arabic and Hebrew titles start at the right edge.
local cs = require("chartscene")

-- Four weeks of daily values, the same in every chart.
local x, a, b = {}, {}, {}
for i = 1, 28 do
  x[i] = 1546300800000 + (i - 1) * 86400000
  a[i] = 120 + 40 * math.sin(i / 3) + i * 2
  b[i] = 90 + 25 * math.cos(i / 4) + i
end

local function chart(id, title, first, second)
  return cs.chart {
    id = id, title = title, minimap = false,
    data = cs.data.series { x = x, lines = {
      { id = "a", name = first, color = "#3DC23F", values = a },
      { id = "b", name = second, color = "#3896E3", values = b },
    } },
  }
end

return cs.scene {
  width = 720, height = 1500, theme = cs.args.theme or "day",
  root = cs.vstack {
    chart("zh", "销售额 (万元) · 銷售額", "线上", "門市"),
    chart("ja", "売上高 2024年", "オンライン", "店舗"),
    chart("ar", "المبيعات ٢٠٢٤ (بالآلاف)", "عبر الإنترنت", "المتاجر"),
    chart("he", "מכירות 2024", "אונליין", "חנויות"),
    chart("mix", "Продажи · Πωλήσεις · बिक्री · ยอดขาย 📈", "온라인", "🛒 Магазины"),
  },
}
