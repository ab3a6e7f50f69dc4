/* Animated GIF in this process (see CFrames.h): frames kept compactly on a file as they
   come, with a histogram of every frame's colours; at the end one palette (median cut),
   error-diffusion dithering (Sierra Lite, ffmpeg's sierra2_4a), the rectangle that changed
   since the frame before, LZW. */
#define _GNU_SOURCE
#include "CFrames.h"
#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

_Static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__, "gif.c assumes a little-endian machine");

/* ---- The histogram: 5 bits a channel, with the exact sums of the colours in each cell
   (a palette colour is the true mean of its pixels, not a cell's centre) and the cell's
   most frequent exact colour, found as runs of pixels come (a weighted majority vote:
   `cand` wins over the others by `lead` pixels; `exact` counts its own pixels since it
   became the candidate, a lower bound of its count). ---- */
#define HB 5
#define HCELLS (1 << (3 * HB))
typedef struct {
  uint64_t n, r, g, b;
  uint64_t lead, exact;
  uint32_t cand;
} cell;

/* Every exact colour with its count, while there are at most EXACT_MAX of them (charts
   have a few thousand: anti-aliased edges, shadows); past that, the cells above. */
#define EXACT_BITS 18
#define EXACT_MAX (1 << (EXACT_BITS - 1))
typedef struct { uint32_t key; uint32_t pad; uint64_t n; } exact_entry; /* key: colour + 1 */

struct cframes_gif {
  int width, height;
  int fd;              /* the frame store */
  long frames;
  int failed;          /* an errno once writing the store failed */
  uint32_t *last;      /* the frame before, as stored (0x00RRGGBB) */
  uint32_t *next;      /* room for the next */
  uint8_t *rec;        /* one frame's record */
  size_t reccap;
  cell *hist;
  exact_entry *exact;  /* NULL once there were too many colours */
  long colours;
};

static inline void count_exact(cframes_gif *g, uint32_t c, uint64_t n) {
  uint32_t s = (c * 2654435761u) >> (32 - EXACT_BITS);
  exact_entry *t = g->exact;
  while (t[s].key && t[s].key != c + 1) s = (s + 1) & ((1 << EXACT_BITS) - 1);
  if (!t[s].key) {
    if (++g->colours > EXACT_MAX) { free(g->exact); g->exact = NULL; return; }
    t[s].key = c + 1;
  }
  t[s].n += n;
}

static inline void count(cell *h, uint32_t c, uint64_t n) {
  cell *e = &h[((c >> (24 - HB)) & ((1 << HB) - 1)) << (2 * HB) | ((c >> (16 - HB)) & ((1 << HB) - 1)) << HB | ((c >> (8 - HB)) & ((1 << HB) - 1))];
  e->n += n;
  e->r += (uint64_t)(c >> 16 & 255) * n;
  e->g += (uint64_t)(c >> 8 & 255) * n;
  e->b += (uint64_t)(c & 255) * n;
  if (e->cand == c) { e->lead += n; e->exact += n; }
  else if (e->lead >= n) e->lead -= n;
  else { e->cand = c; e->lead = n - e->lead; e->exact = n; }
}

static int write_all(int fd, const void *p, size_t n) {
  const uint8_t *b = p;
  while (n > 0) {
    ssize_t w = write(fd, b, n);
    if (w < 0) { if (errno == EINTR) continue; return errno; }
    if (w == 0) return EIO;
    b += w; n -= (size_t)w;
  }
  return 0;
}

static int read_all(int fd, void *p, size_t n) {
  uint8_t *b = p;
  while (n > 0) {
    ssize_t r = read(fd, b, n);
    if (r < 0) { if (errno == EINTR) continue; return errno; }
    if (r == 0) return EIO; /* the store is shorter than what was written to it */
    b += r; n -= (size_t)r;
  }
  return 0;
}

