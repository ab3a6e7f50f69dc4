-- A bar chart race (cs.race, a composition written in Lua: `chartscene composition show race`):
-- twelve made-up messengers' monthly active users over eight years. Values count up between
-- months and bars swap places smoothly.
local cs = require("chartscene")

local set, months = require("lib.messengers")()

return cs.scene {
  width = 1280, height = 720, theme = "day", fps = 30, duration = 12,
  root = cs.race { id = "race", data = set, top = 10, period = 12 / (months - 1), title = "Monthly active users", padding = { 24, 32 } },
}
