#ifndef CFASTPARSE_H
#define CFASTPARSE_H
#include <stddef.h>

/* Parses the whole of p[0..n) as a decimal number ([+-]digits[.digits][(e|E)[+-]digits],
   also ".5" and "5."). Returns 1 and stores the correctly rounded double in *out, or 0 when
   the text is not such a number (spaces, "inf", "nan", hex and thousands separators are not
   numbers here). */
int cs_parse_double(const unsigned char *p, size_t n, double *out);

#endif
