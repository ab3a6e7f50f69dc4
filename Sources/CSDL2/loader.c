#include "CSDL2.h"
#include "/usr/include/SDL2/SDL_syswm.h"
#include <dlfcn.h>
#include <stdio.h>

#define CS_SDL_POINTER(ret, name, params, args) static ret (*p_##name) params;
CS_SDL_FUNCTIONS(CS_SDL_POINTER)
#undef CS_SDL_POINTER

static void *library;

int cs_sdl_load(char *err, unsigned long errsize) {
  if (library) return 0;
  void *lib = dlopen("libSDL2-2.0.so.0", RTLD_NOW | RTLD_LOCAL);
  if (!lib) {
    snprintf(err, errsize, "cannot load SDL2 (%s): install SDL2 (Debian: apt-get install libsdl2-2.0-0; a source checkout: scripts/install-deps)", dlerror());
    return -1;
  }
#define CS_SDL_RESOLVE(ret, name, params, args) \
  p_##name = (ret (*) params)dlsym(lib, #name); \
  if (!p_##name) { snprintf(err, errsize, "SDL2 has no %s", #name); dlclose(lib); return -1; }
  CS_SDL_FUNCTIONS(CS_SDL_RESOLVE)
#undef CS_SDL_RESOLVE
  library = lib;
  return 0;
}

#define CS_SDL_WRAP(ret, name, params, args) ret cs_##name params { return p_##name args; }
CS_SDL_FUNCTIONS(CS_SDL_WRAP)
#undef CS_SDL_WRAP

double cs_sdl_x11_pointer_time(const SDL_Event *event) {
#if defined(SDL_VIDEO_DRIVER_X11)
  if (event->type != SDL_SYSWMEVENT || !event->syswm.msg || event->syswm.msg->subsystem != SDL_SYSWM_X11) return -1;
  const XEvent *x = &event->syswm.msg->msg.x11.event;
  switch (x->type) {
  case MotionNotify: return (double)x->xmotion.time;
  case ButtonPress:
  case ButtonRelease: return (double)x->xbutton.time;
  default: return -1;
  }
#else
  (void)event;
  return -1;
#endif
}
