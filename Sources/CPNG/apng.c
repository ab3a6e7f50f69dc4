/* Animated PNG (APNG), written frame by frame onto a file: each frame after the first is
   only the rectangle that changed since the frame before (dispose none; blended over it when
   every changed pixel is opaque, else replacing it), its rows unfiltered through zlib. The
   number of frames goes into acTL when the file is closed. */
#include "CPNG.h"
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

/* zlib's level. On cards.lua's 285 frames ("up" rows): 1, 8.6 MB in 1.6 s; 6, 6.9 MB in
   2.4 s; 9, 6.7 MB in 8.1 s. */
#define CS_APNG_LEVEL 6

struct cs_apng {
  int fd;
  int width, height;
  unsigned frames, seq;
  unsigned delay_num, delay_den;
  off_t actl; /* where acTL's data begins */
  unsigned char *prev; /* the last frame's pixels, width * 4 bytes a row */
};

static void put32(unsigned char *b, uint32_t v) { b[0] = (unsigned char)(v >> 24); b[1] = (unsigned char)(v >> 16); b[2] = (unsigned char)(v >> 8); b[3] = (unsigned char)v; }
static void put16(unsigned char *b, unsigned v) { b[0] = (unsigned char)(v >> 8); b[1] = (unsigned char)v; }

static int write_all(int fd, const unsigned char *p, size_t n) {
  while (n > 0) {
    ssize_t w = write(fd, p, n);
    if (w < 0) { if (errno == EINTR) continue; return errno; }
    p += w;
    n -= (size_t)w;
  }
  return 0;
}

/* A chunk whose data is `a` then `b` (either may be empty). */
static int chunk(int fd, const char *type, const unsigned char *a, size_t na, const unsigned char *b, size_t nb) {
  unsigned char head[8], tail[4];
  put32(head, (uint32_t)(na + nb));
  memcpy(head + 4, type, 4);
  uLong crc = crc32(0L, Z_NULL, 0);
  crc = crc32(crc, head + 4, 4);
  if (na) crc = crc32(crc, a, (uInt)na);
  /* A chunk's data is at most 2^31 - 1 bytes (a frame's is far less: checked by the caller). */
  if (nb) crc = crc32_z(crc, b, nb);
  put32(tail, (uint32_t)crc);
  int e = write_all(fd, head, 8);
  if (!e && na) e = write_all(fd, a, na);
  if (!e && nb) e = write_all(fd, b, nb);
  if (!e) e = write_all(fd, tail, 4);
  return e;
}

cs_apng *cs_apng_open(int fd, int width, int height, unsigned delay_num, unsigned delay_den, int *err) {
  *err = 0;
  if (width < 1 || height < 1 || delay_den == 0 || delay_num > 65535 || delay_den > 65535) { *err = EINVAL; return NULL; }
  cs_apng *a = calloc(1, sizeof *a);
  unsigned char *prev = malloc((size_t)width * 4 * (size_t)height);
  if (!a || !prev) { free(a); free(prev); *err = ENOMEM; return NULL; }
  a->fd = fd; a->width = width; a->height = height; a->prev = prev;
  a->delay_num = delay_num; a->delay_den = delay_den;
  static const unsigned char sig[8] = {137, 80, 78, 71, 13, 10, 26, 10};
  unsigned char ihdr[13], actl[8];
  put32(ihdr, (uint32_t)width); put32(ihdr + 4, (uint32_t)height);
  ihdr[8] = 8; ihdr[9] = 6; ihdr[10] = 0; ihdr[11] = 0; ihdr[12] = 0; /* 8-bit RGBA */
  put32(actl, 0); put32(actl + 4, 0); /* frames (set at the end), plays: 0 = for ever */
  int e = write_all(fd, sig, 8);
  if (!e) e = chunk(fd, "IHDR", ihdr, 13, NULL, 0);
  a->actl = 8 + 12 + 13 + 8;
  if (!e) e = chunk(fd, "acTL", actl, 8, NULL, 0);
  if (e) { cs_apng_free(a); *err = e; return NULL; }
  return a;
}

