#include "CLuaShim.h"
#include <string.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <pthread.h>
#include <unistd.h>
#include <signal.h>
#include <errno.h>

/* ---- Limits: the Lua heap's cap and the running call's deadline ---------------------- */

static cs_limits *limits_of(lua_State *L) { return *(cs_limits **)lua_getextraspace(L); }

/* What the watchdog thread may read is shared through one lock, so it is correct by
   construction:
   - `watched` is the chain (innermost first, through `outer`) of the limited calls running
     now, in any state: a preset's state loaded inside a script's call pushes its own limits
     and pops them again, and the script's call is watched again afterwards.
   - A `cs_limits` is in the chain only between cs_beginlimited and cs_endlimited (or while
     cs_closestate runs), and both take the lock: the host frees it only after
     cs_closestate, so the watchdog never reads freed memory.
   - Every field the watchdog reads (`deadline`, `budget`, `where`, `timeflag`, `closing`) is
     written under the lock, or before the call that puts the limits in the chain. */
static pthread_mutex_t watch_lock = PTHREAD_MUTEX_INITIALIZER;
static cs_limits *watched;

static void unwatch_locked(cs_limits *lim) {
  for (cs_limits **p = &watched; *p; p = &(*p)->outer) {
    if (*p == lim) { *p = lim->outer; break; }
  }
  lim->outer = NULL;
}

double cs_now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* "chunk:line:" of the innermost Lua function on L's stack (C functions are skipped). */
static void where_lua(lua_State *L, char *buf, size_t bufsize) {
  lua_Debug ar;
  buf[0] = 0;
  for (int level = 0; lua_getstack(L, level, &ar); level++) {
    if (!lua_getinfo(L, "Sl", &ar) || ar.currentline <= 0) continue;
    const char *src = ar.source ? ar.source : "?";
    if (src[0] == '@' || src[0] == '=') src++;
    snprintf(buf, bufsize, "%s:%d:", src, ar.currentline);
    return;
  }
}

/* The allocator. It refuses to grow the heap past the limit only while Lua code runs
   under a protected call (`refusable`): a refusal elsewhere would make Lua panic, and in
   a Swift function it would longjmp through Swift frames. The trampoline checks the
   limit when a Swift function returns instead. */
static void *cs_alloc(void *ud, void *ptr, size_t osize, size_t nsize) {
  cs_limits *lim = (cs_limits *)ud;
  size_t old = ptr ? osize : 0;
  if (nsize == 0) {
    free(ptr);
    lim->used -= old;
    return NULL;
  }
  if (nsize > old && lim->limit > 0 && lim->refusable && lim->used - old + nsize > lim->limit) {
    lim->refused = 1;
#if LUA_VERSION_RELEASE_NUM <= 50404
    /* In 5.4.0-5.4.4 the stack and call list stay valid during every allocation (a stack
       grows into a new block), so the place of the request can be read here. */
    if (lim->main) {
      /* Only a place found replaces the last one: a refusal after the script's frames are
         gone (Lua shrinking a stack after an error) must not erase where the script was. */
      char where[sizeof lim->where];
      lua_State *running = lim->running;
      where_lua(running ? running : lim->main, where, sizeof where);
      if (where[0]) {
        pthread_mutex_lock(&watch_lock);
        memcpy(lim->where, where, sizeof where);
        lim->wheregen++;
        pthread_mutex_unlock(&watch_lock);
      }
    }
#endif
    return NULL;
  }
  void *p = realloc(ptr, nsize);
  if (p) lim->used = lim->used - old + nsize;
  return p;
}

/* ---- Deadlines -------------------------------------------------------------------------
   While a count hook is set, Lua 5.4 runs every VM instruction through luaG_traceexec: a
   plain loop takes 2.2 times as long. So no thread of a state (the main thread or a
   coroutine) runs with a hook. At a call's deadline the interrupter thread signals (SIGURG)
   the thread running the call, and the handler sets the count hook on the Lua thread that
   runs now, as lua.c does on Ctrl-C (lua_sethook may be called from a signal handler: it only
   sets the mask and the traps of the running frames); the hook then stops the code at its
   next instruction. Which Lua thread runs is `running` in the limits: the wrapped
   coroutine.resume and coroutine.wrap's function set it to the coroutine they resume and
   back to their caller when it yields or ends; pcall, xpcall and cs_pcall set it back to
   their own thread after an error unwound to them (an error may leave a coroutine that
   `running` still names, and cs_beginlimited/cs_endlimited reset it). The handler sets the
   hook on the main thread too. Where the interrupter cannot start, every thread gets the
   count hook every CS_HOOK_INTERVAL instructions, as before. */

/* The registry key that holds the thread `running` names (see mark_running). */
static const char running_anchor = 0;

/* 1: the interrupter runs; -1: it could not start; 0: not needed yet. */
static int interrupter_state;
static pthread_once_t interrupter_once = PTHREAD_ONCE_INIT;
static pthread_cond_t interrupter_wake;
/* When the interrupter wakes next by itself (0: only when woken), under watch_lock: a call
   whose deadline comes later wakes no one (lint makes thousands of short calls). */
static double interrupter_until;
/* The limited calls running on this thread, innermost first (read by the signal handler). */
static __thread cs_limits *volatile thread_top;

