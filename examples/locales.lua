-- One chart in the reader's language: the month names and date patterns of the axis and the
-- poster, the separators and the compact suffixes (1,2 млн, 120万) come from the scene's
-- locale; the times from its time zone. Try --arg locale=ja, --locale de or --timezone
-- America/New_York (docs/locales.md).
local cs = require("chartscene")

local day = 86400000
local start = 1546300800000 - 3 * 3600000 -- 2019-01-01T00:00+03:00, midnight in Moscow
local x, web, shops = {}, {}, {}
for i = 0, 119 do
  x[#x + 1] = start + i * day
  web[#web + 1] = math.floor(1200000 + 400000 * math.sin(i / 9) + 6000 * i)
  shops[#shops + 1] = math.floor(800000 + 250000 * math.cos(i / 7))
end
local sales = cs.data.series {
  name = "Sales", x = x,
  lines = {
    { id = "web", name = "Web", color = "#3497ED", values = web },
    { id = "shops", name = "Shops", color = "#F34C44", values = shops },
  },
}
sales:setRange(0.55, 1.0)

return cs.scene {
  width = 720, height = 640,
  locale = cs.args.locale or "ru",
  timezone = cs.args.timezone or "Europe/Moscow",
  root = cs.chart { id = "sales", data = sales, title = cs.args.title or "Продажи", indicatorAt = 0.6 },
}