cframes_gif *cframes_gif_open(int width, int height, int store) {
  if (width <= 0 || height <= 0 || width > 65535 || height > 65535) return NULL;
  if ((uint64_t)width * height > (UINT32_MAX - 64) / 5) return NULL; /* a frame's record fits its 4-byte length */
  cframes_gif *g = calloc(1, sizeof *g);
  if (!g) return NULL;
  g->width = width; g->height = height; g->fd = store;
  size_t n = (size_t)width * height;
  g->last = calloc(n, 4);
  g->next = malloc(n * 4);
  g->reccap = n * 5 + 64;
  g->rec = malloc(g->reccap);
  g->hist = calloc(HCELLS, sizeof(cell));
  g->exact = calloc(1 << EXACT_BITS, sizeof(exact_entry));
  if (!g->last || !g->next || !g->rec || !g->hist || !g->exact) { cframes_gif_close(g); return NULL; }
  return g;
}

void cframes_gif_close(cframes_gif *g) {
  if (!g) return;
  free(g->last); free(g->next); free(g->rec); free(g->hist); free(g->exact); free(g);
}

/* ---- The frame store: per frame a 4-byte length, then operations on the frame before,
   pixel after pixel (rows joined): SKIP n (the same pixels as that frame), RUN n c (n
   pixels of colour c), LIT n c… (n pixels as they are); n a LEB128 number, a colour 3
   bytes. Charts are mostly flat colours that stay put: a few percent of BGRA, written
   and read back at the speed of memory. ---- */
enum { OP_SKIP = 0, OP_RUN = 1, OP_LIT = 2 };

static inline uint8_t *put_op(uint8_t *p, int op, size_t n) {
  *p++ = (uint8_t)op;
  while (n >= 128) { *p++ = (uint8_t)(n | 128); n >>= 7; }
  *p++ = (uint8_t)n;
  return p;
}
static inline uint8_t *put_colour(uint8_t *p, uint32_t c) {
  p[0] = (uint8_t)c; p[1] = (uint8_t)(c >> 8); p[2] = (uint8_t)(c >> 16);
  return p + 3;
}

int cframes_gif_add(cframes_gif *g, const uint8_t *bgra, long stride) {
  if (g->failed) return g->failed;
  const int w = g->width, h = g->height;
  const size_t n = (size_t)w * h;
  uint32_t *cur = g->next;
  /* The colours (premultiplied: a transparent pixel shows over black), and the histogram
     counted by runs of one colour. */
  uint32_t run = 0; uint64_t len = 0;
  for (int y = 0; y < h; y++) {
    const uint32_t *src = (const uint32_t *)(bgra + (size_t)y * stride);
    uint32_t *dst = cur + (size_t)y * w;
    for (int x = 0; x < w; x++) {
      uint32_t c = src[x] & 0xFFFFFF;
      dst[x] = c;
      if (c == run) len++;
      else {
        if (len) { count(g->hist, run, len); if (g->exact) count_exact(g, run, len); }
        run = c; len = 1;
      }
    }
  }
  count(g->hist, run, len);
  if (g->exact) count_exact(g, run, len);

  const uint32_t *last = g->last;
  uint8_t *p = g->rec + 4;
  size_t i = 0;
  const int first = g->frames == 0;
  while (i < n) {
    size_t j = i;
    if (!first && cur[i] == last[i]) {
      while (j < n && cur[j] == last[j]) j++;
      p = put_op(p, OP_SKIP, j - i);
    } else if (i + 1 < n && cur[i + 1] == cur[i]) {
      while (j < n && cur[j] == cur[i] && (first || cur[j] != last[j] || j == i)) j++;
      p = put_op(p, OP_RUN, j - i);
      p = put_colour(p, cur[i]);
    } else {
      j = i + 1;
      while (j < n && (first || cur[j] != last[j]) && !(j + 1 < n && cur[j + 1] == cur[j])) j++;
      p = put_op(p, OP_LIT, j - i);
      for (size_t k = i; k < j; k++) p = put_colour(p, cur[k]);
    }
    i = j;
  }
  uint32_t size = (uint32_t)(p - g->rec - 4);
  memcpy(g->rec, &size, 4);
  g->next = g->last;
  g->last = cur;
  g->frames++;
  int e = write_all(g->fd, g->rec, (size_t)(p - g->rec));
  if (e) g->failed = e;
  return e;
}