static void thread_unlink(cs_limits *lim) {
  for (cs_limits *volatile *p = &thread_top; *p; p = &(*p)->threadouter) {
    if (*p == lim) { *p = lim->threadouter; break; }
  }
  lim->threadouter = NULL;
}

/* Runs once in the running thread when the interrupter signals it (or every
   CS_HOOK_INTERVAL instructions where there is no interrupter): notes where the code is (for
   reports from places where the stack cannot be read) and stops it past the deadline. */
static void cs_hook(lua_State *L, lua_Debug *ar) {
  (void)ar;
  cs_limits *lim = limits_of(L);
  int late = lim->deadline > 0 && cs_now() > lim->deadline;
  if (!late) {
    /* A signal for a call that has ended, or the hook of a stop earlier: off again, or back
       to its interval where there is no interrupter. */
    if (interrupter_state == 1) lua_sethook(L, NULL, 0, 0);
    else if (lua_gethookcount(L) != CS_HOOK_INTERVAL) lua_sethook(L, cs_hook, LUA_MASKCOUNT, CS_HOOK_INTERVAL);
  }
  if (lim->deadline <= 0 || lim->closing) return;
  pthread_mutex_lock(&watch_lock);
  where_lua(L, lim->where, sizeof lim->where);
  lim->wheregen++;
  pthread_mutex_unlock(&watch_lock);
  if (late) {
    /* From now on at every instruction, so that a pcall in the script that catches the
       error cannot run on: the next instruction after it raises again, until the error
       reaches the host. */
    lua_sethook(L, cs_hook, LUA_MASKCOUNT, 1);
    if (!lim->stopped[0])
      snprintf(lim->stopped, sizeof lim->stopped, "%s script ran for too long (over %g s%s%s)", lim->where, lim->budget,
               lim->timeflag[0] ? "; " : "", lim->timeflag);
    luaL_error(L, "%s", lim->stopped);
  }
}

static void on_interrupt(int sig) {
  (void)sig;
  int saved = errno;
  for (cs_limits *lim = thread_top; lim; lim = lim->threadouter) {
    lua_State *running = lim->running;
    if (running) lua_sethook(running, cs_hook, LUA_MASKCOUNT, 1);
    if (lim->main && lim->main != running) lua_sethook(lim->main, cs_hook, LUA_MASKCOUNT, 1);
  }
  errno = saved;
}

/* Sleeps until the earliest deadline of the calls being watched, then signals the thread
   of each call past it (once a call). */
static void *interrupter_main(void *arg) {
  (void)arg;
  pthread_mutex_lock(&watch_lock);
  for (;;) {
    double now = cs_now(), next = 0;
    for (cs_limits *lim = watched; lim; lim = lim->outer) {
      if (lim->deadline <= 0 || lim->closing) continue;
      if (now >= lim->deadline) {
        /* Once, then again every 50 ms while the call runs on: a signal that came while a
           coroutine was being switched to or from may have hooked a thread that ran no more. */
        if (now >= lim->resignal) {
          pthread_kill(lim->thread, SIGURG);
          lim->resignal = now + 0.05;
        }
        if (next == 0 || lim->resignal < next) next = lim->resignal;
      } else if (next == 0 || lim->deadline < next) {
        next = lim->deadline;
      }
    }
    interrupter_until = next;
    if (next == 0) {
      pthread_cond_wait(&interrupter_wake, &watch_lock);
    } else {
      struct timespec ts;
      ts.tv_sec = (time_t)next;
      ts.tv_nsec = (long)((next - (double)ts.tv_sec) * 1e9);
      if (ts.tv_nsec > 999999999L) ts.tv_nsec = 999999999L;
      pthread_cond_timedwait(&interrupter_wake, &watch_lock, &ts);
    }
  }
  return NULL;
}

static void interrupter_start(void) {
  interrupter_state = -1;
  pthread_condattr_t ca;
  if (pthread_condattr_init(&ca) != 0) return;
  int ok = pthread_condattr_setclock(&ca, CLOCK_MONOTONIC) == 0 && pthread_cond_init(&interrupter_wake, &ca) == 0;
  pthread_condattr_destroy(&ca);
  if (!ok) return;
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = on_interrupt;
  sa.sa_flags = SA_RESTART;
  sigemptyset(&sa.sa_mask);
  if (sigaction(SIGURG, &sa, NULL) != 0) return;
  pthread_attr_t attr;
  if (pthread_attr_init(&attr) != 0) return;
  pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
  /* No signal for the process lands on this thread (it has no Lua to stop). */
  sigset_t all, old;
  sigfillset(&all);
  pthread_sigmask(SIG_SETMASK, &all, &old);
  pthread_t t;
  int rc = pthread_create(&t, &attr, interrupter_main, NULL);
  pthread_sigmask(SIG_SETMASK, &old, NULL);
  pthread_attr_destroy(&attr);
  if (rc == 0) interrupter_state = 1;
}

lua_State *cs_newstate(cs_limits *lim) {
  memset(lim, 0, sizeof *lim);
  lua_State *L = lua_newstate(cs_alloc, lim);
  if (!L) return NULL;
  *(cs_limits **)lua_getextraspace(L) = lim;  /* copied into every coroutine */
  lim->main = L;
  lua_atpanic(L, cs_panic);
  /* The anchor's key exists from the start: setting it later never allocates (it may be set
     right after a protected call, where a refused allocation could not be caught). */
  lua_pushthread(L);
  lua_rawsetp(L, LUA_REGISTRYINDEX, &running_anchor);
  return L;
}

