return cs.scene { root = cs.canvas { draw = function() end } }
