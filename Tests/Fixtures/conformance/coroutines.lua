-- Coroutines (manual §2.6, §6.2): yields across pcall, xpcall, metamethods and iterators.
local out = {}
local function add(...)
  local t = table.pack(...)
  for i = 1, t.n do t[i] = tostring(t[i]) end
  out[#out + 1] = t.n .. ": " .. table.concat(t, " | ")
end

-- Values in and out of resume and yield.
local co = coroutine.create(function(a, b)
  local c = coroutine.yield(a + b)
  local d, e = coroutine.yield(c * 2)
  return d + e, "done"
end)
add(coroutine.resume(co, 1, 2))
add(coroutine.status(co))
add(coroutine.resume(co, 10))
add(coroutine.resume(co, 3, 4))
add(coroutine.status(co))
add(coroutine.resume(co))

-- A yield across pcall, then an error after a yield, caught by that pcall.
local f = coroutine.wrap(function(a)
  local ok, v = pcall(function(x) local y = coroutine.yield(x + 1); return y * 2 end, a)
  coroutine.yield(tostring(ok) .. ":" .. tostring(v))
  local ok2, e = pcall(function() coroutine.yield("inside"); error("after the yield") end)
  coroutine.yield(tostring(ok2) .. ":" .. e)
  return pcall(coroutine.yield, "yield itself, protected")
end)
add(f(1)); add(f(10)); add(f()); add(f()); add(f()); add(f("back"))

-- A yield across xpcall, the handler running after the yield.
f = coroutine.wrap(function()
  add(xpcall(function() local v = coroutine.yield("x1"); error({ v }) end, function(e) return "handled " .. e[1] end))
  add(xpcall(function(...) coroutine.yield(select("#", ...)); return ... end, error, 1, nil, 3))
  add(xpcall(function() return coroutine.yield("x3") end, error))
  return "end"
end)
add(f()); add(f("v")); add(f()); add(f("last"))

-- Nested: a yield inside pcall inside xpcall inside pcall.
f = coroutine.wrap(function()
  return pcall(xpcall, function() return pcall(function() return coroutine.yield("deep") + 1 end) end, error)
end)
add(f()); add(f(41))

-- Yields inside metamethods.
local mt = {}
mt.__add = function(a, b) return coroutine.yield("add") end
mt.__index = function(t, k) return coroutine.yield("index " .. k) end
mt.__newindex = function(t, k, v) coroutine.yield("newindex " .. k .. "=" .. v) end
mt.__lt = function(a, b) return coroutine.yield("lt") end
mt.__le = function(a, b) return coroutine.yield("le") end
mt.__eq = function(a, b) return coroutine.yield("eq") end
mt.__concat = function(a, b) return coroutine.yield("concat") end
mt.__call = function(self, x) return coroutine.yield("call " .. x) end
mt.__len = function() return coroutine.yield("len") end
mt.__unm = function() return coroutine.yield("unm") end
local a, b = setmetatable({}, mt), setmetatable({}, mt)
f = coroutine.wrap(function()
  local r = {}
  r[#r + 1] = a + 1
  r[#r + 1] = a.field
  a.key = 5
  r[#r + 1] = tostring(a < b)
  r[#r + 1] = tostring(a <= b)
  r[#r + 1] = tostring(a == b)
  r[#r + 1] = a .. "s"
  r[#r + 1] = a("arg")
  r[#r + 1] = #a
  r[#r + 1] = -a
  return table.concat(r, ",")
end)
local step = f()
for i = 1, 20 do
  add(step)
  if not step:find("^%a+") or step:find(",") then break end
  step = f(i == 3 and false or i == 4 and 0 or "r" .. i)
end

-- Yields inside iterators of a generic for.
local function numbers(n)
  return function(_, i) if i < n then coroutine.yield("next after " .. i); return i + 1 end end, nil, 0
end
f = coroutine.wrap(function()
  local s = 0
  for i in numbers(3) do s = s + i end
  return "sum " .. s
end)
for _ = 1, 4 do add(f()) end

-- Where a yield cannot go: through a C function that is not yieldable (table.sort's
-- comparator, string.gsub's replacement), and outside any coroutine.
add(coroutine.resume(coroutine.create(function() table.sort({ 3, 2, 1 }, function(x, y) coroutine.yield(); return x < y end) end)))
add(coroutine.resume(coroutine.create(function() return ("ab"):gsub(".", function(c) coroutine.yield(c) end) end)))
add(coroutine.resume(coroutine.create(function() return select(2, coroutine.yield("select")) end)))
if not coroutine.isyieldable() then add(pcall(coroutine.yield, "outside")) end
add(coroutine.isyieldable())
add(coroutine.resume(coroutine.create(function() return coroutine.isyieldable() end)))

-- Errors: inside resume a value, through wrap an error with the wrap caller's place.
add(coroutine.resume(coroutine.create(function() error("in co") end)))
add(type(select(2, coroutine.resume(coroutine.create(function() error({}) end)))))
add(pcall(coroutine.wrap(function() error("through wrap") end)))
add(pcall(coroutine.wrap(function() error("through wrap at 0", 0) end)))
add(pcall(function() local w = coroutine.wrap(function() error("level 2 in wrap", 2) end); w() end))
local done = coroutine.create(function() end)
coroutine.resume(done)
add(coroutine.resume(done))
add(pcall(coroutine.wrap(function() end)))
local w = coroutine.wrap(function() end)
w()
add(pcall(w))
add(coroutine.resume(coroutine.running()))

-- status, running, close.
local self
co = coroutine.create(function() self = coroutine.running(); add(coroutine.status(self)); coroutine.yield() end)
coroutine.resume(co)
add(coroutine.status(co), self == co)
add(coroutine.close(co), coroutine.status(co))
add(coroutine.close(coroutine.create(function() end)))
co = coroutine.create(function() error("closed with an error") end)
coroutine.resume(co)
add(coroutine.close(co))
add(pcall(coroutine.close, coroutine.running()))
add(select(2, coroutine.running()))

-- To-be-closed variables in a closed coroutine.
local closed = {}
co = coroutine.create(function()
  local x <close> = setmetatable({}, { __close = function(_, err) closed[#closed + 1] = "closed " .. tostring(err) end })
  coroutine.yield()
end)
coroutine.resume(co)
add(coroutine.close(co), closed[1])

-- Many yields and resumes.
co = coroutine.wrap(function() local s = 0; for i = 1, 1000 do s = s + coroutine.yield(i) end; return s end)
local v = co()
for _ = 1, 1000 do v = co(v) end
add(v)
return table.concat(out, "\n")
