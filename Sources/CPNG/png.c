#include "CPNG.h"
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

typedef struct {
  const unsigned char *pixels;
  int width, stride, row0, row1, channels, level;
  int last;           /* this stripe ends the zlib stream */
  unsigned char *out; /* compressed bytes */
  size_t outsize;
  uLong adler;        /* adler32 of the filtered bytes of this stripe */
  size_t rawsize;
  int error;
} stripe;

/* Converts one row of premultiplied native ARGB32 to straight RGB(A). */
static void convert_row(const uint32_t *src, unsigned char *dst, int width, int channels) {
  for (int x = 0; x < width; x++) {
    uint32_t p = src[x];
    unsigned a = p >> 24, r = (p >> 16) & 255, g = (p >> 8) & 255, b = p & 255;
    if (a != 255 && a != 0) {
      r = (r * 255 + a / 2) / a;
      g = (g * 255 + a / 2) / a;
      b = (b * 255 + a / 2) / a;
    }
    dst[0] = (unsigned char)r; dst[1] = (unsigned char)g; dst[2] = (unsigned char)b;
    if (channels == 4) dst[3] = (unsigned char)a;
    dst += channels;
  }
}

static void *encode_stripe(void *arg) {
  stripe *s = (stripe *)arg;
  int rowbytes = s->width * s->channels;
  int rows = s->row1 - s->row0;
  size_t raw = (size_t)rows * (rowbytes + 1);
  unsigned char *filtered = malloc(raw);
  unsigned char *cur = malloc(rowbytes), *prev = calloc(1, rowbytes);
  if (!filtered || !cur || !prev) { s->error = 1; free(filtered); free(cur); free(prev); return NULL; }
  if (s->row0 > 0) convert_row((const uint32_t *)(s->pixels + (size_t)(s->row0 - 1) * s->stride), prev, s->width, s->channels);
  unsigned char *f = filtered;
  for (int y = s->row0; y < s->row1; y++) {
    convert_row((const uint32_t *)(s->pixels + (size_t)y * s->stride), cur, s->width, s->channels);
    /* "Up" filter: flat backgrounds and repeated rows become runs of zeros. */
    *f++ = 2;
    for (int i = 0; i < rowbytes; i++) f[i] = (unsigned char)(cur[i] - prev[i]);
    f += rowbytes;
    unsigned char *t = prev; prev = cur; cur = t;
  }
  free(cur); free(prev);
  s->rawsize = raw;
  s->adler = adler32(adler32(0L, Z_NULL, 0), filtered, (uInt)raw);

  z_stream z; memset(&z, 0, sizeof z);
  if (deflateInit2(&z, s->level, Z_DEFLATED, -15, 9, Z_RLE) != Z_OK) { s->error = 1; free(filtered); return NULL; }
  size_t cap = deflateBound(&z, raw) + 64;
  s->out = malloc(cap);
  if (!s->out) { s->error = 1; deflateEnd(&z); free(filtered); return NULL; }
  z.next_in = filtered; z.avail_in = (uInt)raw;
  z.next_out = s->out; z.avail_out = (uInt)cap;
  int rc = deflate(&z, s->last ? Z_FINISH : Z_SYNC_FLUSH);
  if ((s->last && rc != Z_STREAM_END) || (!s->last && rc != Z_OK)) s->error = 1;
  s->outsize = cap - z.avail_out;
  deflateEnd(&z);
  free(filtered);
  return NULL;
}

static void put32(unsigned char *p, uint32_t v) { p[0] = v >> 24; p[1] = v >> 16; p[2] = v >> 8; p[3] = v; }

static int append(cs_png_buffer *b, size_t *cap, const void *data, size_t n) {
  if (b->size + n > *cap) {
    size_t nc = (*cap * 2 > b->size + n) ? *cap * 2 : b->size + n + 1024;
    unsigned char *d = realloc(b->data, nc);
    if (!d) return -1;
    b->data = d; *cap = nc;
  }
  memcpy(b->data + b->size, data, n);
  b->size += n;
  return 0;
}