/* Reads the next frame of the store into `px` (holding the frame before). */
__attribute__((noinline)) static int read_frame(int fd, uint8_t **buf, size_t *cap, uint32_t *px, size_t n) {
  uint32_t size;
  int e = read_all(fd, &size, 4);
  if (e) return e;
  if (size > *cap) {
    uint8_t *b = realloc(*buf, size);
    if (!b) return ENOMEM;
    *buf = b; *cap = size;
  }
  if ((e = read_all(fd, *buf, size))) return e;
  const uint8_t *p = *buf, *end = *buf + size;
  size_t i = 0;
  while (p < end) {
    int op = *p++;
    size_t k = 0; int shift = 0;
    while (p < end && (*p & 128)) { k |= (size_t)(*p++ & 127) << shift; shift += 7; }
    if (p >= end) return EIO;
    k |= (size_t)*p++ << shift;
    if (k > n - i) return EIO;
    if (op == OP_SKIP) { i += k; continue; }
    if (op == OP_RUN) {
      if (end - p < 3) return EIO;
      uint32_t c = p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16;
      p += 3;
      for (size_t j = 0; j < k; j++) px[i + j] = c;
    } else {
      if ((size_t)(end - p) < 3 * k) return EIO;
      for (size_t j = 0; j < k; j++, p += 3) px[i + j] = p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16;
    }
    i += k;
  }
  return i == n ? 0 : EIO;
}

/* ---- The palette: median cut over the histogram's cells, then the box's mean colour, or
   its dominant exact colour when that has at least half the box's pixels (the theme's
   background is then exact: no banding); a few rounds of k-means on the cells refine the
   means. ---- */
typedef struct { double n, r, g, b; uint64_t exact; uint32_t cand; int key; } pcell;
static int by_axis(const void *a, const void *b, void *arg) {
  const pcell *x = a, *y = b;
  const int sort_axis = *(const int *)arg;
  double vx = sort_axis == 0 ? x->r / x->n : sort_axis == 1 ? x->g / x->n : x->b / x->n;
  double vy = sort_axis == 0 ? y->r / y->n : sort_axis == 1 ? y->g / y->n : y->b / y->n;
  if (vx != vy) return vx < vy ? -1 : 1;
  return x->key - y->key;
}

typedef struct { int lo, hi; double score; int axis; } box;

static void measure(const pcell *c, box *b) {
  double n = 0, s[3] = {0}, q[3] = {0};
  for (int i = b->lo; i < b->hi; i++) {
    double m[3] = { c[i].r / c[i].n, c[i].g / c[i].n, c[i].b / c[i].n };
    n += c[i].n;
    for (int a = 0; a < 3; a++) { s[a] += c[i].n * m[a]; q[a] += c[i].n * m[a] * m[a]; }
  }
  double best = -1; b->axis = 0; b->score = 0;
  for (int a = 0; a < 3; a++) {
    double v = q[a] - s[a] * s[a] / n; /* the box's squared error along axis a */
    if (v > best) { best = v; b->axis = a; }
    b->score += v;
  }
  if (b->hi - b->lo < 2) b->score = -1;
}

