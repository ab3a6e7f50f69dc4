-- A line race (cs.race with kind = "line"): the twelve made-up messengers of race.lua, each
-- line drawing itself as the months pass, its name and value at the tip, the labels kept
-- apart. `chartscene composition show race` prints the composition.
local cs = require("chartscene")

local set, months = require("lib.messengers")()

return cs.scene {
  width = 1280, height = 720, theme = "day", fps = 30, duration = 12,
  root = cs.race { id = "race", kind = "line", data = set, top = 8, period = 12 / (months - 1), title = "Monthly active users", padding = { 24, 32 } },
}
