#define _GNU_SOURCE
#include "CFrames.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if defined(__has_include)
#if __has_include(<x264.h>)
#define CFRAMES_HAS_X264 1
#endif
#endif

#ifdef CFRAMES_HAS_X264
#include <dlfcn.h>
#include <pthread.h>
#include <x264.h>

#define CFRAMES_STR2(x) #x
#define CFRAMES_STR(x) CFRAMES_STR2(x)

/// libx264, loaded once at the first encoder: the library ffmpeg itself encodes with (the
/// Debian package `ffmpeg` depends on it), of the version this was built against.
static struct {
  int state; /* 0 not tried, 1 loaded, -1 failed */
  char why[256];
  int (*default_preset)(x264_param_t *, const char *, const char *);
  int (*parse)(x264_param_t *, const char *, const char *);
  void (*picture_init)(x264_picture_t *);
  x264_t *(*open)(x264_param_t *);
  int (*encode)(x264_t *, x264_nal_t **, int *, x264_picture_t *, x264_picture_t *);
  int (*delayed)(x264_t *);
  void (*close)(x264_t *);
} lib;

static void loadOnce(void) {
  const char *name = "libx264.so." CFRAMES_STR(X264_BUILD);
  void *h = dlopen(name, RTLD_NOW | RTLD_LOCAL);
  if (!h) {
    snprintf(lib.why, sizeof lib.why, "cannot load %s", name);
    lib.state = -1;
    return;
  }
  lib.default_preset = (int (*)(x264_param_t *, const char *, const char *))dlsym(h, "x264_param_default_preset");
  lib.parse = (int (*)(x264_param_t *, const char *, const char *))dlsym(h, "x264_param_parse");
  lib.picture_init = (void (*)(x264_picture_t *))dlsym(h, "x264_picture_init");
  lib.open = (x264_t * (*)(x264_param_t *)) dlsym(h, "x264_encoder_open_" CFRAMES_STR(X264_BUILD));
  lib.encode = (int (*)(x264_t *, x264_nal_t **, int *, x264_picture_t *, x264_picture_t *))dlsym(h, "x264_encoder_encode");
  lib.delayed = (int (*)(x264_t *))dlsym(h, "x264_encoder_delayed_frames");
  lib.close = (void (*)(x264_t *))dlsym(h, "x264_encoder_close");
  if (!lib.default_preset || !lib.parse || !lib.picture_init || !lib.open || !lib.encode || !lib.delayed || !lib.close) {
    snprintf(lib.why, sizeof lib.why, "%s lacks a function this build calls", name);
    dlclose(h);
    lib.state = -1;
    return;
  }
  lib.state = 1;
}

/// 1 when libx264 is loaded, -1 when it cannot be; tried once, whichever thread asks first
/// (`chartscene batch` renders several videos at once).
static int load(void) {
  static pthread_once_t once = PTHREAD_ONCE_INIT;
  pthread_once(&once, loadOnce);
  return lib.state;
}

struct cframes_h264 {
  x264_t *x;
  int width, height;
  int64_t pts;
};

