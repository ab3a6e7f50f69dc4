-- luacheck settings for chartscene scenes: Lua 5.4 as chartscene's sandbox has it (no io,
-- package, debug, dofile, loadfile, collectgarbage; os only time, clock and date; no
-- string.dump) and the global `cs`.
stds.chartscene = {
  read_globals = {
    "assert", "error", "ipairs", "pairs", "next", "pcall", "xpcall", "print", "select",
    "tonumber", "tostring", "type", "rawget", "rawset", "rawequal", "rawlen",
    "setmetatable", "getmetatable", "load", "require", "_VERSION", "cs",
    string = { fields = { "byte", "char", "find", "format", "gmatch", "gsub", "len", "lower",
      "match", "pack", "packsize", "rep", "reverse", "sub", "unpack", "upper" } },
    table = { fields = { "concat", "insert", "move", "pack", "remove", "sort", "unpack" } },
    math = { fields = { "abs", "acos", "asin", "atan", "ceil", "cos", "deg", "exp", "floor",
      "fmod", "huge", "log", "max", "maxinteger", "min", "mininteger", "modf", "pi", "rad",
      "random", "randomseed", "sin", "sqrt", "tan", "tointeger", "type", "ult" } },
    utf8 = { fields = { "char", "charpattern", "codes", "codepoint", "len", "offset" } },
    coroutine = { fields = { "close", "create", "isyieldable", "resume", "running", "status",
      "wrap", "yield" } },
    os = { fields = { "time", "clock", "date" } },
  },
  globals = { "_G" },
}
std = "chartscene"
max_line_length = false
