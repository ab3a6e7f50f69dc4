-- The article's overlaid cards: the five sample charts as a stack of cards, each deeper
-- card smaller and shifted up; "views" has been sent to the back.
local cs = require("chartscene")
local sets = cs.data.sample()
local titles = { "Followers", "Views", "Shares", "Joined", "Messages" }
local ids = { "followers", "views", "shares", "joined", "messages" }

local deck = { id = "deck", padding = { 40, 24 }, scaleStep = 0.06, offsetStep = 22,
  order = { "followers", "shares", "joined", "messages", "views" } }
for i, set in ipairs(sets) do
  set:setRange(0.75, 1.0)
  deck[#deck + 1] = cs.card { id = ids[i], data = set, title = titles[i] }
end

return cs.scene {
  width = 720, height = 900, theme = "day", background = "groupedBackground",
  root = cs.cards(deck),
}
