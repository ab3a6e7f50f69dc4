#include "CFastParse.h"
#include "plainnumber.h"
#include <math.h>
#include <string.h>

static inline __attribute__((always_inline)) int d2(const unsigned char *p, int *v) {
  unsigned a = (unsigned)(p[0] - '0'), b = (unsigned)(p[1] - '0');
  if (a > 9 || b > 9) return 0;
  *v = (int)(a * 10 + b);
  return 1;
}

/* An ISO `YYYY-MM-DD` or `YYYY-MM-DD[T ]HH:MM:SS` cell, the time optionally followed by `Z`
   or `±hh:mm` (converted to UTC), as TimeParsing reads it. Every part is a whole number of
   milliseconds, so the sum is exact in any order. */
static inline __attribute__((always_inline)) int iso_time(cs_iso_day_cache *b, const unsigned char *c, size_t n, double *t) {
  if (n != 10 && n != 19 && n != 20 && n != 25) return 0;
  uint64_t k;
  uint16_t k2;
  memcpy(&k, c, 8);
  memcpy(&k2, c + 8, 2);
  if (k != b->key || k2 != b->key2 || isnan(b->day_ms)) {
    double day = b->day(c);
    if (isnan(day)) return 0;
    b->key = k; b->key2 = k2; b->day_ms = day;
  }
  if (n == 10) { *t = b->day_ms; return 1; }
  int h, m, s;
  if ((c[10] != ' ' && c[10] != 'T') || c[13] != ':' || c[16] != ':') return 0;
  if (!d2(c + 11, &h) || !d2(c + 14, &m) || !d2(c + 17, &s)) return 0;
  if (h >= 24 || m >= 60 || s > 60) return 0;
  int64_t ms = (int64_t)(h * 3600 + m * 60 + s) * 1000;
  if (n == 20) {
    if (c[19] != 'Z' && c[19] != 'z') return 0;
  } else if (n == 25) {
    int oh, om;
    if ((c[19] != '+' && c[19] != '-') || c[22] != ':' || !d2(c + 20, &oh) || !d2(c + 23, &om) || oh > 18 || om >= 60) return 0;
    int64_t off = (int64_t)(oh * 3600 + om * 60) * 1000;
    ms -= c[19] == '-' ? -off : off;
  }
  *t = b->day_ms + (double)ms;
  return 1;
}

int cs_iso_time(cs_iso_day_cache *c, const unsigned char *p, size_t n, double *t) { return iso_time(c, p, n, t); }

/* The length of an ISO time cell at c (19, 20 or 25 bytes) when the byte after it ends the
   cell, else 0. */
static inline __attribute__((always_inline)) size_t iso_length(const unsigned char *c, size_t room, unsigned char delim) {
#define ENDS(x) ((x) == delim || (x) == '\n' || (x) == '\r')
  if (room > 19 && ENDS(c[19])) return 19;
  if (room > 20 && (c[19] == 'Z' || c[19] == 'z') && ENDS(c[20])) return 20;
  if (room > 25 && (c[19] == '+' || c[19] == '-') && ENDS(c[25])) return 25;
  return 0;
#undef ENDS
}

size_t cs_csv_bulk_rows(cs_csv_bulk *b) {
  const int iso_skip = b->time_kind == CS_TIME_ISO && !memchr("0123456789-: TZz+", b->delim, 17);
  const unsigned char *p = b->p;
  const unsigned char delim = b->delim;
  const int width = b->width;
  size_t rows = 0;
  size_t pos = b->pos;
  const size_t limit = b->limit;
  while (rows < b->cap && pos < limit) {
    size_t i = pos;
    double t = 0;
    int ok = 1;
    for (int cell = 0; cell < width; cell++) {
      size_t s = i;
      int role = b->cells[cell];
      double v = NAN;
      size_t known = 0;
      /* A number's end is found as it is read; a delimiter or line end must follow. */
      if (role >= 0 && (known = cs_plain_number(p + i, p + limit, &v))) i += known;
      /* An ISO time: its bytes are all checked as they are read (digits, '-', ':', 'T', ' ',
         'Z', '+'), so the cell ends right after them when a delimiter that is none of those
         follows. */
      else if (role == CS_BULK_TIME && iso_skip && (known = iso_length(p + i, limit - i, delim)) &&
               iso_time(&b->iso, p + i, known, &t)) i += known;
      else known = 0;
      while (i < limit) {
        unsigned char ch = p[i];
        if (ch == delim || ch == '\n' || ch == '\r' || ch == '"') break;
        i++;
      }
      if (i >= limit) {
        /* The line runs to the limit: only the file's last line may. */
        if (!b->last_line_open || cell != width - 1) { ok = 0; break; }
      } else {
        unsigned char ch = p[i];
        if (ch == '"') { ok = 0; break; }
        if (cell < width - 1 ? ch != delim : ch == delim) { ok = 0; break; }
        if (ch == '\r' && !(i + 1 < limit && p[i + 1] == '\n')) { ok = 0; break; }
      }
      size_t n = i - s;
      const unsigned char *c = p + s;
      if (n > 0 && (c[0] == ' ' || c[0] == '\t' || c[n - 1] == ' ' || c[n - 1] == '\t')) { ok = 0; break; }
      if (role == CS_BULK_TIME) {
        if (known) {
          /* read above */
        } else if (b->time_kind == CS_TIME_ISO) {
          if (!iso_time(&b->iso, c, n, &t)) { ok = 0; break; }
        } else {
          if (!cs_parse_double(c, n, &t)) { ok = 0; break; }
          if (b->time_kind == CS_TIME_UNIX_SECONDS) t *= 1000;
        }
        if (!(fabs(t) <= b->max_time)) { ok = 0; break; }
      } else if (role >= 0) {
        if (n != known && !cs_parse_double(c, n, &v)) { ok = 0; break; }
        if (n > 0 && !(fabs(v) <= b->max_value)) { ok = 0; break; }
        b->out[(size_t)role * b->cap + rows] = v;
      }
      i++; /* past the delimiter or the line end */
    }
    if (!ok) break;
    /* i is one past the cell's end byte: a delimiter never ends the last cell, so it was CR,
       LF or the open end. */
    if (i - 1 < limit && p[i - 1] == '\r') i++;
    if (i > limit) i = limit;
    b->times[rows] = t;
    rows++;
    pos = i;
  }
  b->pos = pos;
  return rows;
}
