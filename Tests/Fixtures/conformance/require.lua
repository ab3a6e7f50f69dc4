-- require of the standard libraries' names (manual §6.3: the table of loaded modules holds
-- them, so require gives them without searching).
local out = {}
local function add(...)
  local t = table.pack(...)
  for i = 1, t.n do t[i] = tostring(t[i]) end
  out[#out + 1] = t.n .. ": " .. table.concat(t, " | ")
end

add(require("string") == string, require("table") == table, require("math") == math)
add(require("utf8") == utf8, require("coroutine") == coroutine, require("_G") == _G)
add(require("os") == os)
add(require "string" == require "string")
add(require("string").format("%5.2f", 3.14159), require("utf8").char(72, 105))
add(require("math").maxinteger == math.maxinteger, require("table").concat({ 1, 2 }, "+"))
add(select("#", require("string")))
-- The library a name gives is the one the state opened, whatever a global says now.
local saved = string
string = nil
add(require("string") == saved)
string = saved
add(pcall(require))
add(require("string") == ("").rep, require("string").rep == string.rep)
add(require("math").type(1), require("math").type(1.0), require("utf8").len("aé"))
add(type(require("coroutine").wrap), type(require("table").unpack))
return table.concat(out, "\n")
