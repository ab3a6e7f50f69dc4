-- load (manual §6.1): chunks as strings and as reader functions, names, modes, environments.
local out = {}
local function add(...)
  local t = table.pack(...)
  for i = 1, t.n do t[i] = type(t[i]) == "function" and "function" or tostring(t[i]) end
  out[#out + 1] = t.n .. ": " .. table.concat(t, " | ")
end

add(load("return 1 + 1")())
add(load("return 2", "chunk", "t")())
add(load("return 3", "chunk", "bt")())
add(load("return 4", "=named", "tb")())
add(load("return ...", "args")(5, 6))
-- A mode that does not allow text: nil and a message, never an error.
add(load("return 5", "chunk", "b"))
add(load("return 6", "chunk", "x"))
add(load("return 7", "chunk", ""))
add(load("return 8", "chunk", "B"))
-- A binary chunk where the mode allows text only.
add(load("\27Lua", "bin", "t"))
add(load("\27", "=bin", "t"))
-- Arguments.
add(pcall(load))
add(pcall(load, nil))
add(pcall(load, {}))
add(pcall(load, "return 1", "c", {}))
add(load(42))
add(load("return 9", nil)())
add(load("return 10", nil, nil)())
-- Syntax errors and chunk names.
add(load("syntax error here"))
add(load("x = ", "=mine"))
add(load("x = ", "@file.lua"))
add(load("local x <const> = 1; x = 2", "=const"))
add(load("\n\nreturn +", "a chunk name longer than the limit Lua keeps in its messages, and some more"))
add(load("return 1\n" .. string.rep("-", 10) .. "\nreturn 2"))
add(pcall(load("error('boom')", "=custom")))
add(pcall(load("error('boom')", "@file.lua")))
add(pcall(load("error('boom')")))
add(pcall(load("local t = nil\nreturn t.x", "=two lines")))
-- Environments.
local env = { y = 40 }
add(load("return y + 2", "c", "t", env)())
add(pcall(load("return y", "c", "t", nil)))
add(load("x = 1; return x", "c", "bt", env)(), env.x)
add(load("return _ENV == ...", "c", "t", env)(env))
-- Reader functions.
local parts = { "return ", "10 ", "* 3" }
local i = 0
add(load(function() i = i + 1; return parts[i] end)())
add(load(function() return nil end))
add(load(function() return "" end))
-- An error in a reader ends load with nil and its message. (The message handler of the call
-- running load sees it first: lua.c's adds a traceback, so only the first line is compared.)
local function firstLine(f, m) return f, (m:match("[^\n]*")) end
add(firstLine(load(function() return {} end)))
add(firstLine(load(function() error("in the reader") end)))
i = 0
add(load(function() i = i + 1; if i == 1 then return "return 'first'" end; return "" end)())
i = 0
add(load(function() i = i + 1; if i == 1 then return "return " elseif i == 2 then return 7 end end)())
i = 0
add(load(function() i = i + 1; if i == 1 then return "\27" end end, "=reader", "t"))
add(load(function() return nil end, "=empty")())
return table.concat(out, "\n")