/* Fills pal (0x00RRGGBB) and returns how many colours it has (1…256). */
__attribute__((noinline)) static int make_palette(const cell *hist, const exact_entry *exact, uint32_t pal[256]) {
  int m = 0;
  if (exact) { for (int i = 0; i < (1 << EXACT_BITS); i++) if (exact[i].key) m++; }
  else for (int i = 0; i < HCELLS; i++) if (hist[i].n) m++;
  if (m == 0) { pal[0] = 0; return 1; }
  pcell *c = malloc(sizeof(pcell) * m);
  if (!c) return -1;
  m = 0;
  if (exact) {
    for (int i = 0; i < (1 << EXACT_BITS); i++) if (exact[i].key) {
      uint32_t k = exact[i].key - 1; double n = (double)exact[i].n;
      c[m++] = (pcell){ n, n * (k >> 16 & 255), n * (k >> 8 & 255), n * (k & 255), exact[i].n, k, (int)k };
    }
  } else {
    for (int i = 0; i < HCELLS; i++) if (hist[i].n) {
      const cell *h = &hist[i];
      c[m++] = (pcell){ (double)h->n, (double)h->r, (double)h->g, (double)h->b, h->exact, h->cand, i };
    }
  }
  box boxes[256];
  int nb = 1;
  boxes[0] = (box){ 0, m, 0, 0 };
  measure(c, &boxes[0]);
  while (nb < 256) {
    int bi = -1;
    for (int i = 0; i < nb; i++) if (boxes[i].score > 0 && (bi < 0 || boxes[i].score > boxes[bi].score)) bi = i;
    if (bi < 0) break;
    box *b = &boxes[bi];
    qsort_r(c + b->lo, (size_t)(b->hi - b->lo), sizeof(pcell), by_axis, &b->axis);
    double total = 0, acc = 0;
    for (int i = b->lo; i < b->hi; i++) total += c[i].n;
    int cut = b->lo + 1;
    for (int i = b->lo; i < b->hi - 1; i++) {
      acc += c[i].n;
      cut = i + 1;
      if (acc >= total / 2) break;
    }
    boxes[nb] = (box){ cut, b->hi, 0, 0 };
    b->hi = cut;
    measure(c, b);
    measure(c, &boxes[nb]);
    nb++;
  }
  /* Each box's colour; a box whose dominant colour holds half its pixels keeps it. */
  double pr[256], pg[256], pb[256];
  int fixed[256];
  for (int k = 0; k < nb; k++) {
    double n = 0, r = 0, g = 0, b = 0; uint64_t top = 0; uint32_t topc = 0;
    for (int i = boxes[k].lo; i < boxes[k].hi; i++) {
      n += c[i].n; r += c[i].r; g += c[i].g; b += c[i].b;
      if (c[i].exact > top) { top = c[i].exact; topc = c[i].cand; }
    }
    fixed[k] = (double)top * 2 >= n;
    if (fixed[k]) { pr[k] = topc >> 16 & 255; pg[k] = topc >> 8 & 255; pb[k] = topc & 255; }
    else { pr[k] = r / n; pg[k] = g / n; pb[k] = b / n; }
  }
  /* k-means on the cells' means: each cell to its nearest colour, each colour (but the
     fixed) to the mean of its cells. */
  for (int round = 0; round < 4; round++) {
    double sn[256] = {0}, sr[256] = {0}, sg[256] = {0}, sb[256] = {0};
    for (int i = 0; i < m; i++) {
      double r = c[i].r / c[i].n, g = c[i].g / c[i].n, b = c[i].b / c[i].n, best = 1e30;
      int bk = 0;
      for (int k = 0; k < nb; k++) {
        double d = (r - pr[k]) * (r - pr[k]) + (g - pg[k]) * (g - pg[k]) + (b - pb[k]) * (b - pb[k]);
        if (d < best) { best = d; bk = k; }
      }
      sn[bk] += c[i].n; sr[bk] += c[i].r; sg[bk] += c[i].g; sb[bk] += c[i].b;
    }
    for (int k = 0; k < nb; k++) if (!fixed[k] && sn[k] > 0) { pr[k] = sr[k] / sn[k]; pg[k] = sg[k] / sn[k]; pb[k] = sb[k] / sn[k]; }
  }
  free(c);
  for (int k = 0; k < nb; k++) {
    uint32_t r = (uint32_t)lround(pr[k]), g = (uint32_t)lround(pg[k]), b = (uint32_t)lround(pb[k]);
    pal[k] = r << 16 | g << 8 | b;
  }
  /* The same colour twice (two boxes that came to one mean) would waste an entry: the
     second is left out. */
  int out = 0;
  for (int k = 0; k < nb; k++) {
    int dup = 0;
    for (int j = 0; j < out; j++) if (pal[j] == pal[k]) { dup = 1; break; }
    if (!dup) pal[out++] = pal[k];
  }
  return out;
}

