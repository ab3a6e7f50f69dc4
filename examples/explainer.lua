-- A two-minute explainer on the contest's round-two data, in three acts: a bar chart race of
-- the year's fruit sales month by month, the followers' year as an annotated line chart with
-- a camera following the newest days, and a zoom into one day. Captions are burned into the
-- frames from data/explainer.srt (and written as a subtitle track and a .vtt beside an MP4 or
-- WebM).
--
-- Narration: `--arg voice=DIR` names a folder holding act1.wav, act2.wav and act3.wav (the
-- docs build speaks each act's captions with espeak-ng: scripts/docs); without it the story
-- renders silent. `chartscene examples/explainer.lua` writes explainer.mp4.
local cs = require("chartscene")
local dir = "data/round2/"

-- Act 1's data: each fruit's sales added up month by month (the daily bars of chart 3).
local daily = cs.data.telegram(dir .. "3/overview.json")[1]
local months, x, totals, running = {}, {}, {}, {}
for i = 1, daily.count do
  local point = daily:valuesAt((i - 1) / (daily.count - 1))
  local month = os.date("!%Y-%m", point.time // 1000)
  if months[#months] ~= month then
    months[#months + 1] = month
    x[#x + 1] = point.time -- the month's first day in the data
    totals[#totals + 1] = {}
  end
  for _, line in ipairs(daily.lines) do
    running[line.id] = (running[line.id] or 0) + (point.values[line.id] or 0)
    totals[#totals][line.id] = running[line.id]
  end
end
local lines = {}
for _, line in ipairs(daily.lines) do
  local values = {}
  for m = 1, #months do values[m] = totals[m][line.id] end
  lines[#lines + 1] = { id = line.id, name = line.name, color = line.color, values = values }
end
local sales = cs.data.series { name = "Fruit sold since April", x = x, lines = lines }

-- Acts 2 and 3: the followers (chart 1, with its day files for the zoom).
local followers = cs.data.telegram(dir .. "1/overview.json", { days = dir .. "1" })[1]
followers:setRange(0, 0.25)

-- The acts, one after another: a view whose state says which act shows; a change of act
-- fades the old one out and then the new one in (the layout is a function of the state,
-- cs.animate decides the motion). Each act leaves the bottom fifth to the captions.
local acts = cs.view {
  id = "acts", kind = "acts", state = { act = 1.0 }, animates = { "act" },
  layout = function(self, w, h)
    local side, top, bottom = math.min(48.0, w * 0.04), math.min(24.0, h * 0.03), h * 0.2
    for i, c in ipairs(self.children) do
      local d = self.state.act - i
      if d < 0 then d = -d end
      c.frame = { side, top, w - 2 * side, h - top - bottom }
      c.opacity = math.max(0, 1 - 2 * d)
      c.hidden = d >= 0.5
    end
  end,
  cs.race { id = "race", data = sales, top = 7, period = 3, title = "Fruit sold since April, month by month" },
  cs.chart { id = "followers", data = followers, title = "Followers a day: {value:y0|int} joined",
    annotations = {
      cs.note { at = "2018-11-21", line = "y1", text = "Most left: Nov 21" },
      cs.band { from = "2018-12-20", to = "2019-01-10", text = "Holidays" },
      cs.rule { value = 2045, text = "Average: 2,045 a day" },
      cs.note { at = "2019-03-11", line = "y0", text = "Best day: 4,010", appear = 70 },
    } },
}

local function act(n)
  return function() cs.animate({ duration = 1.2, curve = "easeInOut" }, function() acts.state.act = n end) end
end

local follow = cs.follow { data = followers, window = 90 * 86400, duration = 38, from = 38 }

local audio = nil
if (cs.args.voice or "") ~= "" then
  audio = {
    { file = cs.args.voice .. "/act1.wav", at = 1 },
    { file = cs.args.voice .. "/act2.wav", at = 37 },
    { file = cs.args.voice .. "/act3.wav", at = 80 },
  }
end

return cs.scene {
  width = 1280, height = 720, fps = 30, duration = 120,
  captions = "data/explainer.srt", audio = audio,
  root = acts,
  update = function(t, dt) if t >= 38 and t < 79 then follow(t, dt) end end,
  timeline = {
    cs.call { at = 36, fn = act(2) },
    cs.call { at = 79, fn = function() followers:setRange(0.45, 0.6) end },
    cs.call { at = 80.5, fn = function() followers:zoom("2018-10-06") end },
    cs.call { at = 107, fn = function() followers:zoomOut() end },
    cs.call { at = 109, fn = function() followers:setRange(0, 1, 1.5) end },
  },
}
