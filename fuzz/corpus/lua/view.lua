local v = cs.view{ id = "v", kind = "k", state = { x = 0, o = { "a", "b" }, d = { a = 1 } }, clip = true, scrolls = "horizontal",
  layout = function(self, w, h)
    for i, c in ipairs(self.children) do
      c.frame = { i * 10 + self.state.x, 0, w / 2, h }; c.z = -i; c.opacity = 0.5; c.rotation3d = 20; c.depth = i; c.passing = 0.5
    end
  end,
  draw = function(self, g, w, h) g:rect(0, 0, w, 10):fill() end,
  on = { tap = function(self, e) cs.animate({ curve = "spring", velocity = 100 }, function() self.state.x = self.state.x + 50 end) end,
         drag = function(self, e) self.state.x = e.dx end },
  inspect = function(self) return { x = self.state.x, n = cs.null } end,
  cs.card{ id = "a", data = cs.data.sample()[1] }, cs.text{ text = "b" } }
return cs.scene{ width = 300, height = 200, fps = 10, duration = 2, root = cs.cards{ cs.card{ data = cs.data.sample()[2] }, cs.tabs{ { title = "t", view = v } } },
  timeline = { cs.tap{ at = 0.1, pos = { 50, 50 } }, cs.drag{ at = 0.5, pos = { 60, 60 }, by = { 40, 0 } } } }
