-- Stacks on data the contest did not have: negative values stacked below 0 (diverging
-- stacks), a missing value in stacked bars and in a 100 % chart (a gap, not a jump to 100 %),
-- and three bar lines that are not stacked, side by side in each day. Last, long data in
-- gapminder's shape (made-up numbers: 142 countries, a row every 5 years, as pandas writes
-- it): the poster shows the biggest countries that fit and "+ N more", the legend the chips
-- that fit and "+ N more", and the plot keeps half the chart.
local cs = require("chartscene")
local dir = "data/stress/"
local charts = {
  { "negbars", "Stacked, with negatives" },
  { "gapbars", "Stacked, with missing values" },
  { "gappct", "Shares, with missing values" },
  { "groupbars", "Three bar lines, not stacked" },
}

local rows = { id = "list", spacing = 16, rowHeight = 420 }
for _, c in ipairs(charts) do
  local set = cs.data.telegram(dir .. c[1] .. ".json")[1]
  rows[#rows + 1] = cs.chart {
    id = c[1], data = set, title = c[2], indicatorAt = 0.42,
    background = "cardBackground", cornerRadius = 12,
  }
end

local countries = cs.data.csv("data/gapminder.csv", { x = "year", series = "country", value = "pop", timeFormat = "%Y" })
rows[#rows + 1] = cs.chart {
  id = "gapminder", data = countries, title = "Population of 142 countries", type = "area", stacked = true,
  indicatorAt = 0.5, background = "cardBackground", cornerRadius = 12,
}

return cs.scene {
  width = 600, height = 2196, theme = "day", background = "groupedBackground",
  root = cs.list(rows),
}
