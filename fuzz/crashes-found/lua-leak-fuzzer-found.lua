local cs = require("chartscene")
return cs.scene {
  width = 200, height = 120, duration = 1,
  root = cs.zstack {
    cs.canvas { draw = function(g, w, h, t)
      g:save() g:translate(w / 2, h / 2) g:scale(2, 2)
      g:color("#3497ED") g:lineWidth(3)
      g:moveTo(0, 0) g:lineTo(w, h) g:close() g:stroke()
      g:rect(1, 2, 30, 40) g:fill() g:circle(10, 10, 5) g:clip()
      g:text("hi", 4, 4, { size = 12, color = "#000000" })
      g:restore()
    end },
    cs.text { text = "z", opacity = 0.5, rotation = 10 },
  },
  timeline = { cs.tap { at = 0.5, pos = { 10, 10 } }, cs.call { at = 0.2, fn = function(s) end } },
}
