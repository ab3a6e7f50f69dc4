-- A paging feed: pages 400 px tall; a drag moves them, and at the release the page is the
-- one the offset would reach at the release speed in 0.3 s. `page` and `vy` (the speed
-- `ended` reported) are in its --inspect fields. The throws of LiveInputTests, LiveTests
-- and StudioTests.
local page, releasedVy, start = 0, 0, 0
local H = 400
local feed = {
  id = "feed", kind = "feed", clip = true,
  state = { offset = 0 },
  layout = function(self, w, h)
    for i, c in ipairs(self.children) do c.frame = { 0, (i - 1) * H - self.state.offset, w, H } end
  end,
  inspect = function(self) return { page = page, vy = releasedVy } end,
  on = { drag = function(self, e)
    if e.phase == "began" then start = self.shown.offset
    elseif e.phase == "changed" then cs.animate(0, function() self.state.offset = start - e.dy end)
    elseif e.phase == "ended" then
      releasedVy = e.vy
      page = math.max(0, math.min(#self.children - 1, math.floor((start - e.dy - e.vy * 0.3) / H + 0.5)))
      cs.animate({ curve = "spring", response = 0.4, velocity = -e.vy }, function() self.state.offset = page * H end)
    end
  end },
}
for i = 1, 3 do feed[i] = cs.text { id = "p" .. i, text = "Page " .. i } end
return cs.scene { width = 360, height = 400, fps = 30, root = cs.view(feed) }
