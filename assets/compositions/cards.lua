-- cs.cards: overlaid cards (the article's OverlayCardsView), written on cs.view. Long press
-- the top card, then drag it down: past a threshold it goes to the back and the others move
-- up; released earlier it springs back. A tap opens it full-size in a sheet over the scene
-- (mini-map and check marks work there); a tap outside the sheet or a swipe down closes it.
-- Copy it with `chartscene composition show cards > mycards.lua` and `require("mycards")`.
local cs = require("chartscene")

local shown = 4        -- cards deeper than this are not drawn
local leastHeight = 120 -- the least height of the front card
local passingDepth = 2 -- depth over which a card sent back dissolves behind the front one

local function clamp(x, lo, hi) return math.max(lo, math.min(x, hi)) end
-- A card's opacity at rest at a depth: 1 down to the deepest shown, then 0.
local function alphaAt(depth) return clamp(shown - depth, 0, 1) end

local function indexOf(list, x) for i, v in ipairs(list) do if v == x then return i end end end

local function layout(self, w, h)
  local st = self.state
  local order = st.order
  local n = #order
  local deepest = math.min(n, shown) - 1
  -- The front card keeps a useful height: when the steps would leave it less, they shrink.
  local least = math.min(h, math.max(leastHeight, h * 0.6))
  local offsetStep = self.options.offsetStep or 40
  local scaleStep = self.options.scaleStep or 0.06
  local step = deepest > 0 and clamp((h - least) / deepest, 0, offsetStep) or offsetStep
  local room = math.max(0, deepest) * step
  local frameH = math.max(0, h - room)
  local depths = {}
  for k = 1, n do
    local id = order[k]
    local c = self.children[st.index[id]]
    local depth = st.depth[id] or (k - 1)
    depths[id] = depth
    local scale = math.max(0.1, 1 - depth * scaleStep)
    -- Scaled about the centre; moved up so the top edge peeks out a step above the next.
    local y = -depth * step - (1 - scale) * frameH / 2 + (st.drag[id] or 0)
    local opacity = st.alpha[id] or alphaAt(depth)
    c.frame = { 0, room, w, frameH }
    c.scale = scale
    c.offset = { 0, y }
    c.opacity = clamp(opacity, 0, 1)
    c.hidden = opacity <= 0.001
    c.depth = depth
    c.z = -depth
    if id == (st.modal or st.closing) then
      c.sheet = clamp(st.progress, 0, 1)
      c.modal = st.modal ~= nil
    end
  end
  -- A card heading deeper that has passed behind the front card dissolves behind it.
  local front
  for _, id in ipairs(order) do
    if front == nil or depths[id] < depths[front] then front = id end
  end
  local goal = self.target
  for _, id in ipairs(order) do
    local target = goal.depth[id]
    if id ~= front and target and target > depths[id] + 1e-9 then
      local behind = depths[id] - depths[front]
      local span = math.min(passingDepth, target - (goal.depth[front] or depths[front]))
      if behind > 0 and span > 0 then self.children[st.index[id]].passing = clamp(1 - behind / span, 0, 1) end
    end
  end
end

return function(t)
  cs.options("cs.cards", t) -- checked against the declared options (docs/lua-api.md, cs.cards)
  local ids, index, named = {}, {}, {}
  for i, card in ipairs(t) do
    local id = card.id or ("#" .. i) -- a card without an id keeps its place by number
    ids[i], index[id] = id, i
    if card.id then named[#named + 1] = "'" .. card.id .. "'" end
  end
  local order = {}
  if t.order then
    local seen = {}
    for k, id in ipairs(t.order) do
      if type(id) ~= "string" then cs.error(("bad field 'order' in cs.cards (string expected at [%d], got %s)"):format(k, type(id))) end
      if not index[id] or id:sub(1, 1) == "#" then
        cs.error(("bad field 'order' in cs.cards (no card with id '%s'; cards are %s)"):format(id, table.concat(named, ", ")))
      end
      if seen[id] then cs.error("bad field 'order' in cs.cards (an id appears twice)") end
      seen[id] = true
      order[#order + 1] = id
    end
    for _, id in ipairs(ids) do if not seen[id] then order[#order + 1] = id end end
  else
    for i, id in ipairs(ids) do order[i] = id end
  end
  if t.modal then
    local k = index[t.modal]
    if not k or t.modal:sub(1, 1) == "#" then cs.error(("bad field 'modal' in cs.cards (no card with id '%s')"):format(t.modal)) end
    local kind = t[k].kind
    if kind ~= "card" and kind ~= "chart" then cs.error(("bad field 'modal' in cs.cards ('%s' is not a chart or card)"):format(t.modal)) end
  end

  local view = {
    kind = "cards",
    options = { scaleStep = t.scaleStep, offsetStep = t.offsetStep },
    state = { order = order, index = index, depth = {}, alpha = {}, drag = {}, modal = t.modal, progress = t.modal and 1 or 0 },
    animates = { "depth", "alpha", "drag", "progress" }, -- these move by value (the passing dissolve reads them)
    layout = layout,
    inspect = function(self)
      local out = {}
      for i, id in ipairs(self.target.order) do out[i] = self.children[self.target.index[id]].uid end
      return { order = out, modal = self.target.modal or cs.null }
    end,
  }

  local function top(self) return self.target.order[1] end
  local function open(self, id)
    self.state.modal, self.state.closing = id, nil
    self.state.progress = 0
    cs.animate({ duration = 0.35 }, function() self.state.progress = 1 end)
  end
  local function close(self)
    self.state.closing, self.state.modal = self.state.modal, nil
    cs.animate({ duration = 0.3 }, function() self.state.progress = 0 end)
  end
  -- Sends the top card to the back: every card moves from the depth drawn now to its new one
  -- (a card goes no further back than the first hidden place) and fades as it passes there.
  local function sendBack(self, id, speed)
    local st = self.state
    local old = {}
    for k, x in ipairs(self.target.order) do old[k] = x end
    local new = {}
    for _, x in ipairs(old) do if x ~= id then new[#new + 1] = x end end
    new[#new + 1] = id
    st.order = new
    for k, x in ipairs(new) do
      local was = indexOf(old, x) or k
      local depth = self.shown.depth[x] or math.min(shown, was - 1)
      st.depth[x] = depth
      cs.animate({ duration = 0.55 }, function() st.depth[x] = math.min(shown, k - 1) end)
      local alpha = self.shown.alpha[x] or alphaAt(depth)
      local target = k - 1 < shown and 1 or 0
      if alpha ~= target or self.target.alpha[x] ~= nil then
        st.alpha[x] = alpha
        if target == 0 then
          cs.animate({ duration = 0.45, delay = 0.25 }, function() st.alpha[x] = target end)
        else
          cs.animate({ duration = 0.55 }, function() st.alpha[x] = target end)
        end
      end
    end
    cs.animate({ duration = 0.55, velocity = speed }, function() st.drag[id] = 0 end)
  end

  view.on = {
    tap = function(self, e)
      if e.sheet then
        if not e.inside then close(self) end
        return
      end
      local id = top(self)
      if e.child == self.target.index[id] then open(self, id) end
    end,
    drag = function(self, e)
      if e.sheet then
        if e.phase == "ended" and e.dy > 80 then close(self) end
        return
      end
      if not e.held then return end
      local id = top(self)
      if e.child ~= self.target.index[id] then return end
      if e.phase == "changed" then
        self.state.drag[id] = math.max(0, e.dy)
      elseif e.phase == "ended" then
        local dy = math.max(0, e.dy)
        local speed = dy > 0 and e.vy or 0
        local height = self.children[e.child].height
        if dy > math.max(80, height * 0.25) then
          sendBack(self, id, speed)
        else
          -- A stiff spring: response 0.35 s, settled in 0.5 s.
          cs.animate({ curve = "spring", response = 0.35, duration = 0.5, velocity = speed }, function() self.state.drag[id] = 0 end)
        end
      end
    end,
  }
  for i, child in ipairs(t) do view[i] = child end
  return cs.compose(t, view) -- the common view keys, and the caller's `on` beside the deck's
end
