-- The article's TabView: the list, the 3D carousel and the overlaid cards of the same five
-- sample charts, one per tab (the cards tab is selected). The sets are shared, so every
-- tab shows the same windows and hidden lines.
local cs = require("chartscene")
local sets = cs.data.sample()
local titles = { "Followers", "Views", "Shares", "Joined", "Messages" }
for _, set in ipairs(sets) do set:setRange(0.75, 1.0) end

local function views(make, into)
  for i, set in ipairs(sets) do into[#into + 1] = make(i, set) end
  return into
end

local list = cs.list(views(function(i, set)
  return cs.chart { id = "row" .. i, data = set, title = titles[i], background = "background" }
end, { id = "list", rowHeight = 480 }))

local carousel = cs.carousel(views(function(i, set)
  return cs.card { id = "item" .. i, data = set, title = titles[i] }
end, { id = "carousel", itemWidth = 420, scroll = 888, padding = { 24, 0 } }))

local cards = cs.cards(views(function(i, set)
  return cs.card { id = "card" .. i, data = set, title = titles[i] }
end, { id = "deck", padding = { 40, 24 } }))

return cs.scene {
  width = 720, height = 1000, theme = "night", background = "groupedBackground",
  root = cs.tabs {
    id = "tabs", selected = "Cards",
    { title = "List", icon = "list", view = list },
    { title = "3D", icon = "carousel", view = carousel },
    { title = "Cards", icon = "cards", view = cards },
  },
}
