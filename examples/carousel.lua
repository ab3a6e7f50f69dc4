-- The article's horizontal HStack with a 3D effect: the five sample charts side by side,
-- each turned about the vertical axis by its distance from the centre. A flick to the left
-- brings the next card to the centre (it snaps), and a drag brings one back.
local cs = require("chartscene")
local sets = cs.data.sample()
local titles = { "Followers", "Views", "Shares", "Joined", "Messages" }

local items = { id = "carousel", spacing = 24, itemWidth = 420, angle = 35, scroll = 888 }
for i, set in ipairs(sets) do
  set:setRange(0.7, 1.0)
  items[#items + 1] = cs.card { id = "card" .. i, data = set, title = titles[i] }
end

return cs.scene {
  width = 1000, height = 560, theme = "day", background = "groupedBackground",
  fps = 30, duration = 4,
  root = cs.carousel(items),
  timeline = {
    -- Flicked: the carousel leaves the hand at its speed and springs onto the next card.
    cs.drag { at = 0.5, target = "carousel", by = { -300, 0 }, duration = 0.3, flick = true },
    cs.drag { at = 2.2, target = "carousel", by = { 500, 0 }, duration = 0.7 },
  },
}