static int chunk(cs_png_buffer *b, size_t *cap, const char *type, const unsigned char *data, size_t n) {
  unsigned char hdr[8]; put32(hdr, (uint32_t)n); memcpy(hdr + 4, type, 4);
  uLong crc = crc32(0L, (const Bytef *)type, 4);
  if (n) crc = crc32(crc, data, (uInt)n);
  unsigned char tail[4]; put32(tail, (uint32_t)crc);
  if (append(b, cap, hdr, 8) || (n && append(b, cap, data, n)) || append(b, cap, tail, 4)) return -1;
  return 0;
}

int cs_png_encode(const unsigned char *pixels, int width, int height, int stride, int level,
                  int threads, cs_png_buffer *out) {
  out->data = NULL; out->size = 0;
  if (width <= 0 || height <= 0) return -1;
  int channels = 3;
  for (int y = 0; y < height && channels == 3; y++) {
    const uint32_t *row = (const uint32_t *)(pixels + (size_t)y * stride);
    for (int x = 0; x < width; x++) if ((row[x] >> 24) != 255) { channels = 4; break; }
  }
  if (threads < 1) threads = 1;
  if (threads > height) threads = height;
  if (threads > 16) threads = 16;
  stripe st[16]; pthread_t tid[16];
  for (int i = 0; i < threads; i++) {
    memset(&st[i], 0, sizeof st[i]);
    st[i].pixels = pixels; st[i].width = width; st[i].stride = stride;
    st[i].row0 = (int)((long)height * i / threads); st[i].row1 = (int)((long)height * (i + 1) / threads);
    st[i].channels = channels; st[i].level = level; st[i].last = (i == threads - 1);
  }
  int started[16] = {0};
  for (int i = 1; i < threads; i++) started[i] = pthread_create(&tid[i], NULL, encode_stripe, &st[i]) == 0;
  encode_stripe(&st[0]);
  for (int i = 1; i < threads; i++) { if (started[i]) pthread_join(tid[i], NULL); else encode_stripe(&st[i]); }

  int err = 0;
  uLong adler = adler32(0L, Z_NULL, 0);
  size_t total = 2 + 4;
  for (int i = 0; i < threads; i++) {
    err |= st[i].error;
    adler = adler32_combine(adler, st[i].adler, (z_off_t)st[i].rawsize);
    total += st[i].outsize;
  }
  cs_png_buffer b = {NULL, 0}; size_t cap = total + 128;
  b.data = malloc(cap);
  unsigned char *idat = malloc(total);
  if (err || !b.data || !idat) { for (int i = 0; i < threads; i++) free(st[i].out); free(b.data); free(idat); return -1; }
  size_t p = 0;
  idat[p++] = 0x78; idat[p++] = 0x01; /* zlib header: deflate, 32K window, fastest (FCHECK ok) */
  for (int i = 0; i < threads; i++) { memcpy(idat + p, st[i].out, st[i].outsize); p += st[i].outsize; free(st[i].out); }
  put32(idat + p, (uint32_t)adler); p += 4;

  static const unsigned char sig[8] = {137, 80, 78, 71, 13, 10, 26, 10};
  unsigned char ihdr[13];
  put32(ihdr, (uint32_t)width); put32(ihdr + 4, (uint32_t)height);
  ihdr[8] = 8; ihdr[9] = channels == 4 ? 6 : 2; ihdr[10] = 0; ihdr[11] = 0; ihdr[12] = 0;
  int rc = append(&b, &cap, sig, 8) || chunk(&b, &cap, "IHDR", ihdr, 13) ||
           chunk(&b, &cap, "IDAT", idat, p) || chunk(&b, &cap, "IEND", NULL, 0);
  free(idat);
  if (rc) { free(b.data); return -1; }
  *out = b;
  return 0;
}

void cs_png_free(cs_png_buffer *buf) { free(buf->data); buf->data = NULL; buf->size = 0; }
