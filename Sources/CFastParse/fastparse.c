#include "CFastParse.h"
#include "plainnumber.h"
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* A fast path for the numbers data files hold (Clinger 1990): when the decimal mantissa fits
   in 53 bits and the power of ten is at most 22, m * 10^e (or m / 10^-e) is one correctly
   rounded IEEE operation, because both operands are exact doubles. Everything else
   (more than 15-16 significant digits, large exponents) goes to strtod, which is exact and
   slower. The C locale is in effect (chartscene never calls setlocale), so strtod reads '.'. */
static const double pow10_exact[23] = {
  1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
  1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};

static int slow_path(const unsigned char *p, size_t n, double *out) {
  char small[64];
  char *buf = n < sizeof small ? small : malloc(n + 1);
  if (!buf) return 0;
  memcpy(buf, p, n);
  buf[n] = 0;
  char *end = NULL;
  double v = strtod(buf, &end);
  int ok = end == buf + n;
  if (buf != small) free(buf);
  if (!ok) return 0;
  *out = v;
  return 1;
}

/* Any number: digits past the 19th go to strtod. */
static int parse_general(const unsigned char *p, size_t n, double *out) {
  size_t i = 0;
  int neg = 0;
  if (n == 0) return 0;
  if (p[0] == '-' || p[0] == '+') { neg = p[0] == '-'; i = 1; }
  uint64_t m = 0;
  size_t digits = 0, intDigits = 0, fracDigits = 0, dropped = 0;
  while (i < n && (unsigned)(p[i] - '0') < 10) {
    if (digits < 19) { m = m * 10 + (p[i] - '0'); if (m) digits++; } else dropped++;
    intDigits++; i++;
  }
  if (i < n && p[i] == '.') {
    i++;
    while (i < n && (unsigned)(p[i] - '0') < 10) {
      if (digits < 19) { m = m * 10 + (p[i] - '0'); if (m) digits++; fracDigits++; }
      i++; /* later digits only matter to strtod */
    }
  }
  if (intDigits == 0 && fracDigits == 0) {
    /* ".", "-", "" or a fraction whose digits were all dropped: let the checks below decide */
    int any = 0;
    for (size_t k = 0; k < i; k++) if ((unsigned)(p[k] - '0') < 10) any = 1;
    if (!any) return 0;
  }
  int exp = 0;
  if (i < n && (p[i] == 'e' || p[i] == 'E')) {
    size_t j = i + 1;
    int eneg = 0;
    if (j < n && (p[j] == '-' || p[j] == '+')) { eneg = p[j] == '-'; j++; }
    if (j >= n || (unsigned)(p[j] - '0') >= 10) return 0;
    while (j < n && (unsigned)(p[j] - '0') < 10) { if (exp < 100000) exp = exp * 10 + (p[j] - '0'); j++; }
    if (eneg) exp = -exp;
    i = j;
  }
  if (i != n) return 0;
  if (digits >= 19 || dropped || fracDigits > 400) return slow_path(p, n, out);
  int e10 = exp - (int)fracDigits;
  if (m == 0) { *out = neg ? -0.0 : 0.0; return 1; }
  if (m <= (1ULL << 53) && e10 >= -22 && e10 <= 22) {
    double v = (double)m;
    v = e10 < 0 ? v / pow10_exact[-e10] : v * pow10_exact[e10];
    *out = neg ? -v : v;
    return 1;
  }
  return slow_path(p, n, out);
}

/* The common case first: at most 18 digits in all (so the mantissa is exact in 64 bits and
   no digit is dropped), read in one pass. Anything else gives the same answer through
   parse_general. */
int cs_parse_double(const unsigned char *p, size_t n, double *out) {
  if (n == 0 || n > 40) return parse_general(p, n, out);
  double v;
  if (cs_plain_number(p, p + n, &v) == n) { *out = v; return 1; }
  return parse_general(p, n, out);
}
