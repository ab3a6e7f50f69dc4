-- One script, many variants (docs/scale.md): `chartscene channel.lua --arg channel=42` draws
-- channel 42's chart. The channel picks one of the five sample sets and its window; a title
-- may be given with --arg title="...". Used by the batch and shard recipes.
local cs = require("chartscene")
local n = math.tointeger(tonumber(cs.args.channel or "1")) or 1
local names = { "Followers", "Views", "Shares", "Joined", "Messages" }
local i = (n - 1) % #names + 1
local set = cs.data.sample()[i]
local from = 0.5 + 0.04 * ((n - 1) % 10)
set:setRange(from, from + 0.25)
return cs.scene {
  width = 480, height = 420, theme = (n % 2 == 0) and "night" or "day",
  root = cs.chart { data = set, title = cs.args.title or ("Channel " .. n .. ": " .. names[i]) },
}