int cs_apng_frame(cs_apng *a, const unsigned char *pixels, long stride) {
  const int w = a->width, h = a->height;
  const size_t row = (size_t)w * 4;
  int x0 = 0, y0 = 0, x1 = w - 1, y1 = h - 1;
  if (a->frames > 0) {
    /* The rows that changed, then the columns within them. */
    y0 = 0;
    while (y0 < h && memcmp(pixels + (size_t)y0 * (size_t)stride, a->prev + (size_t)y0 * row, row) == 0) y0++;
    if (y0 == h) {
      x0 = y0 = x1 = y1 = 0; /* nothing changed: one pixel, as it was */
    } else {
      y1 = h - 1;
      while (y1 > y0 && memcmp(pixels + (size_t)y1 * (size_t)stride, a->prev + (size_t)y1 * row, row) == 0) y1--;
      x0 = w; x1 = -1;
      for (int y = y0; y <= y1; y++) {
        const uint32_t *p = (const uint32_t *)(const void *)(pixels + (size_t)y * (size_t)stride);
        const uint32_t *q = (const uint32_t *)(const void *)(a->prev + (size_t)y * row);
        int l = 0, r = w - 1;
        while (l < x0 && p[l] == q[l]) l++;
        while (r > x1 && p[r] == q[r]) r--;
        if (l < x0) x0 = l;
        if (r > x1) x1 = r;
      }
      if (x1 < x0) { x0 = x1 = 0; }
    }
  }
  const int rw = x1 - x0 + 1, rh = y1 - y0 + 1;
  /* Blend "over" (as ffmpeg's encoder does) when every pixel that changed is opaque: the
     rectangle's unchanged pixels are then sent transparent, which costs next to nothing, and
     the changed ones replace what was there. Otherwise "source": the rectangle as it is. */
  int over = a->frames > 0;
  for (int y = y0; y <= y1 && over; y++) {
    const uint32_t *p = (const uint32_t *)(const void *)(pixels + (size_t)y * (size_t)stride);
    const uint32_t *q = (const uint32_t *)(const void *)(a->prev + (size_t)y * row);
    for (int x = x0; x <= x1; x++) {
      if (p[x] != q[x] && (p[x] >> 24) != 255) { over = 0; break; }
    }
  }
  unsigned char fctl[26];
  put32(fctl, a->seq++);
  put32(fctl + 4, (uint32_t)rw); put32(fctl + 8, (uint32_t)rh);
  put32(fctl + 12, (uint32_t)x0); put32(fctl + 16, (uint32_t)y0);
  put16(fctl + 20, a->delay_num); put16(fctl + 22, a->delay_den);
  fctl[24] = 0; fctl[25] = over ? 1 : 0; /* dispose none; blend over or source */
  int e = chunk(a->fd, "fcTL", fctl, 26, NULL, 0);
  if (e) return e;
  /* The rectangle's rows, straight RGBA, unfiltered (filter None, as ffmpeg's encoder
     writes them), through zlib. On cards.lua: 6.2 MB (ffmpeg's APNG 5.9 MB, in 11.8 s
     against 2.3 s); "up" rows 6.8 MB, libpng's choice of filter per row 6.8 MB in 1.7 times
     the time, png.c's run-length deflate 22 MB. */
  const size_t rb = (size_t)rw * 4;
  unsigned char *line = malloc(rb + 1);
  uint32_t *masked = malloc((size_t)rw * 4);
  size_t cap = deflateBound(NULL, (uLong)((rb + 1) * (size_t)rh)) + 64;
  if (cap > 0x7FFFFFF0u) return EFBIG; /* a chunk holds at most 2^31 - 1 bytes */
  unsigned char *body = malloc(cap);
  z_stream z;
  memset(&z, 0, sizeof z);
  if (!line || !masked || !body || deflateInit(&z, CS_APNG_LEVEL) != Z_OK) {
    free(line); free(masked); free(body);
    return ENOMEM;
  }
  z.next_out = body;
  z.avail_out = (uInt)cap;
  for (int y = 0; y < rh && !e; y++) {
    const uint32_t *src = (const uint32_t *)(const void *)(pixels + (size_t)(y0 + y) * (size_t)stride) + x0;
    if (over) {
      const uint32_t *q = (const uint32_t *)(const void *)(a->prev + (size_t)(y0 + y) * row) + x0;
      for (int x = 0; x < rw; x++) masked[x] = src[x] == q[x] ? 0 : src[x];
      src = masked;
    }
    line[0] = 0;
    cs_png_convert_row(src, line + 1, rw, 4);
    z.next_in = line;
    z.avail_in = (uInt)(rb + 1);
    int rc = deflate(&z, y == rh - 1 ? Z_FINISH : Z_NO_FLUSH);
    if (rc == Z_STREAM_ERROR || (y == rh - 1 && rc != Z_STREAM_END)) e = EIO;
  }
  size_t n = cap - z.avail_out;
  deflateEnd(&z);
  free(line); free(masked);
  if (!e) {
    unsigned char head[4];
    if (a->frames > 0) {
      put32(head, a->seq++);
      e = chunk(a->fd, "fdAT", head, 4, body, n);
    } else {
      e = chunk(a->fd, "IDAT", NULL, 0, body, n);
    }
  }
  free(body);
  for (int y = y0; y <= y1; y++) memcpy(a->prev + (size_t)y * row, pixels + (size_t)y * (size_t)stride, row);
  if (!e) a->frames++;
  return e;
}

int cs_apng_finish(cs_apng *a) {
  if (a->frames == 0) return EINVAL;
  int e = chunk(a->fd, "IEND", NULL, 0, NULL, 0);
  if (e) return e;
  /* acTL's frame count, and its CRC again. */
  unsigned char actl[12];
  memcpy(actl, "acTL", 4);
  put32(actl + 4, a->frames); put32(actl + 8, 0);
  unsigned char crc[4];
  put32(crc, (uint32_t)crc32(crc32(0L, Z_NULL, 0), actl, 12));
  if (pwrite(a->fd, actl + 4, 8, a->actl) != 8) return errno ? errno : EIO;
  if (pwrite(a->fd, crc, 4, a->actl + 8) != 4) return errno ? errno : EIO;
  return 0;
}

void cs_apng_free(cs_apng *a) {
  if (!a) return;
  free(a->prev);
  free(a);
}