/* ---- Mapping: the nearest palette colour of any colour, through a direct-mapped cache. ---- */
#define CACHE_BITS 16
typedef struct {
  int n;
  int r[256], g[256], b[256];
  uint32_t key[1 << CACHE_BITS]; /* colour + 1; 0: empty */
  uint8_t index[1 << CACHE_BITS];
} mapper;

static inline int nearest(mapper *m, uint32_t c) {
  uint32_t slot = (c * 2654435761u) >> (32 - CACHE_BITS);
  if (m->key[slot] == c + 1) return m->index[slot];
  int r = c >> 16 & 255, g = c >> 8 & 255, b = c & 255, best = 1 << 30, bi = 0;
  for (int k = 0; k < m->n; k++) {
    int dr = r - m->r[k], dg = g - m->g[k], db = b - m->b[k];
    int d = dr * dr + dg * dg + db * db;
    if (d < best) { best = d; bi = k; }
  }
  m->key[slot] = c + 1;
  m->index[slot] = (uint8_t)bi;
  return bi;
}

static inline int clamp255(int v) { return v < 0 ? 0 : v > 255 ? 255 : v; }

/* One frame to palette indices, Sierra Lite: 2/4 of a pixel's error to the right, 1/4
   below left, 1/4 below. `err` holds 2 rows × (w + 2) × 3, zero; each row's errors are
   cleared as they are taken, so it is zero again at the end, and only the stretch of a row
   that received errors is read. A pixel that receives no error and has the colour of the
   pixel before, itself a palette colour, is that colour (most of a chart). */
__attribute__((noinline)) static void dither(mapper *m, const uint32_t *px, int w, int h, uint8_t *out, int *err) {
  int *cur = err, *nxt = err + (w + 2) * 3;
  int lo = w + 2, hi = -1; /* the slots of `cur` that may be other than zero */
  for (int y = 0; y < h; y++) {
    const uint32_t *row = px + (size_t)y * w;
    uint8_t *o = out + (size_t)y * w;
    int er = 0, eg = 0, eb = 0; /* from the pixel to the left */
    uint32_t same = 0xFFFFFFFF; int samek = 0; /* a palette colour met last with no error */
    int nlo = w + 2, nhi = -1;
    for (int x = 0; x < w; x++) {
      uint32_t c = row[x];
      if (c == same && (er | eg | eb) == 0 && (x + 1 < lo || x + 1 > hi)) {
        /* No error comes to pixels x…end - 1. */
        int end = x + 1 < lo ? lo - 1 : w;
        while (x < end && row[x] == same) o[x++] = (uint8_t)samek;
        x--;
        continue;
      }
      int *e = cur + (x + 1) * 3;
      int ir = e[0] + er, ig = e[1] + eg, ib = e[2] + eb;
      e[0] = e[1] = e[2] = 0;
      if ((ir | ig | ib) == 0 && c == same) { o[x] = (uint8_t)samek; er = eg = eb = 0; continue; }
      int r = (int)(c >> 16 & 255) + ir, g = (int)(c >> 8 & 255) + ig, b = (int)(c & 255) + ib;
      if (ir | ig | ib) {
        r = clamp255(r); g = clamp255(g); b = clamp255(b);
        c = (uint32_t)r << 16 | (uint32_t)g << 8 | (uint32_t)b;
      }
      int k = nearest(m, c);
      o[x] = (uint8_t)k;
      int dr = r - m->r[k], dg = g - m->g[k], db = b - m->b[k];
      if ((dr | dg | db) == 0) {
        er = eg = eb = 0;
        if ((ir | ig | ib) == 0) { same = c; samek = k; }
        continue;
      }
      same = 0xFFFFFFFF;
      er = dr * 2 / 4; eg = dg * 2 / 4; eb = db * 2 / 4;
      int qr = dr / 4, qg = dg / 4, qb = db / 4;
      if (qr | qg | qb) {
        int *d = nxt + x * 3; /* below left, then below */
        d[0] += qr; d[1] += qg; d[2] += qb;
        d[3] += qr; d[4] += qg; d[5] += qb;
        if (x < nlo) nlo = x;
        nhi = x + 1;
      }
    }
    cur[0] = cur[1] = cur[2] = 0; /* below left of the first pixel: dropped */
    int *t = cur; cur = nxt; nxt = t;
    lo = nlo; hi = nhi;
  }
  memset(cur, 0, sizeof(int) * (w + 2) * 3);
}

