#ifndef CASSETS_H
#define CASSETS_H
#include <stddef.h>

/// One file of `assets/`, embedded in the executable at build time.
typedef struct {
  const char *path;           ///< relative to assets/, e.g. "fonts/Inter-Regular.otf"
  const unsigned char *bytes;
  const unsigned char *end;   ///< one past the last byte
} cs_asset;

/// The embedded files; `*count` receives their number.
const cs_asset *cs_embedded_assets(size_t *count);

#endif
