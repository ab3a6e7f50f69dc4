// Macro replacements for Lua 5.4 (Swift cannot import function-like macros) and the
// trampoline through which every Swift function is called from Lua.
#ifndef CLUASHIM_H
#define CLUASHIM_H
#include <lua5.4/lua.h>
#include <lua5.4/lauxlib.h>
#include <lua5.4/lualib.h>
#include <pthread.h>

static const int CS_LUA_REGISTRYINDEX = LUA_REGISTRYINDEX;

static inline void cs_pop(lua_State *L, int n) { lua_pop(L, n); }
static inline int cs_isnoneornil(lua_State *L, int i) { return lua_isnoneornil(L, i); }
static inline void cs_remove(lua_State *L, int i) { lua_remove(L, i); }
static inline void *cs_newuserdata(lua_State *L, size_t n) { return lua_newuserdatauv(L, n, 1); }
/// lua_pcall on L (the main thread or the coroutine running now), after which L is the
/// running thread again for the interrupter (see shim.c, "Deadlines").
int cs_pcall(lua_State *L, int nargs, int nresults, int msgh);

/// A Swift function called from Lua. It returns the number of results, or -1 after pushing
/// an error value; the trampoline then raises the error once no Swift frame is on the stack.
typedef int (*cs_swift_function)(lua_State *L, void *box);

/// Pushes a C closure that calls `fn(L, box)` through the trampoline.
void cs_pushswiftfunction(lua_State *L, cs_swift_function fn, void *box);

/// Loads a text chunk (never binary) from a buffer.
int cs_loadtext(lua_State *L, const char *buf, size_t len, const char *chunkname);

/// Opens the allow-listed standard library: base (without dofile/loadfile, with a
/// text-only load), string (without dump), table, math, utf8, coroutine, and os.time,
/// os.clock, os.date. Functions that are left out raise a clear error when called.
void cs_opensandbox(lua_State *L);

/// Message handler for pcall: keeps the message, adds nothing (tracebacks are not wanted
/// in the one-line error format).
int cs_msgh(lua_State *L);

/// How often (in VM instructions) the hook checks the clock where the interrupter thread
/// could not be started (otherwise every thread runs without a hook until its deadline:
/// see shim.c).
#define CS_HOOK_INTERVAL 10000

/// The longest error message (in bytes) the message handler passes on: a longer one is cut
/// and ends with "...".
#define CS_MAX_ERROR_MESSAGE 2000

/// What a state may use: its heap (bytes, through the allocator) and, while a protected
/// call runs, time. Owned by the host; must outlive the state.
typedef struct cs_limits {
  size_t used;          /* bytes the Lua heap holds now (and what the host charged) */
  size_t limit;         /* cap on `used`; 0: none */
  int refusable;        /* 1 while Lua code runs under a protected call */
  int refused;          /* an allocation was refused since the call began */
  double deadline;      /* CLOCK_MONOTONIC seconds at which the call is stopped; 0: none */
  double budget;        /* seconds the call was given */
  char where[512];      /* "chunk:line:" of the last place seen (refusal, hook) */
  char stopped[700];    /* the "script ran for too long" message, once raised in this call */
  char timeflag[32];    /* the option that sets the time limit, named in the report */
  char memoryflag[32];  /* the option that sets the memory limit */
  lua_State *main;
  int closing;          /* 1 while cs_closestate runs */
  unsigned wheregen;    /* bumped at every write of `where` (Lua's thread only) */
  unsigned notedgen;    /* `wheregen` after the last note of a string function's place */
  const char *notedsource; /* that place (compared, never read) */
  int notedline;
  struct cs_limits *outer; /* the next limited call being watched (see shim.c) */
  pthread_t thread;     /* the thread running the limited call */
  double resignal;      /* past the deadline: when the interrupter signals `thread` (again) */
  struct cs_limits *volatile threadouter; /* the next limited call on the same thread */
  lua_State *volatile running; /* the thread (main or coroutine) running Lua code in the call */
} cs_limits;

/// A new state using `lim` (zeroed here; set `limit` and the flags afterwards) for its
/// allocator and its deadlines (in every coroutine).
lua_State *cs_newstate(cs_limits *lim);

/// Starts a protected call of the function at `funcindex`, limited to `seconds` (0: no
/// deadline); the heap cap applies.
void cs_beginlimited(lua_State *L, int funcindex, double seconds);
/// Ends it: no deadline, no refusals (unprotected API calls must not fail).
void cs_endlimited(lua_State *L);

/// The one-line report of a heap over its cap, placed at the Lua function `level` (or, with
/// 0, at the last place seen), written into `buf`; returns `buf`.
const char *cs_memorymessage(lua_State *L, int level, char *buf, size_t bufsize);

/// Closes the state, giving finalizers `seconds` (plus the watchdog's grace) before the
/// watchdog ends the process. The limits stay allocated (the host frees them afterwards).
void cs_closestate(lua_State *L, double seconds);

/// The function every state calls on an error outside a protected call (instead of
/// aborting): it calls the handler given to cs_setfatal (which must end the process) with a
/// one-line message.
int cs_panic(lua_State *L);
void cs_setfatal(void (*handler)(const char *message));

/// For a watchdog thread: 1, with the report in buf, when the limited call running now (in
/// any state) is past its deadline by its own limit again (at least 0.5 s, at most `grace`
/// seconds), i.e. stuck where the hook cannot stop it (inside a C function such as a
/// runaway string.find).
int cs_overdue(double grace, char *buf, size_t bufsize);

/// Starts (once per process) a thread that calls `overdue` with the report when
/// `cs_overdue(grace, ...)` holds. `overdue` must end the process. Returns 0, or -1 when
/// the thread could not be started.
int cs_startwatchdog(double grace, void (*overdue)(const char *message));
/// The whole run's budget: once the process has used `seconds` of CPU time (0: no budget),
/// the watchdog calls its `overdue` with `report`.
void cs_settotal(double seconds, const char *report);
/// CPU seconds the process has used (all threads).
double cs_cputime(void);

/// Host work inside a limited call (reading a data file): the call's deadline is lifted
/// while it runs and moved on by the time it took, so the script's time limit counts only
/// the script. Returns the seconds the call had left (negative: it was already over, and
/// stays so), to give to cs_resumedeadline; 0 when the call has no deadline.
double cs_pausedeadline(lua_State *L);
void cs_resumedeadline(lua_State *L, double left);

/// Seconds of CLOCK_MONOTONIC.
double cs_now(void);

/// "chunk:line:" of the function at `level` (1 = the Lua function that called a C function),
/// copied into buf; empty when unknown.
void cs_where(lua_State *L, int level, char *buf, size_t bufsize);
int cs_isbuiltin(lua_State *L, int level);
#endif