/* ---- LZW (8-bit codes, up to 12 bits, a clear code when the table is full) into the
   image's data sub-blocks. ---- */
typedef struct {
  uint8_t *out; size_t pos, cap;
  uint32_t acc; int bits;
  uint8_t block[256]; int blen;
} lzw_out;

static int grow(lzw_out *o, size_t more) {
  if (o->pos + more <= o->cap) return 0;
  size_t cap = o->cap ? o->cap : 1 << 16;
  while (cap < o->pos + more) cap *= 2;
  uint8_t *b = realloc(o->out, cap);
  if (!b) return ENOMEM;
  o->out = b; o->cap = cap;
  return 0;
}
static inline int put_byte(lzw_out *o, uint8_t v) {
  o->block[o->blen++] = v;
  if (o->blen == 255) {
    if (grow(o, 256)) return ENOMEM;
    o->out[o->pos++] = 255;
    memcpy(o->out + o->pos, o->block, 255);
    o->pos += 255; o->blen = 0;
  }
  return 0;
}
static inline int put_code(lzw_out *o, int code, int size) {
  o->acc |= (uint32_t)code << o->bits;
  o->bits += size;
  while (o->bits >= 8) {
    if (put_byte(o, (uint8_t)o->acc)) return ENOMEM;
    o->acc >>= 8; o->bits -= 8;
  }
  return 0;
}

#define LZW_HASH 8192
__attribute__((noinline)) static int lzw(lzw_out *o, const uint8_t *idx, int w, int h, int stride) {
  static __thread uint32_t keys[LZW_HASH];
  static __thread uint16_t codes[LZW_HASH];
  memset(keys, 0xFF, sizeof keys);
  const int clear = 256, eoi = 257;
  int size = 9, next = 258, e = 0;
  if (grow(o, 1)) return ENOMEM;
  o->out[o->pos++] = 8; /* minimum code size */
  e |= put_code(o, clear, size);
  int prefix = idx[0];
  for (int y = 0; y < h; y++) {
    const uint8_t *row = idx + (size_t)y * stride;
    for (int x = y == 0 ? 1 : 0; x < w; x++) {
      int k = row[x];
      uint32_t key = (uint32_t)prefix << 8 | (uint32_t)k;
      uint32_t s = (key * 2654435761u) >> 19;
      while (keys[s] != 0xFFFFFFFFu && keys[s] != key) s = (s + 1) & (LZW_HASH - 1);
      if (keys[s] == key) { prefix = codes[s]; continue; }
      e |= put_code(o, prefix, size);
      if (next < 4096) {
        if (next == (1 << size)) size++;
        keys[s] = key; codes[s] = (uint16_t)next++;
      } else {
        e |= put_code(o, clear, size);
        memset(keys, 0xFF, sizeof keys);
        size = 9; next = 258;
      }
      prefix = k;
    }
  }
  e |= put_code(o, prefix, size);
  e |= put_code(o, eoi, size);
  if (o->bits > 0) e |= put_byte(o, (uint8_t)o->acc);
  o->acc = 0; o->bits = 0;
  if (e || grow(o, 258)) return ENOMEM;
  if (o->blen) { o->out[o->pos++] = (uint8_t)o->blen; memcpy(o->out + o->pos, o->block, (size_t)o->blen); o->pos += (size_t)o->blen; o->blen = 0; }
  o->out[o->pos++] = 0; /* the block terminator */
  return 0;
}

static inline void put16(uint8_t *p, int v) { p[0] = (uint8_t)v; p[1] = (uint8_t)(v >> 8); }

/* The second pass on two threads: one reads the frames back and dithers them (into three
   buffers in turn), the caller's finds what changed and compresses it. The bytes do not
   depend on which runs first. */
