-- A data story told with cs.call and cs.animate: start on the whole year of messages,
-- zoom into the December spike slowly, hide the quieter lines, then pull back out.
local cs = require("chartscene")
local set = cs.data.sample()[5]

return cs.scene {
  width = 960, height = 600, theme = "night", fps = 30, duration = 8,
  root = cs.vstack {
    padding = 12, spacing = 4,
    cs.text { id = "caption", text = "Messages, March 2018 – March 2019", size = 20, weight = "bold" },
    cs.chart { id = "messages", data = set, title = "", indicatorAt = 0.78 },
  },
  timeline = {
    cs.call { at = 1.0, fn = function()
      cs.animate({ duration = 2.0, curve = "easeInOut" }, function() set:setRange(0.7, 0.86) end)
    end },
    cs.call { at = 3.5, fn = function()
      set:hide("y2")
      set:hide("y3")
    end },
    cs.call { at = 5.5, fn = function()
      cs.animate({ duration = 1.5, curve = "spring" }, function() set:setRange(0, 1) end)
      set:show("y2")
      set:show("y3")
    end },
  },
}
