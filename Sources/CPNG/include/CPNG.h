// A fast PNG encoder for cairo ARGB32 pixels: the "up" filter and a run-length deflate
// with fixed codes (see png.c). An image is encoded in horizontal stripes that can be
// compressed on different threads (pigz-style: every stripe but the last ends with a sync
// flush on a byte boundary, so the stripes concatenate into one zlib stream).
#ifndef CPNG_H
#define CPNG_H
#include <stddef.h>
#include <stdint.h>

typedef struct {
  unsigned char *data;
  size_t size;
} cs_png_buffer;

/// One compressed stripe of rows.
typedef struct {
  unsigned char *data; /* raw deflate bytes */
  size_t size;
  unsigned long adler; /* adler32 of the filtered bytes */
  size_t rawsize;      /* number of filtered bytes */
} cs_png_stripe;

/// Filters and deflates `rows` rows of native-endian premultiplied ARGB32 pixels (cairo's
/// CAIRO_FORMAT_ARGB32), `stride` bytes apart. `prev_row` is the row above the stripe in
/// the image, or NULL (the first row is then filtered on its own). channels: 3 (RGB, for
/// opaque images) or 4 (RGBA). last: this stripe ends the image. Returns 0 on success.
int cs_png_encode_stripe(const unsigned char *pixels, const unsigned char *prev_row, int width, int rows,
                         int stride, int channels, int last, cs_png_stripe *out);

/// Joins stripes (top to bottom) into a PNG file and frees them.
int cs_png_assemble(int width, int height, int channels, cs_png_stripe *stripes, int count, cs_png_buffer *out);

/// Encodes a whole image on `threads` threads with the channels chosen by the caller: 3 (RGB:
/// every pixel must be opaque), 4 (RGBA), or 0 (RGB when every pixel is opaque, else RGBA).
/// Returns 0 on success; free out->data with cs_png_free. Each of the `threads` stripes
/// is filtered against the real row above it, so the file does not depend on `threads`'
/// cut except for the sync-flush bytes.
int cs_png_encode_channels(const unsigned char *pixels, int width, int height, int stride, int channels, int threads,
                           cs_png_buffer *out);
void cs_png_free(cs_png_buffer *buf);

/// The CRC-32 of a PNG chunk (its type and data), as zlib computes it.
unsigned long cs_png_crc(const unsigned char *bytes, size_t n);

/// One row of cairo ARGB32 pixels as PNG bytes: RGB (channels 3, opaque pixels) or straight
/// RGBA (4).
void cs_png_convert_row(const uint32_t *src, unsigned char *dst, int width, int channels);

/// An animated PNG being written (apng.c): 8-bit RGBA, every frame after the first only the
/// rectangle that changed, each lasting delay_num / delay_den s.
typedef struct cs_apng cs_apng;
/// Writes the signature, IHDR and acTL onto `fd` (at its start). NULL with *err (an errno).
cs_apng *cs_apng_open(int fd, int width, int height, unsigned delay_num, unsigned delay_den, int *err);
/// Adds a frame of cairo ARGB32 pixels of the animation's size. Returns 0 or an errno.
int cs_apng_frame(cs_apng *a, const unsigned char *pixels, long stride);
/// Ends the file and writes the number of frames into acTL. Returns 0 or an errno.
int cs_apng_finish(cs_apng *a);
void cs_apng_free(cs_apng *a);
void cs_png_stripe_free(cs_png_stripe *s);
#endif
