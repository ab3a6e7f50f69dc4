-- Captions burned into the frames (and, in an MP4 or WebM, a subtitle track and a .vtt beside
-- it): cues as a Lua table here; `captions = "story.srt"` reads a SubRip or WebVTT file, and
-- `audio = { file = "voice.wav", at = 0 }` adds a sound track (docs/lua-api.md, Sound and captions).
local cs = require("chartscene")
local set = cs.data.sample()[1]

return cs.scene {
  width = 1280, height = 720, theme = "night", fps = 30, duration = 6,
  captions = {
    { 0.3, 2.8, "Followers joined steadily through the winter," },
    { 3.0, 5.8, "then the spring campaign doubled the daily count." },
  },
  root = cs.chart { id = "followers", data = set, title = "Followers", padding = { 24, 32, 96, 32 } },
}
