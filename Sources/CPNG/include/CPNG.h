// A fast PNG encoder for cairo ARGB32 surfaces: unpremultiplies, filters and deflates the
// rows in stripes on several threads (pigz-style: each stripe ends on a byte boundary
// with a sync flush, so the stripes concatenate into one zlib stream).
#ifndef CPNG_H
#define CPNG_H
#include <stddef.h>
#include <stdint.h>

typedef struct {
  unsigned char *data;
  size_t size;
} cs_png_buffer;

/// Encodes `height` rows of `width` native-endian premultiplied ARGB32 pixels (cairo's
/// CAIRO_FORMAT_ARGB32), `stride` bytes apart. Opaque images are written as RGB, others as
/// RGBA. level: zlib level 1-9; threads: 1 or more. Returns 0 on success; the caller
/// frees out->data with cs_png_free.
int cs_png_encode(const unsigned char *pixels, int width, int height, int stride, int level,
                  int threads, cs_png_buffer *out);
void cs_png_free(cs_png_buffer *buf);
#endif
