-- pcall, xpcall and error: results, messages and levels (Lua 5.4 manual §6.1, §4.7).
local out = {}
local function add(...)
  local t = table.pack(...)
  for i = 1, t.n do t[i] = tostring(t[i]) end
  out[#out + 1] = t.n .. ": " .. table.concat(t, " | ")
end

local function raiseAt1() error("one", 1) end
local function raiseAt2() error("two", 2) end
local function callsRaiseAt2() raiseAt2() end
local function raiseAt3() error("three", 3) end
local function middle() raiseAt3() end
local function outer() middle() end

add(pcall(raiseAt1))
add(pcall(callsRaiseAt2))
add(pcall(raiseAt2))
add(pcall(outer))
add(pcall(error, "plain"))
add(pcall(error, "level 0", 0))
add(pcall(error, "level 2", 2))
add(pcall(error))
add(select("#", pcall(error)))
add(pcall(error, nil))
add(pcall(error, 42))
add(pcall(error, true))

-- Error objects that are not strings pass unchanged.
local obj = {}
local ok, e = pcall(error, obj)
add(ok, e == obj)
ok, e = pcall(function() error(obj, 2) end)
add(ok, e == obj)

-- xpcall: the handler's result is the error; arguments pass through.
add(xpcall(raiseAt1, function(m) return "handled: " .. m end))
add(xpcall(function(a, b) return a + b, a * b end, error, 6, 7))
add(xpcall(callsRaiseAt2, function(m) return (m:gsub("%a+", string.upper)) end))
add(xpcall(error, function(m) return type(m) end, {}))
add(xpcall(function() local x = nil; return x.field end, function(m) return "h(" .. m .. ")" end))

-- Argument errors name the function as it was called, and the caller's line.
add(pcall(function() return setmetatable(1, {}) end))
add(pcall(function() return setmetatable({}, 1) end))
add(pcall(function() return pcall() end))
add(pcall(function() return xpcall() end))
add(pcall(function() return xpcall(print) end))
add(pcall(function() return xpcall(print, 5) end))
add(pcall(function() return coroutine.resume(42) end))
add(pcall(function() return coroutine.wrap(42) end))
add(pcall(function() return coroutine.create() end))
add(pcall(function() return coroutine.close(42) end))
add(pcall(function() return coroutine.status() end))
add(pcall(function() return load() end))
add(pcall(function() return load({}) end))
add(pcall(function() return load("x", "c", {}) end))
add(pcall(function() return tostring() end))
add(pcall(function() return ipairs() end))
add(pcall(function() return select(0, 1) end))
add(pcall(function() return ("x"):rep() end))
add(pcall(function() return string.rep() end))
add(pcall(function() local rep = string.rep; return rep() end))
add(pcall(function() return math.floor("x") end))
add(pcall(function() return table.concat({{}}) end))
add(pcall(function() return table.insert({}, 1, 2, 3) end))
add(pcall(function() return string.format("%d", 1.5) end))
add(pcall(function() return ("%"):format() end))
add(pcall(setmetatable, 1, {}))
add(pcall(string.rep))
add(pcall(pcall))
add(pcall(xpcall, print))
add(pcall(coroutine.wrap, 1))
add(pcall(load))

-- Runtime errors name the variable.
add(pcall(function() local a; a.b = 1 end))
add(pcall(function() return #nil end))
add(pcall(function() return 1 + {} end))
add(pcall(function() return {} < {} end))
add(pcall(function() return ("x"):nomethod() end))
add(pcall(function() local t = {}; t.f.g = 1 end))
add(pcall(function() return undefinedglobal.x end))
add(pcall(function() undefinedfunction() end))

-- error(msg, 2) in a function called through the library's wrappers counts from its caller.
local function check(x) if type(x) ~= "number" then error("number expected, got " .. type(x), 2) end return x end
add(pcall(function() return check("a") end))
add(pcall(check, "a"))
add(pcall(check, 5))
local mt = setmetatable({}, { __index = function(_, k) error("no field '" .. k .. "'", 2) end })
add(pcall(function() return mt.missing end))
add(pcall(function() local co = coroutine.wrap(function() check("co") end); co() end))
add(pcall(function() return load("error('from a chunk', 2)", "=chunk")() end))

-- Nested protected calls.
add(pcall(pcall, error, "e"))
add(pcall(xpcall, error, function(m) return "h:" .. tostring(m) end, "e2"))
add(xpcall(pcall, print, error, "inner"))
add(pcall(function() local ok2, e2 = pcall(error, "x"); error(e2 .. "y", 0) end))

-- A handler that fails.
add(xpcall(error, function() error("in the handler") end, "first"))
return table.concat(out, "\n")
