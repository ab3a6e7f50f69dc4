#define _GNU_SOURCE
#include "CFrames.h"

#include <errno.h>
#include <fcntl.h>
#include <sys/uio.h>
#include <unistd.h>

#if defined(__x86_64__)
#include <immintrin.h>

int cframes_has_avx2(void) {
  static int known = -1;
  if (known < 0) {
    __builtin_cpu_init();
    known = __builtin_cpu_supports("avx2") ? 1 : 0;
  }
  return known;
}

/// Y of 16 pixels of one row, as 16 words in the order 0-3, 8-11 | 4-7, 12-15 (hadd's order):
/// 66 R + 129 G + 25 B + 128, at most 56,228: unsigned 16-bit lanes (the adds wrap as
/// signed, the bits are the same). 129 G is 65 G + 64 G: a signed byte holds neither 129.
__attribute__((target("avx2"))) static inline __m256i luma16(__m256i p0, __m256i p1, __m256i c1, __m256i c2) {
  __m256i a = _mm256_add_epi16(_mm256_maddubs_epi16(p0, c1), _mm256_maddubs_epi16(p0, c2));
  __m256i b = _mm256_add_epi16(_mm256_maddubs_epi16(p1, c1), _mm256_maddubs_epi16(p1, c2));
  __m256i s = _mm256_hadd_epi16(a, b);
  s = _mm256_srli_epi16(_mm256_add_epi16(s, _mm256_set1_epi16(128)), 8);
  return _mm256_add_epi16(s, _mm256_set1_epi16(16));
}

/// One chroma plane's 8 samples of 16 pixels of two rows, in the order 0, 1, 4, 5 | 2, 3,
/// 6, 7: per pixel c·(B, G, R) in 32-bit lanes (a signed byte holds each coefficient),
/// the two rows added, then neighbouring pixels; + 131,584 (128 << 10 and the rounding's
/// 512) keeps every sum positive, as in `YUV.simdRows`.
__attribute__((target("avx2"))) static inline __m256i chroma8(__m256i a0, __m256i a1, __m256i b0, __m256i b1, __m256i c) {
  const __m256i ones = _mm256_set1_epi16(1);
  __m256i s0 = _mm256_add_epi32(_mm256_madd_epi16(_mm256_maddubs_epi16(a0, c), ones), _mm256_madd_epi16(_mm256_maddubs_epi16(b0, c), ones));
  __m256i s1 = _mm256_add_epi32(_mm256_madd_epi16(_mm256_maddubs_epi16(a1, c), ones), _mm256_madd_epi16(_mm256_maddubs_epi16(b1, c), ones));
  __m256i s = _mm256_hadd_epi32(s0, s1);
  return _mm256_srai_epi32(_mm256_add_epi32(s, _mm256_set1_epi32(131584)), 10);
}

