-- luacheck settings for the examples, benches and starter scenes: Lua 5.4 and the global `cs`.
std = "lua54"
read_globals = { "cs" }
max_line_length = false
