// SDL2 for the live window, loaded with dlopen on first use: a still or a video never loads
// SDL2 (and with it X11, Wayland, PulseAudio, D-Bus), which would add ~3 ms to every start.
// The types come from SDL's headers; the functions are pointers resolved by cs_sdl_load.
#ifndef CSDL2_H
#define CSDL2_H
#define SDL_MAIN_HANDLED 1
#include "/usr/include/SDL2/SDL.h"

/// Loads libSDL2 and resolves the functions below. Returns 0, or -1 with a message in err.
int cs_sdl_load(char *err, unsigned long errsize);

#define CS_SDL_FUNCTIONS(X) \
  X(void, SDL_SetMainReady, (void), ()) \
  X(int, SDL_Init, (Uint32 flags), (flags)) \
  X(const char *, SDL_GetError, (void), ()) \
  X(SDL_Window *, SDL_CreateWindow, (const char *title, int x, int y, int w, int h, Uint32 flags), (title, x, y, w, h, flags)) \
  X(void, SDL_Quit, (void), ()) \
  X(SDL_Renderer *, SDL_CreateRenderer, (SDL_Window *window, int index, Uint32 flags), (window, index, flags)) \
  X(void, SDL_DestroyWindow, (SDL_Window *window), (window)) \
  X(void, SDL_DestroyTexture, (SDL_Texture *texture), (texture)) \
  X(void, SDL_DestroyRenderer, (SDL_Renderer *renderer), (renderer)) \
  X(void, SDL_GetWindowSize, (SDL_Window *window, int *w, int *h), (window, w, h)) \
  X(int, SDL_GetRendererOutputSize, (SDL_Renderer *renderer, int *w, int *h), (renderer, w, h)) \
  X(SDL_Texture *, SDL_CreateTexture, (SDL_Renderer *renderer, Uint32 format, int access, int w, int h), (renderer, format, access, w, h)) \
  X(int, SDL_UpdateTexture, (SDL_Texture *texture, const SDL_Rect *rect, const void *pixels, int pitch), (texture, rect, pixels, pitch)) \
  X(int, SDL_RenderClear, (SDL_Renderer *renderer), (renderer)) \
  X(int, SDL_RenderCopy, (SDL_Renderer *renderer, SDL_Texture *texture, const SDL_Rect *src, const SDL_Rect *dst), (renderer, texture, src, dst)) \
  X(void, SDL_RenderPresent, (SDL_Renderer *renderer), (renderer)) \
  X(int, SDL_WaitEventTimeout, (SDL_Event *event, int timeout), (event, timeout)) \
  X(int, SDL_PollEvent, (SDL_Event *event), (event)) \
  X(Uint32, SDL_GetMouseState, (int *x, int *y), (x, y)) \
  X(Uint8, SDL_EventState, (Uint32 type, int state), (type, state))

/// The X server's time (ms) of the X event an SDL_SYSWMEVENT carries when that is a pointer
/// motion or a button press or release (the time the hand made it, where SDL2 stamps its own
/// events when it reads them, a burst at once); -1 for any other event.
double cs_sdl_x11_pointer_time(const SDL_Event *event);

#define CS_SDL_DECLARE(ret, name, params, args) ret cs_##name params;
CS_SDL_FUNCTIONS(CS_SDL_DECLARE)
#undef CS_SDL_DECLARE
#endif
