-- The contest's second round: its five charts in a list, night theme. Lines (1), two Y
-- axes (2), seven stacked bar series (3), a daily bar chart (4) and 100 % stacked areas
-- (5), each drawn as its data asks, with the indicator on one day.
local cs = require("chartscene")
local dir = "data/round2/"
local titles = { "Followers", "Interactions", "Fruits", "Views", "Fruits (share)" }

local rows = { id = "list", spacing = 16, rowHeight = 560 }
for i = 1, 5 do
  local set = cs.data.telegram(dir .. i .. "/overview.json")[1]
  set:setRange(0.75, 1.0)
  rows[#rows + 1] = cs.chart {
    id = "chart" .. i, data = set, title = titles[i], indicatorAt = 0.9,
    background = "cardBackground", cornerRadius = 12,
  }
end

return cs.scene {
  width = 720, height = 2960, theme = "night", background = "groupedBackground",
  root = cs.list(rows),
}
