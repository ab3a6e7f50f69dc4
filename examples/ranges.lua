-- Range buttons, as on a finance dashboard: a tap on "1W", "2W", "1M" or "All" moves the
-- chart's window to the last week, two weeks, month or everything, with an animation. The
-- buttons are plain texts with an `on.tap` handler; the timeline taps them as a hand would
-- (in `--live`, click them).
-- `chartscene examples/ranges.lua` writes ranges.mp4; `-o ranges.png --at 3` one frame.
local cs = require("chartscene")
local set = cs.data.sample()[1]
local first, last = set:valuesAt(0).time, set:valuesAt(1).time
local day = 86400000

local function button(name, days)
  return cs.text {
    id = name, text = name, size = 15, weight = "semibold", align = "center",
    padding = { 6, 14 }, background = "groupedBackground", cornerRadius = 14, frame = { width = 64 },
    on = {
      tap = function()
        local from = days and math.max(0, 1 - days * day / (last - first)) or 0
        set:setRange(from, 1, 0.6)
      end,
    },
  }
end

set:setRange(0, 1)
return cs.scene {
  width = 720, height = 760, fps = 30, duration = 4.5,
  root = cs.vstack {
    spacing = 0, align = "leading",
    cs.hstack { spacing = 12, padding = 16, button("1W", 7), button("2W", 14), button("1M", 30), button("All") },
    cs.chart { id = "followers", data = set, title = "Followers" },
  },
  timeline = {
    cs.tap { at = 0.5, target = "1M" },
    cs.tap { at = 1.7, target = "1W" },
    cs.tap { at = 2.9, target = "All" },
  },
}
