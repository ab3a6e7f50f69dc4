-- The utf8 library (manual §6.5).
local out = {}
local function add(...)
  local t = table.pack(...)
  for i = 1, t.n do t[i] = tostring(t[i]) end
  out[#out + 1] = t.n .. ": " .. table.concat(t, " | ")
end

add(utf8.char(72, 228, 8364, 128512), utf8.char())
add(utf8.charpattern)
local s = "häll€ 😀"
add(#s, utf8.len(s), utf8.len(s, 3), utf8.len(s, -4))
add(utf8.codepoint(s, 1, -1))
add(utf8.offset(s, 3), utf8.offset(s, -1), utf8.offset(s, 0, 3), utf8.offset(s, 10))
for p, c in utf8.codes("aé€") do add(p, c) end
add(utf8.len("\xff"), utf8.len("ab\x80cd"), utf8.len("\xe2\x82"))
add(pcall(utf8.codepoint, "\xff"))
add(pcall(utf8.codepoint, "abc", 4))
add(pcall(utf8.offset, "€", 1, 2))
add(pcall(utf8.char, -1))
add(pcall(utf8.char, 0x80000000))
add(pcall(utf8.len, "abc", 5))
add(utf8.char(0x7FFFFFFF):byte(1, -1))
add(utf8.len("\u{7FFFFFFF}"), utf8.len("\u{7FFFFFFF}", 1, -1, true))
add(pcall(function() for _ in utf8.codes("a\xffb") do end end))
add(utf8.codepoint("\u{D800}", 1, 1, true), pcall(utf8.codepoint, "\u{D800}"))
local n = 0
for _, c in utf8.codes("") do n = n + c end
add(n)
add(("€"):len(), ("€"):byte(1, -1))
add(("x€y"):match(utf8.charpattern, 2))
return table.concat(out, "\n")
