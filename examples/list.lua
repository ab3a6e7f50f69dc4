-- The article's List: the five sample charts in a vertical scrolling list, scrolled so
-- that the second chart is at the top; then a flick scrolls on (with deceleration), the
-- Shares chart's window is dragged and a line is hidden, and a wheel scroll goes back up.
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
  fps = 30, duration = 6,
  root = cs.list(rows),
  timeline = {
    -- A flick: the hand lets go while moving, and the list glides on, slowing down.
    cs.drag { at = 0.4, target = "list", by = { 0, -200 }, duration = 0.25, flick = true },
    cs.drag { at = 2.0, target = "chart3.minimap.window", by = { -200, 0 }, duration = 0.8 },
    cs.tap { at = 3.2, target = "chart3.legend.y0" },
    cs.scroll { at = 4.2, target = "list", by = { 0, -400 }, duration = 0.5 },
  },
}