__attribute__((target("avx2"))) void cframes_yuv_rows_avx2(const uint8_t *src, long w, long h, long stride, uint8_t *dst, long pair0, long pair1) {
  if (!cframes_has_avx2()) return;
  const long ySize = w * h, cSize = (w / 2) * (h / 2);
  // Bytes B, G, R, A of each pixel times these (signed) bytes, pairs added into words.
  const __m256i cy1 = _mm256_set1_epi32((int)(25u | 65u << 8 | 66u << 16));
  const __m256i cy2 = _mm256_set1_epi32((int)(64u << 8));
  const __m256i cu = _mm256_set1_epi32((int)(112u | (uint32_t)(uint8_t)-74 << 8 | (uint32_t)(uint8_t)-38 << 16));
  const __m256i cv = _mm256_set1_epi32((int)((uint32_t)(uint8_t)-18 | (uint32_t)(uint8_t)-94 << 8 | 112u << 16));
  // Dwords 0, 4, 1, 5, 2, 6, 3, 7: the lanes' halves interleaved back into pixel order.
  const __m256i order = _mm256_setr_epi32(0, 4, 1, 5, 2, 6, 3, 7);
  const __m256i chromaOrder = _mm256_setr_epi32(0, 1, 4, 5, 2, 3, 6, 7);
  for (long pair = pair0; pair < pair1; pair++) {
    const uint8_t *row0 = src + 2 * pair * stride, *row1 = row0 + stride;
    uint8_t *y0 = dst + 2 * pair * w, *y1 = y0 + w;
    uint8_t *u = dst + ySize + pair * (w / 2), *v = dst + ySize + cSize + pair * (w / 2);
    for (long x = 0; x + 16 <= w; x += 16) {
      __m256i a0 = _mm256_loadu_si256((const __m256i *)(row0 + 4 * x));
      __m256i a1 = _mm256_loadu_si256((const __m256i *)(row0 + 4 * x + 32));
      __m256i b0 = _mm256_loadu_si256((const __m256i *)(row1 + 4 * x));
      __m256i b1 = _mm256_loadu_si256((const __m256i *)(row1 + 4 * x + 32));
      // Both rows' Y: bytes row 0: 0-3, 8-11, row 1: 0-3, 8-11 | row 0: 4-7, 12-15, row 1: 4-7, 12-15.
      __m256i ys = _mm256_packus_epi16(luma16(a0, a1, cy1, cy2), luma16(b0, b1, cy1, cy2));
      ys = _mm256_permutevar8x32_epi32(ys, order);
      _mm_storeu_si128((__m128i *)(y0 + x), _mm256_castsi256_si128(ys));
      _mm_storeu_si128((__m128i *)(y1 + x), _mm256_extracti128_si256(ys, 1));
      __m256i us = _mm256_permutevar8x32_epi32(chroma8(a0, a1, b0, b1, cu), chromaOrder);
      __m256i vs = _mm256_permutevar8x32_epi32(chroma8(a0, a1, b0, b1, cv), chromaOrder);
      // Words U 0-3, V 0-3 | U 4-7, V 4-7, then bytes in the same order (twice per lane).
      __m256i uv = _mm256_packs_epi32(us, vs);
      uv = _mm256_packus_epi16(uv, uv);
      __m128i lo = _mm256_castsi256_si128(uv), hi = _mm256_extracti128_si256(uv, 1);
      // U 0-3 U 4-7 | V 0-3 V 4-7.
      __m128i both = _mm_unpacklo_epi32(lo, hi);
      _mm_storel_epi64((__m128i *)(u + x / 2), both);
      _mm_storel_epi64((__m128i *)(v + x / 2), _mm_unpackhi_epi64(both, both));
    }
  }
}
#else
int cframes_has_avx2(void) { return 0; }
void cframes_yuv_rows_avx2(const uint8_t *src, long w, long h, long stride, uint8_t *dst, long pair0, long pair1) {
  (void)src; (void)w; (void)h; (void)stride; (void)dst; (void)pair0; (void)pair1;
}
#endif

int cframes_vmsplice_all(int fd, const void *data, size_t count, size_t *written) {
  const char *p = data;
  *written = 0;
  while (count > 0) {
    struct iovec v = { (void *)p, count };
    ssize_t n = vmsplice(fd, &v, 1, 0);
    if (n < 0) {
      if (errno == EINTR) continue;
      return errno;
    }
    p += n;
    count -= (size_t)n;
    *written += (size_t)n;
  }
  return 0;
}

int cframes_copy_file(int from, int to, unsigned long long count) {
  loff_t offset = 0;
  while (count > 0) {
    size_t want = count > (1u << 30) ? (1u << 30) : (size_t)count;
    ssize_t n = copy_file_range(from, &offset, to, NULL, want, 0);
    if (n > 0) {
      count -= (unsigned long long)n;
      continue;
    }
    if (n < 0 && errno == EINTR) continue;
    if (n == 0) return EIO;
    if (errno != EXDEV && errno != ENOSYS && errno != EINVAL && errno != EOPNOTSUPP) return errno;
    /* A kernel or file system that cannot: read and write. */
    char buf[1 << 16];
    while (count > 0) {
      ssize_t got = pread(from, buf, count > sizeof buf ? sizeof buf : (size_t)count, offset);
      if (got < 0 && errno == EINTR) continue;
      if (got <= 0) return got == 0 ? EIO : errno;
      for (ssize_t done = 0; done < got;) {
        ssize_t w = write(to, buf + done, (size_t)(got - done));
        if (w < 0 && errno == EINTR) continue;
        if (w < 0) return errno;
        done += w;
      }
      offset += got;
      count -= (unsigned long long)got;
    }
  }
  return 0;
}
