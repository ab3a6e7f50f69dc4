-- The article's List: the five sample charts in a vertical scrolling list, scrolled so
-- that the second chart is at the top.
local cs = require("chartscene")
local sets = cs.data.sample()
local titles = { "Followers", "Views", "Shares", "Joined", "Messages" }

local rows = { id = "list", spacing = 12, rowHeight = 520, scroll = 532, padding = { 12, 0 } }
for i, set in ipairs(sets) do
  set:setRange(0.75, 1.0)
  rows[#rows + 1] = cs.chart { id = "chart" .. i, data = set, title = titles[i], background = "background", cornerRadius = 0 }
end

return cs.scene {
  width = 720, height = 1280, theme = "night", background = "groupedBackground",
  root = cs.list(rows),
}
