-- The article's overlaid cards, in motion: the five sample charts as a stack of cards.
-- The viewer sends the top card to the back twice (long press, then drag it down), opens
-- the new top card in a modal, drags its mini-map window, hides a line and closes it.
-- `chartscene examples/cards.lua` writes cards.mp4; `-o cards.png --at 5` one frame.
local cs = require("chartscene")
local sets = cs.data.sample()
local titles = { "Followers", "Views", "Shares", "Joined", "Messages" }
local ids = { "followers", "views", "shares", "joined", "messages" }

local deck = { id = "deck", padding = { 40, 24 }, scaleStep = 0.06, offsetStep = 40 }
for i, set in ipairs(sets) do
  set:setRange(0.75, 1.0)
  deck[#deck + 1] = cs.card { id = ids[i], data = set, title = titles[i] }
end

return cs.scene {
  width = 720, height = 900, theme = "day", background = "groupedBackground",
  fps = 30, duration = 9.5,
  root = cs.cards(deck),
  timeline = {
    -- Long press, then drag the top card down past the threshold: it goes to the back.
    cs.drag { at = 0.5, target = "deck", by = { 0, 420 }, hold = 0.6, duration = 0.6 },
    cs.drag { at = 2.3, target = "deck", by = { 0, 420 }, hold = 0.6, duration = 0.6 },
    -- Released early (under 80 px, the least threshold), a card springs back at any size.
    cs.drag { at = 4.0, target = "deck", by = { 0, 60 }, hold = 0.6, duration = 0.3 },
    -- A tap presents the top card (Shares) with its mini-map and check marks.
    cs.tap { at = 5.4, target = "deck" },
    cs.drag { at = 6.1, target = "shares.minimap.window", by = { -260, 0 }, duration = 1.0 },
    cs.tap { at = 7.5, target = "shares.legend.y1" },
    -- A tap outside the sheet (above it, inside even a 320x240 scene) closes it.
    cs.tap { at = 8.7, pos = { 160, 8 } },
  },
}
