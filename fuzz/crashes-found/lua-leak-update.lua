return cs.scene { root = cs.text { text = "a" }, update = function(t, dt) end }