typedef struct {
  cframes_gif *g;
  mapper *m;
  uint32_t *px;
  int *err;
  uint8_t *buf; size_t cap;
  uint8_t *slot[3];
  long produced, consumed; /* frames dithered; frames the caller is done with */
  int error, stop;
  pthread_mutex_t lock;
  pthread_cond_t cond;
} pipeline;

static int produce_one(pipeline *p, long f) {
  int e = read_frame(p->g->fd, &p->buf, &p->cap, p->px, (size_t)p->g->width * p->g->height);
  if (!e) dither(p->m, p->px, p->g->width, p->g->height, p->slot[f % 3], p->err);
  return e;
}

static void *produce(void *arg) {
  pipeline *p = arg;
  for (long f = 0; f < p->g->frames; f++) {
    pthread_mutex_lock(&p->lock);
    /* The caller uses frame `consumed` and the one before it. */
    while (f >= p->consumed + 2 && !p->stop) pthread_cond_wait(&p->cond, &p->lock);
    int stop = p->stop;
    pthread_mutex_unlock(&p->lock);
    if (stop) break;
    int e = produce_one(p, f);
    pthread_mutex_lock(&p->lock);
    if (e) p->error = e; else p->produced = f + 1;
    pthread_cond_broadcast(&p->cond);
    pthread_mutex_unlock(&p->lock);
    if (e) break;
  }
  return NULL;
}

