#ifndef CFRAMES_H
#define CFRAMES_H
#include <stddef.h>
#include <stdint.h>

/// 1 when this processor runs `cframes_yuv_rows_avx2` (x86-64 with AVX2), else 0.
int cframes_has_avx2(void);

/// Row pairs `pair0..<pair1` of a `width`×`height` BGRA image (rows `stride` bytes apart)
/// into planar YUV 4:2:0 at `dst` (Y, then U, then V; even sides), the very integers of
/// Encoding's `YUV.pixels`, 16 pixels at a time in AVX2 registers. Only the first
/// `width / 16 * 16` pixels of each row: the caller does the rest. Does nothing where
/// `cframes_has_avx2` is 0.
void cframes_yuv_rows_avx2(const uint8_t *src, long width, long height, long stride, uint8_t *dst, long pair0, long pair1);

/// Writes `count` bytes at `data` into the pipe `fd` by handing it their pages (vmsplice),
/// not copies of them: the caller must not change or free those bytes until the reader has
/// read them. 0 on success, else errno; `written` is how many bytes went in (EINVAL with 0
/// written: `fd` is no pipe or this kernel refuses it, and a plain write may do instead).
int cframes_vmsplice_all(int fd, const void *data, size_t count, size_t *written);

#endif