void cs_beginlimited(lua_State *L, int funcindex, double seconds) {
  cs_limits *lim = limits_of(L);
  lim->refused = 0;
  /* Until the hook has seen the code run, the place is where the function begins. */
  char where[sizeof lim->where];
  where[0] = 0;
  lua_Debug ar;
  lua_pushvalue(L, funcindex);
  /* '>' pops the function whatever the result. */
  if (lua_getinfo(L, ">S", &ar) && ar.source && (ar.what[0] == 'L' || ar.what[0] == 'm')) {
    const char *src = ar.source;
    if (src[0] == '@' || src[0] == '=') src++;
    snprintf(where, sizeof where, "%s:%d:", src, ar.linedefined > 0 ? ar.linedefined : 1);
  }
  if (seconds > 0) pthread_once(&interrupter_once, interrupter_start);
  /* libdispatch's worker threads (batch jobs run on them) block every asynchronous signal:
     SIGURG is let through on the threads that run limited calls, once a thread. */
  static __thread int urg_unblocked;
  if (seconds > 0 && !urg_unblocked) {
    sigset_t urg;
    sigemptyset(&urg);
    sigaddset(&urg, SIGURG);
    pthread_sigmask(SIG_UNBLOCK, &urg, NULL);
    urg_unblocked = 1;
  }
  /* No hook in the main thread (a stop of the call before is lifted), but where the
     interrupter could not start. */
  if (seconds > 0 && interrupter_state != 1) lua_sethook(L, cs_hook, LUA_MASKCOUNT, CS_HOOK_INTERVAL);
  else lua_sethook(L, NULL, 0, 0);
  thread_unlink(lim);
  lim->running = L;
  lim->threadouter = thread_top;
  __atomic_signal_fence(__ATOMIC_SEQ_CST);
  thread_top = lim;
  pthread_mutex_lock(&watch_lock);
  memcpy(lim->where, where, sizeof where);
  lim->wheregen++;
  lim->budget = seconds;
  lim->stopped[0] = 0;
  lim->deadline = seconds > 0 ? cs_now() + seconds : 0;
  lim->thread = pthread_self();
  lim->resignal = 0;
  unwatch_locked(lim);
  lim->outer = watched;
  watched = lim;
  if (seconds > 0 && interrupter_state == 1 && (interrupter_until == 0 || lim->deadline < interrupter_until))
    pthread_cond_signal(&interrupter_wake);
  pthread_mutex_unlock(&watch_lock);
  lim->refusable = 1;
}

void cs_endlimited(lua_State *L) {
  cs_limits *lim = limits_of(L);
  pthread_mutex_lock(&watch_lock);
  unwatch_locked(lim);
  lim->deadline = 0;
  pthread_mutex_unlock(&watch_lock);
  thread_unlink(lim);
  lim->running = NULL;
  lim->refusable = 0;
}

/* `running` is read by the signal handler, which sets a hook on that thread: the thread must
   stay alive while `running` names it. So the registry holds it (at &running_anchor) until
   another takes its place (the key exists from cs_newstate on, so setting it never
   allocates). Marking needs one stack slot of L; without one `running` is left as it was (a
   hook set on a thread not running then is harmless). */
static void mark_running(lua_State *L, int index, lua_State *thread) {
  cs_limits *lim = limits_of(L);
  if (!lim) return;
  /* Growing the stack by a slot is never refused (a refusal would also overwrite the place
     the last refusal noted, which the host's report names). */
  int refusable = lim->refusable;
  lim->refusable = 0;
  int room = lua_checkstack(L, 1);
  lim->refusable = refusable;
  if (!room) return;
  if (thread == L) {
    /* L runs: it is alive, so `running` may name it before the anchor moves. */
    __atomic_signal_fence(__ATOMIC_SEQ_CST);
    lim->running = L;
    __atomic_signal_fence(__ATOMIC_SEQ_CST);
    lua_pushthread(L);
    lua_rawsetp(L, LUA_REGISTRYINDEX, &running_anchor);
  } else {
    lua_pushvalue(L, index);
    lua_rawsetp(L, LUA_REGISTRYINDEX, &running_anchor);
    __atomic_signal_fence(__ATOMIC_SEQ_CST);
    lim->running = thread;
    __atomic_signal_fence(__ATOMIC_SEQ_CST);
  }
}

/* After a call on L returns (or an error unwinds to it), L runs. */
static void now_running(lua_State *L) { mark_running(L, 0, L); }

int cs_pcall(lua_State *L, int nargs, int nresults, int msgh) {
  int rc = lua_pcall(L, nargs, nresults, msgh);
  now_running(L);
  return rc;
}

/* Closes L with `seconds` (plus the watchdog's grace) to do it: a finalizer cannot be set
   from a script (setmetatable refuses __gc and the host's metatables are protected), but if
   one ever ran, Lua runs it with hooks off, so only the watchdog could stop it. */
