local sets = cs.data.telegram("../telegram/round1-mini.json")
local rows = {}
for i = 1, 2 do rows[i] = cs.card { id = "c" .. i, data = sets[i], title = "#" .. i } end
rows.rowHeight = 200; rows.scroll = 40
return cs.scene {
  width = 480, height = 800, preset = "day",
  root = cs.tabs { selected = 2,
    { title = "List", icon = "list", view = cs.list(rows) },
    { title = "3D", view = cs.carousel { itemWidth = 300, cs.chart { data = sets[3] }, cs.spacer {} } },
    { title = "Cards", view = cs.cards { order = { "k2", "k1" }, cs.card { id = "k1", data = sets[4] }, cs.card { id = "k2", data = sets[5] } } },
  },
  timeline = { cs.drag { at = 0.5, target = "c1", by = { 0, 100 }, hold = 0.2, duration = 0.3 } },
}