int cframes_gif_finish(cframes_gif *g, int out, double fps) {
  if (g->failed) return g->failed;
  if (g->frames == 0) return EINVAL;
  if (lseek(g->fd, 0, SEEK_SET) < 0) return errno;
  const int w = g->width, h = g->height;
  const size_t n = (size_t)w * h;
  uint32_t pal[256] = {0};
  int colours = make_palette(g->hist, g->exact, pal);
  if (colours < 0) return ENOMEM;
  pipeline p = { .g = g };
  pthread_mutex_init(&p.lock, NULL);
  pthread_cond_init(&p.cond, NULL);
  int threaded = 0;
  p.m = calloc(1, sizeof *p.m);
  p.px = calloc(n, 4);
  p.err = calloc((size_t)(w + 2) * 6, sizeof(int));
  for (int i = 0; i < 3; i++) p.slot[i] = malloc(n);
  uint8_t *frame = malloc(n);
  lzw_out o = {0};
  int e = 0;
  pthread_t thread;
  if (!p.m || !p.px || !p.err || !p.slot[0] || !p.slot[1] || !p.slot[2] || !frame) { e = ENOMEM; goto done; }
  p.m->n = colours;
  for (int k = 0; k < colours; k++) { p.m->r[k] = pal[k] >> 16 & 255; p.m->g[k] = pal[k] >> 8 & 255; p.m->b[k] = pal[k] & 255; }
  /* Without a second thread, the frames are dithered here in turn. */
  threaded = g->frames > 1 && pthread_create(&thread, NULL, produce, &p) == 0;

  /* Header, the global colour table (256 entries), loop forever. */
  if ((e = grow(&o, 13 + 768 + 19))) goto done;
  memcpy(o.out, "GIF89a", 6);
  put16(o.out + 6, w); put16(o.out + 8, h);
  o.out[10] = 0xF7; o.out[11] = 0; o.out[12] = 0;
  o.pos = 13;
  for (int k = 0; k < 256; k++) {
    o.out[o.pos++] = (uint8_t)(pal[k] >> 16); o.out[o.pos++] = (uint8_t)(pal[k] >> 8); o.out[o.pos++] = (uint8_t)pal[k];
  }
  static const uint8_t loop[19] = { 0x21, 0xFF, 0x0B, 'N', 'E', 'T', 'S', 'C', 'A', 'P', 'E', '2', '.', '0', 3, 1, 0, 0, 0 };
  memcpy(o.out + o.pos, loop, 19); o.pos += 19;

  for (long f = 0; f < g->frames; f++) {
    if (threaded) {
      pthread_mutex_lock(&p.lock);
      while (p.produced <= f && !p.error) pthread_cond_wait(&p.cond, &p.lock);
      if (p.produced <= f) e = p.error;
      pthread_mutex_unlock(&p.lock);
    } else {
      e = produce_one(&p, f);
    }
    if (e) goto done;
    uint8_t *idx = p.slot[f % 3], *prev = p.slot[(f + 2) % 3];
    /* The rectangle that changed since the frame before (all of the first frame). */
    int x0 = 0, y0 = 0, x1 = w - 1, y1 = h - 1, transparent = -1;
    if (f > 0) {
      x0 = w; y0 = h; x1 = -1; y1 = -1;
      for (int y = 0; y < h; y++) {
        const uint8_t *a = idx + (size_t)y * w, *b = prev + (size_t)y * w;
        if (memcmp(a, b, (size_t)w) == 0) continue;
        if (y0 == h) y0 = y;
        y1 = y;
        int l = 0, r = w - 1;
        while (a[l] == b[l]) l++;
        while (a[r] == b[r]) r--;
        if (l < x0) x0 = l;
        if (r > x1) x1 = r;
      }
      if (x1 < 0) { x0 = x1 = 0; y0 = y1 = 0; } /* no change: one pixel, as it was */
      /* Unchanged pixels inside it become a colour the rectangle does not use, marked
         transparent: long runs for LZW. */
      uint8_t used[256] = {0};
      for (int y = y0; y <= y1; y++) for (int x = x0; x <= x1; x++) used[idx[(size_t)y * w + x]] = 1;
      for (int k = 0; k < 256; k++) if (!used[k]) { transparent = k; break; }
    }
    int rw = x1 - x0 + 1, rh = y1 - y0 + 1;
    uint8_t *src = idx + (size_t)y0 * w + x0;
    int stride = w;
    if (transparent >= 0) {
      for (int y = 0; y < rh; y++) {
        const uint8_t *a = idx + (size_t)(y0 + y) * w + x0, *b = prev + (size_t)(y0 + y) * w + x0;
        uint8_t *d = frame + (size_t)y * rw;
        for (int x = 0; x < rw; x++) d[x] = a[x] == b[x] ? (uint8_t)transparent : a[x];
      }
      src = frame; stride = rw;
    }
    /* Delays in centiseconds from the frames' times, rounded: they add up to the
       duration. */
    long t0 = lround((double)f * 100.0 / fps), t1 = lround((double)(f + 1) * 100.0 / fps);
    long delay = t1 - t0;
    if (delay > 65535) delay = 65535;
    if ((e = grow(&o, 8 + 10))) goto done;
    uint8_t *d = o.out + o.pos;
    d[0] = 0x21; d[1] = 0xF9; d[2] = 4;
    d[3] = (uint8_t)(1 << 2 | (transparent >= 0 ? 1 : 0)); /* keep the frame in place */
    put16(d + 4, (int)delay);
    d[6] = transparent >= 0 ? (uint8_t)transparent : 0; d[7] = 0;
    d[8] = 0x2C; put16(d + 9, x0); put16(d + 11, y0); put16(d + 13, rw); put16(d + 15, rh); d[17] = 0;
    o.pos += 18;
    if ((e = lzw(&o, src, rw, rh, stride))) goto done;
    if (threaded) {
      pthread_mutex_lock(&p.lock);
      p.consumed = f + 1;
      pthread_cond_broadcast(&p.cond);
      pthread_mutex_unlock(&p.lock);
    }
    if (o.pos >= (1 << 20)) {
      if ((e = write_all(out, o.out, o.pos))) goto done;
      o.pos = 0;
    }
  }
  if ((e = grow(&o, 1))) goto done;
  o.out[o.pos++] = 0x3B;
  e = write_all(out, o.out, o.pos);
done:
  if (threaded) {
    pthread_mutex_lock(&p.lock);
    p.stop = 1;
    pthread_cond_broadcast(&p.cond);
    pthread_mutex_unlock(&p.lock);
    pthread_join(thread, NULL);
  }
  pthread_mutex_destroy(&p.lock);
  pthread_cond_destroy(&p.cond);
  free(p.m); free(p.px); free(p.err); free(p.buf); free(frame); free(o.out);
  for (int i = 0; i < 3; i++) free(p.slot[i]);
  return e;
}
