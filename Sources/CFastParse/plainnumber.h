#ifndef CS_PLAINNUMBER_H
#define CS_PLAINNUMBER_H
#include <stdint.h>
#include <stddef.h>

static const double cs_pow10_small[19] = {
  1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18};

/* A plain decimal ([-+]digits[.digits], at most 18 digits, so the mantissa is exact) from c[0]
   on, read in the one pass that finds its end: returns its length and stores the correctly
   rounded value (one IEEE division by an exact power of ten, Clinger's fast path), or 0 when
   the text there is not one (then cs_parse_double's general reader decides). */
static inline __attribute__((always_inline)) size_t cs_plain_number(const unsigned char *c, const unsigned char *end, double *out) {
  const unsigned char *s = c;
  int neg = 0;
  if (s < end && (*s == '-' || *s == '+')) { neg = *s == '-'; s++; }
  const unsigned char *ds = s;
  uint64_t m = 0;
  unsigned d;
  while (s < end && (d = (unsigned)(*s - '0')) < 10) { m = m * 10 + d; s++; }
  size_t digits = (size_t)(s - ds), frac = 0;
  if (s < end && *s == '.') {
    s++;
    const unsigned char *fs = s;
    while (s < end && (d = (unsigned)(*s - '0')) < 10) { m = m * 10 + d; s++; }
    frac = (size_t)(s - fs);
    digits += frac;
  }
  if (digits == 0 || digits > 18 || m > (1ULL << 53)) return 0;
  double v = (double)m;
  if (frac) v /= cs_pow10_small[frac];
  *out = neg ? -v : v;
  return (size_t)(s - c);
}

#endif
