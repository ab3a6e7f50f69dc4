#ifndef CFASTPARSE_H
#define CFASTPARSE_H
#include <stddef.h>
#include <stdint.h>

/* Parses the whole of p[0..n) as a decimal number ([+-]digits[.digits][(e|E)[+-]digits],
   also ".5" and "5."). Returns 1 and stores the correctly rounded double in *out, or 0 when
   the text is not such a number (spaces, "inf", "nan", hex and thousands separators are not
   numbers here). */
int cs_parse_double(const unsigned char *p, size_t n, double *out);

/* The day of the last ISO date read (its first 10 bytes) and its time in ms, and the host's
   reader of a `YYYY-MM-DD` day in ms (NaN when it is not a date). Start with day_ms NaN. */
typedef struct {
  uint64_t key;
  uint16_t key2;
  double day_ms;
  double (*day)(const unsigned char *p);
} cs_iso_day_cache;

/* The one fast reader of ISO time cells, used by the bulk path and by the general reader of
   a time column: `YYYY-MM-DD` or `YYYY-MM-DD[T ]HH:MM:SS`, optionally followed by `Z` or
   `±hh:mm` (converted to UTC), the whole of p[0..n). Rows of one day repeat its 10 bytes, so
   the day is read once per day. Returns 1 with the time in ms in *t, or 0 when the text is
   not exactly one of those forms (a general reader then decides). */
int cs_iso_time(cs_iso_day_cache *c, const unsigned char *p, size_t n, double *t);

/* The plain rows of a CSV block, read straight into columns: the bulk path of
   TableDecoder.read. A row is taken only when it is a whole line of exactly `width` cells
   split by `delim`, with no quote, no space or tab at a cell's edge, no CR except right
   before its LF, a time cell in the plan's kind and value cells that cs_parse_double reads
   (or empty: NaN) within the limits. At the first row that is anything else the reader stops
   before it, so the general path (which knows every rule and every error) reads that row;
   the two agree on every row the bulk path takes (BulkPathTests checks it). */
enum { CS_BULK_SKIP = -1, CS_BULK_TIME = -2 };
enum { CS_TIME_ISO = 0, CS_TIME_UNIX_SECONDS = 1, CS_TIME_UNIX_MILLIS = 2 };

typedef struct {
  /* The block: rows start at pos; only lines that end (LF) before limit are read, and the
     last one without an LF when last_line_open (the end of the file). */
  const unsigned char *p;
  size_t pos, limit;
  int last_line_open;
  unsigned char delim;
  int width;
  /* Per cell: CS_BULK_TIME, CS_BULK_SKIP, or the index of its value column. */
  const int *cells;
  int time_kind;
  /* Output: at most cap rows; times[r], out[k * cap + r]. */
  double *times;
  double *out;
  size_t cap;
  double max_time, max_value;
  cs_iso_day_cache iso;
} cs_csv_bulk;

/* Reads rows from b->pos, advancing it past each row taken; returns how many. */
size_t cs_csv_bulk_rows(cs_csv_bulk *b);

#endif
