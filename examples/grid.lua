-- A grid of six charts (the composition is examples/lib/grid.lua, written on cs.view). A tap
-- on a chart opens it to fill the view, with its mini-map and legend; a tap on "Close" (or
-- on its title) puts it back in its cell.
local cs = require("chartscene")
local grid = require("lib.grid")

local titles = { "Followers", "Views", "Shares", "Joined", "Messages" }
local cells = { id = "grid", columns = 3, spacing = 12, margin = 12 }
for i, set in ipairs(cs.data.sample()) do
  set:setRange(0.75, 1.0)
  cells[i] = cs.chart { id = "chart" .. i, data = set, title = titles[i], cornerRadius = 12, background = "cardBackground" }
end
local temps = cs.data.csv("data/temperatures.csv", { name = "Temperature", colors = { Oslo = "#3497ED", Lisbon = "#F34C44" } })
cells[6] = cs.chart { id = "chart6", data = temps, title = "Temperature", cornerRadius = 12, background = "cardBackground" }

return cs.scene {
  width = 960, height = 460, theme = "day", background = "groupedBackground",
  fps = 30, duration = 4,
  root = grid(cells),
  timeline = {
    -- A tap on the Shares chart opens it; a tap on Close puts it back.
    cs.tap { at = 0.5, target = "chart3.plot" },
    cs.tap { at = 2.4, target = "grid-close" },
  },
}