cframes_h264 *cframes_h264_open(int width, int height, int fps, const char *preset, int qp, int threads, const char *options, char *err, unsigned long errsize) {
  if (load() < 0) {
    snprintf(err, errsize, "%s", lib.why);
    return NULL;
  }
  x264_param_t p;
  if (lib.default_preset(&p, preset, NULL) < 0) {
    snprintf(err, errsize, "x264 has no preset '%s'", preset);
    return NULL;
  }
  // As ffmpeg's libx264 wrapper sets them for `-r FPS -pix_fmt yuv420p -qp QP -threads N`.
  p.i_width = width;
  p.i_height = height;
  p.i_csp = X264_CSP_I420;
  p.i_bitdepth = 8;
  p.i_fps_num = (uint32_t)fps;
  p.i_fps_den = 1;
  p.i_timebase_num = 1;
  p.i_timebase_den = (uint32_t)fps;
  p.b_vfr_input = 0;
  p.i_threads = threads;
  p.rc.i_rc_method = X264_RC_CQP;
  p.rc.i_qp_constant = qp;
  p.i_log_level = X264_LOG_NONE;
  // A stream ffmpeg reads as raw H.264: start codes, and the parameter sets before every
  // keyframe (each group of pictures stands alone).
  p.b_annexb = 1;
  p.b_repeat_headers = 1;
  // `key=value` pairs joined by ':' (what ffmpeg's -x264-params takes).
  char *copy = strdup(options ? options : "");
  if (!copy) {
    snprintf(err, errsize, "out of memory");
    return NULL;
  }
  char *save = NULL;
  for (char *pair = strtok_r(copy, ":", &save); pair; pair = strtok_r(NULL, ":", &save)) {
    char *eq = strchr(pair, '=');
    if (eq) *eq = 0;
    if (lib.parse(&p, pair, eq ? eq + 1 : NULL) != 0) {
      snprintf(err, errsize, "x264 refuses the option '%s'", pair);
      free(copy);
      return NULL;
    }
  }
  free(copy);
  x264_t *x = lib.open(&p);
  if (!x) {
    snprintf(err, errsize, "x264 refuses to encode %dx%d at %d fps", width, height, fps);
    return NULL;
  }
  cframes_h264 *e = calloc(1, sizeof *e);
  if (!e) {
    lib.close(x);
    snprintf(err, errsize, "out of memory");
    return NULL;
  }
  e->x = x;
  e->width = width;
  e->height = height;
  return e;
}

int cframes_h264_encode(cframes_h264 *e, const uint8_t *frame, const uint8_t **out, long *size) {
  x264_nal_t *nal = NULL;
  int count = 0;
  x264_picture_t in, got;
  *out = NULL;
  *size = 0;
  int n;
  if (frame) {
    lib.picture_init(&in);
    in.img.i_csp = X264_CSP_I420;
    in.img.i_plane = 3;
    long ySize = (long)e->width * e->height, cSize = ySize / 4;
    in.img.plane[0] = (uint8_t *)frame;
    in.img.plane[1] = (uint8_t *)frame + ySize;
    in.img.plane[2] = (uint8_t *)frame + ySize + cSize;
    in.img.i_stride[0] = e->width;
    in.img.i_stride[1] = in.img.i_stride[2] = e->width / 2;
    in.i_pts = e->pts++;
    n = lib.encode(e->x, &nal, &count, &in, &got);
  } else {
    n = lib.delayed(e->x) > 0 ? lib.encode(e->x, &nal, &count, NULL, &got) : 0;
  }
  if (n < 0) return -1;
  // x264 lays a frame's NAL units out one after another in one buffer.
  if (n > 0 && count > 0) {
    *out = nal[0].p_payload;
    *size = n;
  }
  return 0;
}

int cframes_h264_delayed(cframes_h264 *e) { return lib.delayed(e->x); }

void cframes_h264_close(cframes_h264 *e) {
  if (!e) return;
  lib.close(e->x);
  free(e);
}

#else

struct cframes_h264 {
  int unused;
};

cframes_h264 *cframes_h264_open(int width, int height, int fps, const char *preset, int qp, int threads, const char *options, char *err, unsigned long errsize) {
  (void)width; (void)height; (void)fps; (void)preset; (void)qp; (void)threads; (void)options;
  snprintf(err, errsize, "built without x264.h");
  return NULL;
}
int cframes_h264_encode(cframes_h264 *e, const uint8_t *frame, const uint8_t **out, long *size) {
  (void)e; (void)frame; *out = NULL; *size = 0;
  return -1;
}
int cframes_h264_delayed(cframes_h264 *e) { (void)e; return 0; }
void cframes_h264_close(cframes_h264 *e) { (void)e; }

#endif
