-- Files shaped the way pandas writes them (made-up numbers): a yearly series with float years
-- (statsmodels' sunspots style, `1700.0`), a quarterly frame with its unnamed index and float
-- year and quarter columns (macrodata style), and a daily log with days missing. Read as
-- years, quarters and a line with gaps; each poster says only what its data knows.
local cs = require("chartscene")
-- Said outright here; without timeFormat (and columns) each is a guess, named in one warning.
local yearly = cs.data.csv("data/yearly.csv", { name = "Yearly activity (float years)", timeFormat = "%Y" })
local quarterly = cs.data.csv("data/quarterly.csv", { name = "Quarterly output (year + quarter)",
  x = "year", timeFormat = "%Y", columns = { "realgdp" } })
local daily = cs.data.csv("data/gappy.csv", { name = "Daily readings (days missing)" })
return cs.scene {
  width = 900, height = 1100, theme = "day", background = "groupedBackground",
  root = cs.vstack { padding = 16, spacing = 16,
    cs.chart { data = yearly, indicatorAt = 0.62, background = "cardBackground", cornerRadius = 12, padding = 12 },
    cs.chart { data = quarterly, indicatorAt = 0.6, background = "cardBackground", cornerRadius = 12, padding = 12 },
    cs.chart { data = daily, indicatorAt = 0.5, background = "cardBackground", cornerRadius = 12, padding = 12 },
  },
}