void cs_closestate(lua_State *L, double seconds) {
  cs_limits *lim = limits_of(L);
  pthread_mutex_lock(&watch_lock);
  lim->closing = 1;
  lim->refusable = 0;
  lim->where[0] = 0;
  lim->wheregen++;
  lim->budget = seconds;
  lim->deadline = cs_now() + seconds;
  unwatch_locked(lim);
  lim->outer = watched;
  watched = lim;
  pthread_mutex_unlock(&watch_lock);
  lua_close(L);
  pthread_mutex_lock(&watch_lock);
  unwatch_locked(lim);
  lim->deadline = 0;
  lim->main = NULL;
  pthread_mutex_unlock(&watch_lock);
}

/* The deadline lifted (0: the interrupter and the watchdog skip the call) and set again
   from what was left, under the lock both read it with. A call already past its deadline
   keeps it: its stop is on its way. */
double cs_pausedeadline(lua_State *L) {
  cs_limits *lim = limits_of(L);
  pthread_mutex_lock(&watch_lock);
  double left = 0;
  if (lim->deadline > 0 && !lim->closing) {
    left = lim->deadline - cs_now();
    if (left > 0) lim->deadline = 0;
  }
  pthread_mutex_unlock(&watch_lock);
  return left;
}

void cs_resumedeadline(lua_State *L, double left) {
  if (left <= 0) return;
  cs_limits *lim = limits_of(L);
  pthread_mutex_lock(&watch_lock);
  if (lim->deadline == 0 && !lim->closing) {
    for (cs_limits *w = watched; w; w = w->outer) {
      if (w != lim) continue;
      lim->deadline = cs_now() + left;
      lim->resignal = 0;
      if (interrupter_state == 1 && (interrupter_until == 0 || lim->deadline < interrupter_until))
        pthread_cond_signal(&interrupter_wake);
      break;
    }
  }
  pthread_mutex_unlock(&watch_lock);
}

int cs_overdue(double grace, char *buf, size_t bufsize) {
  int overdue = 0;
  double now = cs_now();
  pthread_mutex_lock(&watch_lock);
  for (cs_limits *lim = watched; lim; lim = lim->outer) {
    /* The grace is the call's own limit again, at least 0.5 s (time for the hook's stop to
       unwind on a loaded machine) and at most `grace`: a call limited to 0.2 s that is stuck
       in a C function ends 0.5 s later, not 2 s. */
    double g = lim->budget < 0.5 ? 0.5 : lim->budget;
    if (g > grace) g = grace;
    if (lim->deadline <= 0 || now < lim->deadline + g) continue;
    const char *where = lim->where;
    if (lim->closing)
      snprintf(buf, bufsize, "a finalizer ran for too long (over %g s) while the script's state was closed", lim->budget);
    else
      snprintf(buf, bufsize, "%s%sscript ran for too long (over %g s%s%s) in a library function that cannot be interrupted",
               where, where[0] ? " " : "", lim->budget, lim->timeflag[0] ? "; " : "", lim->timeflag);
    overdue = 1;
    break;
  }
  pthread_mutex_unlock(&watch_lock);
  return overdue;
}

/* Notes the running line before a library function that may run for long without a VM
   instruction (a backtracking pattern), so that the watchdog's report names it. */
static void note_place(lua_State *L) {
  cs_limits *lim = limits_of(L);
  if (!lim || lim->deadline <= 0) return;
  char where[sizeof lim->where];
  lua_Debug ar;
  if (lua_getstack(L, 1, &ar) && lua_getinfo(L, "Sl", &ar) && ar.currentline > 0) {
    /* The same place as the last note, with nothing written since: nothing to do (a loop
       of short finds stays cheap). The source pointer is only compared, never read. */
    if (ar.source == lim->notedsource && ar.currentline == lim->notedline && lim->notedgen == lim->wheregen) return;
    const char *src = ar.source ? ar.source : "?";
    lim->notedsource = ar.source;
    lim->notedline = ar.currentline;
    if (src[0] == '@' || src[0] == '=') src++;
    snprintf(where, sizeof where, "%s:%d:", src, ar.currentline);
  } else {
    lim->notedsource = NULL;
    where_lua(L, where, sizeof where);
    if (!where[0]) return;
  }
  pthread_mutex_lock(&watch_lock);
  memcpy(lim->where, where, sizeof where);
  lim->notedgen = ++lim->wheregen;
  pthread_mutex_unlock(&watch_lock);
}

/* A string function (upvalue 1, a C function without upvalues) called after noting the
   place. It runs in this same call frame, so its errors name it and its caller's line as
   before. */
static int cs_noted(lua_State *L) {
  note_place(L);
  lua_CFunction fn = lua_tocfunction(L, lua_upvalueindex(1));
  return fn(L);
}

/* ---- Fatal errors --------------------------------------------------------------------- */

static void (*fatal_handler)(const char *message);

void cs_setfatal(void (*handler)(const char *message)) { fatal_handler = handler; }

/* An error outside any protected call: Lua would abort. One error line and exit instead
   (through the host's handler, which removes temporary files first). */
int cs_panic(lua_State *L) {
  const char *msg = lua_type(L, -1) == LUA_TSTRING ? lua_tostring(L, -1) : "(error object is not a string)";
  char buf[1024];
  snprintf(buf, sizeof buf, "unprotected error in the Lua state: %s", msg ? msg : "?");
  if (fatal_handler) fatal_handler(buf);
  /* Not reached with a handler: it ends the process. */
  fputs("error: ", stderr);
  for (const char *c = buf; *c; c++) fputc((unsigned char)*c < 32 || *c == 127 ? '?' : *c, stderr);
  fputc('\n', stderr);
  _exit(1);
  return 0;
}

