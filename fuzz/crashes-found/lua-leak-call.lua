return cs.scene { root = cs.text { text = "a" }, timeline = { cs.call { at = 0, fn = function(s) end } } }
