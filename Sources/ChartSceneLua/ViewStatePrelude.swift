/// The Lua half of `cs.view`'s state and layout records: proxies that tell the host about
/// every change (`host.number`, `host.touched`) and read numbers as shown (`host.shown`), and
/// the child records a layout writes, checked as they are written so an error names the
/// layout's own line. Loaded once per state with the host's functions; the animation itself
/// is `Presentation.setState`.
enum ViewStatePrelude {
  static let source = #"""
local host = ...
local type, next, setmetatable, tostring, error, mtype = type, next, setmetatable, tostring, error, math.type
local M = {}
-- A number for a message ("nan", not the C library's "-nan").
local function show(v) if type(v) == "number" and v ~= v then return "nan" end return tostring(v) end

-- What each proxy stands for: the view's number, the plain table behind it, the path to it
-- (`prefix`, dotted, for messages only; `path`, the keys on the way, for the host: so
-- self.state.a.b and self.state["a.b"] are two numbers) and whether it reads numbers as shown.
local about = setmetatable({}, { __mode = "k" })
-- Protected, as every chartscene object's metatable is: getmetatable(self.state) is false,
-- so a script cannot reach __newindex's backing table or rawset past the checks.
local meta = { __metatable = false }

-- `opted`: the numbers below move by value (a key of the view's `animates`); nil at the top,
-- where `set` (the keys of `animates`; `all`: every key) decides per key.
local function wrap(view, backing, prefix, shown, path, opted, set, all)
  local p = {}
  about[p] = { view = view, backing = backing, prefix = prefix, shown = shown, path = path, opted = opted, set = set, all = all }
  return setmetatable(p, meta)
end

-- The keys to `k` inside the table at `path` (a new array: paths are never changed).
local function under(path, k)
  local out = {}
  for i = 1, #path do out[i] = path[i] end
  out[#path + 1] = k
  return out
end

-- True when the numbers under key `k` of proxy data `d` move by value, not by identity.
local function optedIn(d, k)
  if d.opted ~= nil then return d.opted end
  return d.all or d.set[k] == true
end

-- A plain copy of state data (proxies read through), at most 64 levels and no cycles.
local function copy(v, depth)
  if type(v) ~= "table" then return v end
  if depth > 64 then error("the state nests more than 64 tables deep (or holds a cycle)", 4) end
  local d = about[v]
  local src = d and d.backing or v
  local out = {}
  for k, x in next, src do out[k] = copy(x, depth + 1) end
  return out
end

-- Every number of a table stored over `old`, moved from what `old` held at the same place.
local function numbers(view, prefix, path, old, new)
  for k, v in next, new do
    local was = type(old) == "table" and old[k] or nil
    if type(v) == "number" and not (v == v and v > -math.huge and v < math.huge) then
      error("bad state value for '" .. prefix .. tostring(k) .. "' (a finite number expected, got " .. show(v) .. ")", 3)
    end
    if type(v) == "number" then host.number(view, path, k, v, type(was) == "number" and was or nil)
    elseif type(v) == "table" then numbers(view, prefix .. tostring(k) .. ".", under(path, k), was, v) end
  end
end

meta.__index = function(p, k)
  local d = about[p]
  local v = d.backing[k]
  if type(v) == "table" then return wrap(d.view, v, d.prefix .. tostring(k) .. ".", d.shown, under(d.path, k), optedIn(d, k), d.set, d.all) end
  if d.shown and type(v) == "number" then return host.shown(d.view, d.path, k, v) end
  return v
end

-- `self.state.dx[1]` for the prefix "dx." and the key 1.
local function display(prefix, k)
  local out = "self.state"
  for part in prefix:gmatch("([^.]+)%.") do out = out .. (part:match("^%-?%d+$") and "[" .. part .. "]" or "." .. part) end
  return out .. (mtype(k) == "integer" and "[" .. k .. "]" or "." .. tostring(k))
end

meta.__newindex = function(p, k, v)
  local d = about[p]
  if d.shown then
    error("cannot set " .. display(d.prefix, k) .. " in a layout or draw function, nor through self.shown (change the state in a handler, cs.call or update)", 2)
  end
  if type(k) ~= "string" and mtype(k) ~= "integer" then error("state keys are strings or integers (got " .. type(k) .. ")", 2) end
  local tv = type(v)
  if tv == "function" or tv == "thread" or tv == "userdata" then
    error("bad state value for '" .. d.prefix .. tostring(k) .. "' (numbers, strings, booleans and tables of them; got " .. tv .. ")", 2)
  end
  if tv == "number" and not (v == v and v > -math.huge and v < math.huge) then
    error("bad state value for '" .. d.prefix .. tostring(k) .. "' (a finite number expected, got " .. show(v) .. ")", 2)
  end
  local old = d.backing[k]
  local opted = optedIn(d, k)
  if opted and d.opted == nil and v ~= nil and tv ~= "number" and tv ~= "table" then
    error("bad state value for '" .. tostring(k) .. "' (a number or a table of numbers expected: it is in the view's animates; got " .. tv .. ")", 2)
  end
  if tv == "table" then
    v = copy(v, 1)
    if opted then numbers(d.view, d.prefix .. tostring(k) .. ".", under(d.path, k), old, v) else host.before(d.view) end
  elseif tv == "number" and opted then
    host.number(d.view, d.path, k, v, type(old) == "number" and old or nil)
  elseif not opted then
    -- The children move by identity: the host notes their places before the change.
    host.before(d.view, tv == "number" and v or nil, type(old) == "number" and old or nil)
  end
  d.backing[k] = v
  host.touched(d.view)
end

meta.__len = function(p) return #about[p].backing end

meta.__pairs = function(p)
  local backing = about[p].backing
  return function(_, k)
    local nk = next(backing, k)
    if nk == nil then return nil end
    return nk, p[nk]
  end, p, nil
end

meta.__tostring = function(p) return "state" end

-- The state of view number `view`: the table it was given (copied), as set (model) and as
-- shown (numbers read at the layout's time). `animates`: true, or the keys whose numbers move
-- by value (the others move the children by identity).
function M.state(view, initial, animates)
  local backing = copy(initial or {}, 1)
  local set, all = {}, animates == true
  if type(animates) == "table" then for _, k in next, animates do set[k] = true end end
  return wrap(view, backing, "", false, {}, nil, set, all), wrap(view, backing, "", true, {}, nil, set, all), backing
end

-- The state as plain data, numbers as shown (for --inspect).
function M.plain(p)
  local d = about[p]
  local function walk(t, path)
    local out = {}
    for k, v in next, t do
      if type(v) == "table" then out[k] = walk(v, under(path, k))
      elseif type(v) == "number" then out[k] = host.shown(d.view, path, k, v)
      else out[k] = v end
    end
    return out
  end
  return walk(d.backing, {})
end

-- Layout records: what a layout may set on each child, checked as it is set.
local function finite(x) return type(x) == "number" and x == x and x > -math.huge and x < math.huge end
local function point(v, name, i, what)
  if type(v) ~= "table" then error(("bad %s for child %d in layout ({x, y} expected, got %s)"):format(name, i, type(v)), 4) end
  local x, y = v.x or v[1], v.y or v[2]
  if not finite(x) or not finite(y) then error(("bad %s for child %d in layout (finite numbers x and y expected)"):format(name, i), 4) end
  if x < -1e6 or x > 1e6 or y < -1e6 or y > 1e6 then error(("bad %s for child %d in layout (each between -1000000 and 1000000)"):format(name, i), 4) end
  return { x, y }
end
-- The check of a number from `lo` to `hi` (`span` says so in the message) and of a boolean.
local function within(name, lo, hi, span)
  return function(v, i)
    if not finite(v) or v < lo or v > hi then error(("bad %s for child %d in layout (a number from %s expected, got %s)"):format(name, i, span, show(v)), 3) end
    return v
  end
end
local function boolean(name)
  return function(v, i)
    if type(v) ~= "boolean" then error(("bad %s for child %d in layout (boolean expected, got %s)"):format(name, i, type(v)), 3) end
    return v
  end
end
local checks = {
  frame = function(v, i)
    if type(v) ~= "table" then error(("bad frame for child %d in layout ({x, y, width, height} expected, got %s)"):format(i, type(v)), 3) end
    local x, y, w, h = v.x or v[1] or 0, v.y or v[2] or 0, v.width or v[3], v.height or v[4]
    if not (finite(x) and finite(y) and finite(w) and finite(h)) then
      error(("bad frame for child %d in layout (finite numbers x, y, width, height expected)"):format(i), 3)
    end
    if w < 0 or h < 0 then error(("bad frame for child %d in layout (width and height must not be negative, got %g x %g)"):format(i, w, h), 3) end
    if math.abs(x) > 1e6 or math.abs(y) > 1e6 or w > 1e6 or h > 1e6 then error(("bad frame for child %d in layout (numbers up to 1000000)"):format(i), 3) end
    return { x, y, w, h }
  end,
  offset = function(v, i)
    local p = point(v, "offset", i) -- not a tail call: the error's level counts this frame
    return p
  end,
  scale = within("scale", 0, 1e6, "0 to 1000000"),
  opacity = within("opacity", 0, 1, "0 to 1"),
  z = function(v, i)
    if not finite(v) then error(("bad z for child %d in layout (a finite number expected, got %s)"):format(i, show(v)), 3) end
    return v
  end,
  rotation3d = function(v, i)
    local angle, aboutX, perspective = v, false, nil
    if type(v) == "table" then
      angle = v.angle
      local axis = v.axis
      if axis ~= nil then
        if type(axis) ~= "table" then error(("bad rotation3d for child %d in layout (axis {0, 1, 0} or {1, 0, 0} expected)"):format(i), 3) end
        aboutX = math.abs(axis[1] or 0) > math.abs(axis[2] or 0)
      end
      perspective = v.perspective
      if perspective ~= nil and (not finite(perspective) or perspective < 1 or perspective > 1e6) then
        error(("bad rotation3d for child %d in layout (perspective from 1 to 1000000)"):format(i), 3)
      end
    end
    if not finite(angle) or angle < -80 or angle > 80 then error(("bad rotation3d for child %d in layout (degrees from -80 to 80 expected, got %s)"):format(i, show(angle)), 3) end
    return { angle, aboutX, perspective }
  end,
  hidden = boolean("hidden"),
  clip = boolean("clip"),
  depth = within("depth", 0, 1e6, "0 to 1000000"),
  passing = within("passing", 0, 1, "0 to 1"),
  sheet = within("sheet", 0, 1, "0 to 1"),
  modal = boolean("modal"),
}
local names = "frame, offset, scale, opacity, rotation3d, z, hidden, clip, depth, passing, sheet, modal"

-- Records for `views` (the children, in order): the array the layout sees as
-- self.children, and the values it set, one table per child.
function M.records(views, ids, kinds)
  local n = #views
  local values, records = {}, {}
  for i = 1, n do
    local set = {}
    values[i] = set
    records[i] = setmetatable({}, {
      __index = function(_, k)
        if k == "view" then return views[i] elseif k == "id" then return ids[i] elseif k == "kind" then return kinds[i]
        elseif k == "index" then return i end
        local v = set[k]
        if k == "frame" and v then return { x = v[1], y = v[2], width = v[3], height = v[4] } end
        if k == "offset" and v then return { x = v[1], y = v[2] } end
        if k == "rotation3d" and v then return v[1] end
        return v
      end,
      __newindex = function(_, k, v)
        local check = checks[k]
        if not check then error(("unknown property '%s' for child %d in layout (a layout sets %s)"):format(tostring(k), i, names), 2) end
        if v == nil then set[k] = nil else set[k] = check(v, i) end
      end,
      __metatable = false,
    })
  end
  local children = setmetatable({}, {
    __index = function(_, k)
      if type(k) == "number" and k == math.floor(k) then k = math.floor(k) end
      if mtype(k) == "integer" and k >= 1 and k <= n then return records[k] end
      if k == n + 1 then return nil end -- where ipairs stops
      error(("no child %s in layout (the view has %d)"):format(tostring(k), n), 2)
    end,
    __newindex = function(_, k) error("self.children cannot be changed in layout (set fields of self.children[i])", 2) end,
    __len = function() return n end,
    __metatable = false,
    __pairs = function() return function(_, k) k = (k or 0) + 1; if k <= n then return k, records[k] end end, nil, nil end,
  })
  return children, values
end

-- `fn(view, ...)` as a function of the rest (a view's draw as a canvas function).
function M.bind(fn, view) return function(...) return fn(view, ...) end end

-- cs.compose: the caller's (`t`) common view keys on a composition's cs.view table, and its
-- `on` merged with the view's own (where both have a handler, both run: the view's first).
function M.compose(t, view, common)
  for _, k in next, common do
    if k ~= "on" and view[k] == nil then view[k] = t[k] end
  end
  local theirs = t.on
  if theirs == nil then return view end
  if type(theirs) ~= "table" or (view.on ~= nil and type(view.on) ~= "table") then
    if view.on == nil then view.on = theirs end
    return view
  end
  local on = {}
  for k, f in next, view.on or {} do on[k] = f end
  for k, f in next, theirs do
    local own = on[k]
    if type(own) == "function" and type(f) == "function" then
      on[k] = function(...) own(...) return f(...) end
    elseif own == nil then
      on[k] = f
    end
  end
  view.on = on
  return view
end

return M
"""#
}