static int cs_trampoline(lua_State *L) {
  cs_swift_function fn = (cs_swift_function)lua_touserdata(L, lua_upvalueindex(1));
  void *box = lua_touserdata(L, lua_upvalueindex(2));
  cs_limits *lim = limits_of(L);
  note_place(L);  /* a Swift function stuck past the deadline is reported at its caller's line */
  int refusable = lim ? lim->refusable : 0;
  if (lim) lim->refusable = 0;  /* no refusal (no longjmp) while Swift runs */
  /* Room for what a Swift function pushes, on the stack of the thread that called it (grown
     like the Swift function's own pushes, without a refusal). */
  if (!lua_checkstack(L, 48)) {
    if (lim) lim->refusable = refusable;
    return luaL_error(L, "stack overflow");
  }
  int n = fn(L, box);
  if (lim) lim->refusable = refusable;
  /* No Swift frame is live from here on. */
  if (n < 0) return lua_error(L);
  if (lim && refusable && lim->limit > 0 && lim->used > lim->limit) {
    lim->refused = 1;
    char msg[768];
    return luaL_error(L, "%s", cs_memorymessage(L, 1, msg, sizeof msg));
  }
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

/* load(chunk [, chunkname [, mode [, env]]]) as the manual says (§6.1): chunk a string or a
   function giving pieces, chunkname by default the string itself or "=(load)", mode "bt" by
   default (Lua refuses a chunk the mode does not allow with nil and its message), env set as
   the first upvalue when given. Only binary chunks are never loaded: when the mode would
   allow one, the reader refuses it as it sees its first byte, and load returns nil and a
   message too. It runs in the frame Lua called (so its argument errors name 'load' and the
   caller's line), never through another function. */
enum { LOAD_PIECE = 5 }; /* the stack slot that keeps a reader function's last piece alive */

struct load_source {
  int reader;           /* 1: chunk is a function at index 1; 0: a string */
  const char *text;     /* the string chunk, given once */
  size_t len;
  int given;            /* the string was given */
  int seenfirst;        /* the first byte of the chunk has been checked */
  int binaryallowed;    /* the mode has 'b' */
};

static const char *load_piece(lua_State *L, void *ud, size_t *size) {
  struct load_source *src = ud;
  const char *piece;
  *size = 0;
  if (!src->reader) {
    if (src->given) return NULL;
    src->given = 1;
    piece = src->text;
    *size = src->len;
  } else {
    luaL_checkstack(L, 2, "too many nested functions");
    lua_pushvalue(L, 1);
    lua_call(L, 0, 1);
    if (lua_isnil(L, -1)) { lua_pop(L, 1); return NULL; }
    if (!lua_isstring(L, -1)) luaL_error(L, "reader function must return a string");
    lua_replace(L, LOAD_PIECE);
    piece = lua_tolstring(L, LOAD_PIECE, size);
  }
  if (!src->seenfirst && *size > 0) {
    src->seenfirst = 1;
    if (piece[0] == LUA_SIGNATURE[0] && src->binaryallowed) {
      lua_pushliteral(L, "attempt to load a binary chunk (chartscene scripts load text chunks only)");
      lua_error(L);
    }
  }
  return piece;
}

static int cs_load(lua_State *L) {
  size_t len = 0;
  const char *text = lua_tolstring(L, 1, &len);
  const char *mode = luaL_optstring(L, 3, "bt");
  int hasenv = !lua_isnone(L, 4);
  struct load_source src;
  memset(&src, 0, sizeof src);
  src.binaryallowed = strchr(mode, 'b') != NULL;
  const char *name;
  if (text) {
    name = luaL_optstring(L, 2, text);
    src.text = text;
    src.len = len;
  } else {
    name = luaL_optstring(L, 2, "=(load)");
    luaL_checktype(L, 1, LUA_TFUNCTION);
    src.reader = 1;
  }
  lua_settop(L, LOAD_PIECE);
  if (lua_load(L, load_piece, &src, name, mode) != LUA_OK) {
    lua_pushnil(L);
    lua_insert(L, -2);
    return 2;  /* nil, message */
  }
  if (hasenv) {
    lua_pushvalue(L, 4);
    if (!lua_setupvalue(L, -2, 1)) lua_pop(L, 1);
  }
  return 1;
}

/* __index of the globals: names of libraries left out of the sandbox raise an error that
   says so; any other missing global is nil, as in plain Lua. */
static int cs_globalindex(lua_State *L) {
  const char *key = lua_tostring(L, 2);
  if (key && (strcmp(key, "io") == 0 || strcmp(key, "debug") == 0 || strcmp(key, "package") == 0))
    return luaL_error(L, "'%s' is not available in chartscene scripts", key);
  return 0;
}

/* print writes to stderr: stdout carries --inspect JSON and must stay clean. */
static int cs_print(lua_State *L) {
  int n = lua_gettop(L);
  luaL_Buffer b;
  luaL_buffinit(L, &b);
  for (int i = 1; i <= n; i++) {
    if (i > 1) luaL_addchar(&b, '\t');
    luaL_tolstring(L, i, NULL);
    luaL_addvalue(&b);
  }
  luaL_addchar(&b, '\n');
  luaL_pushresult(&b);
  size_t len;
  const char *text = lua_tolstring(L, -1, &len);
  fwrite(text, 1, len, stderr);
  fflush(stderr);
  return 0;
}

/* The wrappers below run the library function they wrap (a C function without upvalues:
   lua_tocfunction of their upvalue 1) in the very frame Lua called, so an error it raises names
   the function as the script called it and the script's line, and error levels count as in
   plain Lua (a call through lua_call would add a frame without a name or a line). */
static lua_CFunction wrapped_function(lua_State *L) { return lua_tocfunction(L, lua_upvalueindex(1)); }

/* setmetatable without __gc: a finalizer runs whenever the collector gets to it, also
   outside any time limit (while the host works, or when the state is closed), where an
   endless one would hang chartscene. */
static int cs_setmetatable(lua_State *L) {
  if (lua_type(L, 2) == LUA_TTABLE) {
    lua_pushliteral(L, "__gc");
    int t = lua_rawget(L, 2);
    lua_pop(L, 1);
    if (t != LUA_TNIL) return luaL_error(L, "'__gc' metamethods are not available in chartscene scripts");
  }
  return wrapped_function(L)(L);
}

/* True when a limited call is past its deadline (its stop is being raised). */
static int past_deadline(lua_State *L) {
  cs_limits *lim = limits_of(L);
  return lim && lim->deadline > 0 && !lim->closing && cs_now() > lim->deadline;
}

/* Raises the time limit's stop again in L: the message as first raised, else `fallback`
   (a stack index). */
static int raise_stop(lua_State *L, int fallback) {
  cs_limits *lim = limits_of(L);
  if (lim->stopped[0]) lua_pushstring(L, lim->stopped); else lua_pushvalue(L, fallback);
  return lua_error(L);
}

/* xpcall's message handler, as the script gave it (upvalue 1), unless the time is up: the
   stop is raised from the count hook, and Lua runs a handler for an error raised there with
   hooks off, so an endless handler could never be stopped. Past the deadline the error
   passes through unchanged. */
static int cs_xpcallhandler(lua_State *L) {
  now_running(L);
  if (past_deadline(L)) return 1;
  lua_pushvalue(L, lua_upvalueindex(1));
  lua_insert(L, 1);
  lua_call(L, lua_gettop(L) - 1, LUA_MULTRET);
  return lua_gettop(L);
}

/* pcall and xpcall (§6.1), yieldable: the called function may yield across them, and Lua
   then finishes the call in this continuation. `below` (the context) is the number of
   stack slots under the `true` that starts the results. An error gives false and the error,
   but past the deadline the stop is raised again in the caller: the hook makes every
   instruction of the thread that ran out raise it, but no function of the script may catch
   the time limit. */
static int cs_protectedresults(lua_State *L, int status, lua_KContext below) {
  now_running(L);
  if (status == LUA_OK || status == LUA_YIELD) return lua_gettop(L) - (int)below;
  if (past_deadline(L)) return raise_stop(L, lua_gettop(L));
  lua_pushboolean(L, 0);
  lua_insert(L, -2);
  return 2;  /* false, the error */
}

static int cs_pcall_script(lua_State *L) {
  luaL_checkany(L, 1);
  int nargs = lua_gettop(L) - 1;
  lua_pushboolean(L, 1);
  lua_rotate(L, 1, 1);  /* true, f, args... */
  int status = lua_pcallk(L, nargs, LUA_MULTRET, 0, 0, cs_protectedresults);
  return cs_protectedresults(L, status, 0);
}

static int cs_xpcall_script(lua_State *L) {
  luaL_checktype(L, 2, LUA_TFUNCTION);
  int nargs = lua_gettop(L) - 2;
  /* Slot 2 becomes the guarded handler; slot 3 `true`, then f and its arguments. */
  lua_pushvalue(L, 2);
  lua_pushcclosure(L, cs_xpcallhandler, 1);
  lua_replace(L, 2);
  lua_pushboolean(L, 1);
  lua_pushvalue(L, 1);
  lua_rotate(L, 3, 2);
  int status = lua_pcallk(L, nargs, LUA_MULTRET, 2, 2, cs_protectedresults);
  return cs_protectedresults(L, status, 2);
}

/* coroutine.resume and coroutine.close (upvalue 1: the library's): the coroutine runs while
   they do (for the interrupter); false and a message past the deadline is raised again in the
   caller, as in pcall (a coroutine's error reaches its resumer as a value, and the
   resumer's next instructions could run on). */
static int cs_coroutinecall(lua_State *L) {
  lua_CFunction fn = wrapped_function(L);
  lua_State *co = lua_tothread(L, 1);
  if (co) mark_running(L, 1, co);
  int n = fn(L);
  now_running(L);
  if (n >= 1 && lua_type(L, -n) == LUA_TBOOLEAN && !lua_toboolean(L, -n) && past_deadline(L))
    return raise_stop(L, n >= 2 ? lua_gettop(L) - n + 2 : lua_gettop(L));
  return n;
}

/* Where the interrupter could not start, a new coroutine gets the count hook every
   CS_HOOK_INTERVAL instructions (see "Deadlines" above); one made while a stop is being
   raised keeps the hook it inherited. */
static void hook_coroutine(lua_State *co) {
  if (co && interrupter_state != 1 && lua_gethook(co) == NULL) lua_sethook(co, cs_hook, LUA_MASKCOUNT, CS_HOOK_INTERVAL);
}

static int cs_cocreate(lua_State *L) {
  int n = wrapped_function(L)(L);
  hook_coroutine(lua_tothread(L, -1));
  return n;
}

/* The function coroutine.wrap returns: the library's (upvalue 2, a light userdata), which
   finds its coroutine as upvalue 1, run in this frame with the coroutine marked running. */
static int cs_cowrapped(lua_State *L) {
  lua_State *co = lua_tothread(L, lua_upvalueindex(1));
  lua_CFunction fn = (lua_CFunction)lua_touserdata(L, lua_upvalueindex(2));
  if (co) mark_running(L, lua_upvalueindex(1), co);
  int n = fn(L);
  now_running(L);
  return n;
}

static int cs_cowrap(lua_State *L) {
  wrapped_function(L)(L);
  /* The library's function holds its coroutine as upvalue 1. */
  lua_CFunction fn = lua_tocfunction(L, -1);
  if (!fn || !lua_getupvalue(L, -1, 1)) return 1;
  hook_coroutine(lua_tothread(L, -1));
  lua_pushlightuserdata(L, (void *)fn);
  lua_pushcclosure(L, cs_cowrapped, 2);
  return 1;
}

/* t[field] = wrapper, whose upvalue 1 is the function t[field] was. */
static void wrap_field(lua_State *L, int tableidx, const char *field, lua_CFunction wrapper) {
  lua_getfield(L, tableidx, field);
  lua_pushcclosure(L, wrapper, 1);
  lua_setfield(L, tableidx, field);
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
  lua_pushcfunction(L, cs_load);
  lua_setfield(L, g, "load");
  stub(L, g, "dofile", "dofile");
  stub(L, g, "loadfile", "loadfile");
  stub(L, g, "collectgarbage", "collectgarbage");
  lua_pushcfunction(L, cs_print);
  lua_setfield(L, g, "print");
  lua_pushcfunction(L, cs_pcall_script);
  lua_setfield(L, g, "pcall");
  lua_pushcfunction(L, cs_xpcall_script);
  lua_setfield(L, g, "xpcall");
  wrap_field(L, g, "setmetatable", cs_setmetatable);
  lua_getfield(L, g, "coroutine");
  int co = lua_gettop(L);
  wrap_field(L, co, "resume", cs_coroutinecall);
  wrap_field(L, co, "close", cs_coroutinecall);
  wrap_field(L, co, "create", cs_cocreate);
  wrap_field(L, co, "wrap", cs_cowrap);
  lua_pop(L, 1);

  /* The same random numbers on every run (frames are a function of the script); a
     script may still call math.randomseed itself. */
  lua_getfield(L, g, "math");
  lua_getfield(L, -1, "randomseed");
  lua_pushinteger(L, 0);
  lua_call(L, 1, 0);
  lua_pop(L, 1);

  /* string.dump would make binary chunks. The functions that may backtrack or build for
     long inside C note their line first (for the watchdog's report). */
  lua_getfield(L, g, "string");
  int str = lua_gettop(L);
  stub(L, str, "dump", "string.dump");
  const char *noted[] = {"find", "match", "gmatch", "gsub", "rep", NULL};
  for (int i = 0; noted[i]; i++) {
    lua_getfield(L, str, noted[i]);
    lua_pushcclosure(L, cs_noted, 1);
    lua_setfield(L, str, noted[i]);
  }
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

/* The message of an error object that is not a string: its __tostring called under the
   call's limits (its time, its memory: it is the script's code), protected, so that a
   __tostring that runs too long or builds too much ends as the limit's report. */
static void describe_error_object(lua_State *L) {
  cs_limits *lim = limits_of(L);
  if (luaL_getmetafield(L, 1, "__tostring") == LUA_TNIL) {
    lua_pushfstring(L, "(error object is a %s value)", luaL_typename(L, 1));
    return;
  }
  lua_pushvalue(L, 1);
  int rc = lua_pcall(L, 1, 1, 0);
  now_running(L);
  if (lim) lim->refusable = 0;  /* from here on the message itself must not fail */
  if (rc == LUA_OK && lua_type(L, -1) == LUA_TSTRING) return;
  if (rc == LUA_ERRMEM && lim && lim->refused) {
    char msg[768];
    lua_pushstring(L, cs_memorymessage(L, 0, msg, sizeof msg));
  } else if (rc != LUA_OK && lim && lim->stopped[0]) {
    lua_pushstring(L, lim->stopped);
  } else if (rc != LUA_OK) {
    lua_pushfstring(L, "(the error object's __tostring failed: %s)", lua_type(L, -1) == LUA_TSTRING ? lua_tostring(L, -1) : "no message");
  } else {
    lua_pushfstring(L, "(error object is a %s value)", luaL_typename(L, 1));
  }
}

int cs_msgh(lua_State *L) {
  cs_limits *lim = limits_of(L);
  if (lua_type(L, 1) != LUA_TSTRING) {
    describe_error_object(L);
  } else if (strcmp(lua_tostring(L, 1), "C stack overflow") == 0) {
    /* Lua places an error only when a Lua function raised it: a C stack overflow inside a C
       function (tostring, gsub, a metamethod) gets the line of the innermost Lua function. */
    char where[512];
    where_lua(L, where, sizeof where);
    if (where[0]) lua_pushfstring(L, "%s C stack overflow", where);
  }
  if (lim) lim->refusable = 0;  /* the message itself must not fail */
  /* A message is one line of a report: a long one is cut (at a UTF-8 character's start). */
  size_t len = 0;
  const char *msg = lua_tolstring(L, -1, &len);
  if (msg && len > CS_MAX_ERROR_MESSAGE) {
    size_t cut = CS_MAX_ERROR_MESSAGE;
    while (cut > 0 && ((unsigned char)msg[cut] & 0xC0) == 0x80) cut--;
    lua_pushlstring(L, msg, cut);
    lua_pushliteral(L, "...");
    lua_concat(L, 2);
  }
  return 1;
}

static void size_text(size_t n, char *buf, size_t bufsize) {
  if (n >= ((size_t)1 << 30) && n % ((size_t)1 << 30) == 0) snprintf(buf, bufsize, "%zu GiB", n >> 30);
  else if (n >= ((size_t)1 << 30)) snprintf(buf, bufsize, "%.1f GiB", (double)n / (double)((size_t)1 << 30));
  else snprintf(buf, bufsize, "%zu MiB", (n + ((size_t)1 << 20) - 1) >> 20);
}

const char *cs_memorymessage(lua_State *L, int level, char *msg, size_t msgsize) {
  cs_limits *lim = limits_of(L);
  char where[512], cap[32];
  if (level > 0) cs_where(L, level, where, sizeof where);
  else snprintf(where, sizeof where, "%s", lim->where);
  size_text(lim->limit, cap, sizeof cap);
  snprintf(msg, msgsize, "%s%sscript needs more memory than the %s allowed%s%s%s",
           where, where[0] ? " " : "", cap, lim->memoryflag[0] ? " (" : "", lim->memoryflag, lim->memoryflag[0] ? ")" : "");
  return msg;
}

/* Chunks named "=chartscene/..." (the built-in compositions) are the host's: a place in one
   is reported as the place of the script code that called into it. */
static int is_builtin(const char *src) { return src && strncmp(src, "=chartscene/", 12) == 0; }

int cs_isbuiltin(lua_State *L, int level) {
  lua_Debug ar;
  if (!lua_getstack(L, level, &ar)) return 0;
  lua_getinfo(L, "S", &ar);
  return is_builtin(ar.source);
}

void cs_where(lua_State *L, int level, char *buf, size_t bufsize) {
  lua_Debug ar;
  buf[0] = 0;
  if (lua_getstack(L, level, &ar)) {
    lua_getinfo(L, "Sl", &ar);
    /* Past the built-in frames and the C functions that called them (cs.list). */
    int skipped = 0;
    while ((is_builtin(ar.source) || (skipped && ar.currentline < 0)) && lua_getstack(L, ++level, &ar)) {
      skipped = 1;
      lua_getinfo(L, "Sl", &ar);
    }
    const char *src = ar.source ? ar.source : "?";
    if (src[0] == '@' || src[0] == '=') src++;
    if (ar.currentline > 0) snprintf(buf, bufsize, "%s:%d:", src, ar.currentline);
  }
}

struct watchdog { double grace; void (*overdue)(const char *); };

/* The whole run's budget: CPU seconds of the process (every thread: the script's calls,
   layout, drawing, encoding), whatever each call took; 0: none. */
static double total_budget;
static char total_report[700];

void cs_settotal(double seconds, const char *report) {
  pthread_mutex_lock(&watch_lock);
  total_budget = seconds;
  snprintf(total_report, sizeof total_report, "%s", report);
  pthread_mutex_unlock(&watch_lock);
}

double cs_cputime(void) {
  struct timespec ts;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void *watchdog_main(void *arg) {
  struct watchdog *w = arg;
  char buf[1024];
  for (;;) {
    usleep(100000);
    if (cs_overdue(w->grace, buf, sizeof buf)) w->overdue(buf);
    pthread_mutex_lock(&watch_lock);
    int spent = total_budget > 0 && cs_cputime() > total_budget;
    if (spent) snprintf(buf, sizeof buf, "%s", total_report);
    pthread_mutex_unlock(&watch_lock);
    if (spent) w->overdue(buf);
  }
  return NULL;
}

int cs_startwatchdog(double grace, void (*overdue)(const char *message)) {
  static struct watchdog w;
  static int started;
  if (__atomic_exchange_n(&started, 1, __ATOMIC_ACQ_REL)) return 0;
  w.grace = grace;
  w.overdue = overdue;
  pthread_t t;
  pthread_attr_t attr;
  if (pthread_attr_init(&attr) != 0) { __atomic_store_n(&started, 0, __ATOMIC_RELEASE); return -1; }
  pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
  /* The default stack size: `overdue` is Swift code (it prints and exits), not a few C calls. */
  int rc = pthread_create(&t, &attr, watchdog_main, &w);
  pthread_attr_destroy(&attr);
  if (rc != 0) { __atomic_store_n(&started, 0, __ATOMIC_RELEASE); return -1; }
  return 0;
}
