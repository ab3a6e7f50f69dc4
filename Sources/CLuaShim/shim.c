#include "CLuaShim.h"
#include <string.h>
#include <stdio.h>

static int cs_trampoline(lua_State *L) {
  cs_swift_function fn = (cs_swift_function)lua_touserdata(L, lua_upvalueindex(1));
  void *box = lua_touserdata(L, lua_upvalueindex(2));
  int n = fn(L, box);
  if (n < 0) return lua_error(L);  /* no Swift frame is live here */
  return n;
}

void cs_pushswiftfunction(lua_State *L, cs_swift_function fn, void *box) {
  lua_pushlightuserdata(L, (void *)fn);
  lua_pushlightuserdata(L, box);
  lua_pushcclosure(L, cs_trampoline, 2);
}

int cs_loadtext(lua_State *L, const char *buf, size_t len, const char *chunkname) {
  return luaL_loadbufferx(L, buf, len, chunkname, "t");
}

static int cs_unavailable(lua_State *L) {
  const char *name = lua_tostring(L, lua_upvalueindex(1));
  return luaL_error(L, "'%s' is not available in chartscene scripts", name);
}

/* load(chunk [, chunkname [, mode [, env]]]) restricted to text chunks. */
static int cs_load(lua_State *L) {
  int nargs = lua_gettop(L);
  if (nargs >= 3 && !lua_isnil(L, 3)) {
    const char *mode = luaL_checkstring(L, 3);
    if (strchr(mode, 'b') != NULL)
      return luaL_error(L, "binary chunks are not allowed in chartscene scripts");
  }
  lua_getfield(L, LUA_REGISTRYINDEX, "cs.originalload");
  lua_pushvalue(L, 1);
  if (nargs >= 2) lua_pushvalue(L, 2); else lua_pushnil(L);
  lua_pushliteral(L, "t");
  if (nargs >= 4) { lua_pushvalue(L, 4); lua_call(L, 4, LUA_MULTRET); }
  else lua_call(L, 3, LUA_MULTRET);
  return lua_gettop(L) - nargs;
}

/* __index of the globals: names of libraries left out of the sandbox raise an error that
   says so; any other missing global is nil, as in plain Lua. */
static int cs_globalindex(lua_State *L) {
  const char *key = lua_tostring(L, 2);
  if (key && (strcmp(key, "io") == 0 || strcmp(key, "debug") == 0 || strcmp(key, "package") == 0))
    return luaL_error(L, "'%s' is not available in chartscene scripts", key);
  return 0;
}

static void stub(lua_State *L, int tableidx, const char *field, const char *fullname) {
  lua_pushstring(L, fullname);
  lua_pushcclosure(L, cs_unavailable, 1);
  lua_setfield(L, tableidx, field);
}

void cs_opensandbox(lua_State *L) {
  luaL_requiref(L, LUA_GNAME, luaopen_base, 1); lua_pop(L, 1);
  luaL_requiref(L, LUA_STRLIBNAME, luaopen_string, 1); lua_pop(L, 1);
  luaL_requiref(L, LUA_TABLIBNAME, luaopen_table, 1); lua_pop(L, 1);
  luaL_requiref(L, LUA_MATHLIBNAME, luaopen_math, 1); lua_pop(L, 1);
  luaL_requiref(L, LUA_UTF8LIBNAME, luaopen_utf8, 1); lua_pop(L, 1);
  luaL_requiref(L, LUA_COLIBNAME, luaopen_coroutine, 1); lua_pop(L, 1);

  lua_pushglobaltable(L);
  int g = lua_gettop(L);
  lua_getfield(L, g, "load");
  lua_setfield(L, LUA_REGISTRYINDEX, "cs.originalload");
  lua_pushcfunction(L, cs_load);
  lua_setfield(L, g, "load");
  stub(L, g, "dofile", "dofile");
  stub(L, g, "loadfile", "loadfile");
  stub(L, g, "collectgarbage", "collectgarbage");

  /* string.dump would make binary chunks. */
  lua_getfield(L, g, "string");
  stub(L, lua_gettop(L), "dump", "string.dump");
  lua_pop(L, 1);

  /* os: only time, clock and date, taken from a private copy of the real library. */
  luaL_requiref(L, LUA_OSLIBNAME, luaopen_os, 0);
  int realos = lua_gettop(L);
  lua_newtable(L);
  int os = lua_gettop(L);
  const char *keep[] = {"time", "clock", "date", NULL};
  for (int i = 0; keep[i]; i++) { lua_getfield(L, realos, keep[i]); lua_setfield(L, os, keep[i]); }
  const char *deny[] = {"execute", "remove", "rename", "exit", "getenv", "tmpname", "setlocale", "difftime", NULL};
  char name[64];
  for (int i = 0; deny[i]; i++) { snprintf(name, sizeof name, "os.%s", deny[i]); stub(L, os, deny[i], name); }
  lua_setfield(L, g, "os");
  lua_pop(L, 1); /* real os */

  /* io, debug and package are absent; reading them gives a clear message. */
  lua_newtable(L);
  lua_pushcfunction(L, cs_globalindex);
  lua_setfield(L, -2, "__index");
  lua_setmetatable(L, g);
  lua_pop(L, 1); /* globals */
}

int cs_msgh(lua_State *L) {
  if (lua_type(L, 1) != LUA_TSTRING) {
    if (luaL_callmeta(L, 1, "__tostring") && lua_type(L, -1) == LUA_TSTRING) return 1;
    lua_pushfstring(L, "(error object is a %s value)", luaL_typename(L, 1));
  }
  return 1;
}

static void cs_budgethook(lua_State *L, lua_Debug *ar) {
  (void)ar;
  char where[512];
  cs_where(L, 0, where, sizeof where);
  lua_sethook(L, NULL, 0, 0); /* one report; the host re-arms for the next run */
  luaL_error(L, "%s script ran for too long (instruction budget exhausted; an endless loop?)", where);
}

void cs_setbudget(lua_State *L, int count) {
  if (count <= 0) lua_sethook(L, NULL, 0, 0);
  else lua_sethook(L, cs_budgethook, LUA_MASKCOUNT, count);
}

void cs_where(lua_State *L, int level, char *buf, size_t bufsize) {
  lua_Debug ar;
  buf[0] = 0;
  if (lua_getstack(L, level, &ar)) {
    lua_getinfo(L, "Sl", &ar);
    const char *src = ar.source ? ar.source : "?";
    if (src[0] == '@' || src[0] == '=') src++;
    if (ar.currentline > 0) snprintf(buf, bufsize, "%s:%d:", src, ar.currentline);
  }
}
