-- Annotations pinned to data, text that follows time and a camera: a year of daily sign-ups
-- arrives over ten seconds. cs.follow keeps the window on the newest 90 days; the notes,
-- the band and the rules sit on their data as the window moves and the Y axis rescales, and
-- fade out as they leave the plot; the headline and the title count from the value shown.
local cs = require("chartscene")

-- A small deterministic generator (the same numbers on every run and machine).
local seed = 11
local function rand() seed = (seed * 1103515245 + 12345) % 2147483648; return seed / 2147483648 end

local days = 365
local x, signups, paid = {}, {}, {}
local base = 1672531200000 -- 2023-01-01 UTC
for d = 1, days do
  x[d] = base + (d - 1) * 86400000
  local trend = 120 + d * 1.4 + 40 * math.sin(d / 29)
  local launch = d >= 95 and 900 * math.exp(-(d - 95) / 6) or 0 -- the launch on April 5
  local campaign = (d >= 200 and d <= 230) and 160 or 0 -- the summer campaign
  signups[d] = math.floor(trend + launch + campaign + 60 * rand())
  paid[d] = math.floor(signups[d] * (0.18 + 0.04 * rand()))
end
local set = cs.data.series { name = "Sign-ups", x = x, lines = {
  { id = "signups", name = "Sign-ups", color = "#3497ED", values = signups },
  { id = "paid", name = "Paid", color = "#F34C44", values = paid },
} }

return cs.scene {
  width = 720, height = 640, fps = 30, duration = 10,
  root = cs.vstack { spacing = 0,
    cs.text { id = "headline", data = set, text = "{value:paid|int} paid sign-ups on {time:%B %e}", size = 22, weight = "bold", align = "center", frame = { width = 720 }, padding = { 12, 0, 0, 0 } },
    cs.chart { id = "signups", data = set, title = "Sign-ups a day: {value:signups|int}", legend = true,
      annotations = {
        cs.note { at = "2023-04-05", line = "signups", text = "Launch" },
        cs.note { at = "2023-06-12", value = 420, text = "Press review", color = "#9B59B6" },
        cs.band { from = "2023-07-19", to = "2023-08-18", text = "Summer campaign" },
        cs.rule { value = 600, text = "Goal: 600 a day" },
        cs.rule { at = "2023-08-28", text = "v2.0", appear = 4.8 },
      } },
  },
  update = cs.follow { chart = "signups", window = 90 * 86400, duration = 10, curve = "easeInOut" },
}
