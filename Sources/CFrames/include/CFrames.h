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

/// Appends the first `count` bytes of the file `from` (read from its start, whatever its
/// offset) to `to`: in the kernel (copy_file_range) where it can, else by read and write.
/// 0 on success, else errno.
int cframes_copy_file(int from, int to, unsigned long long count);

/// An H.264 encoder in this process: libx264, loaded at run time (`libx264.so.N`, the
/// version of the x264.h this was built with), for the frames of an MP4 that ffmpeg then
/// only puts into its container (W6: the frames no longer cross a pipe to ffmpeg).
typedef struct cframes_h264 cframes_h264;

/// An encoder of `width`×`height` I420 frames at `fps` with x264's `preset`, constant
/// quantiser `qp`, `threads` frame threads and `options` (`key=value` pairs joined by ':',
/// as ffmpeg's `-x264-params`), writing raw H.264 (start codes, the parameter sets before
/// every keyframe). NULL, with the reason in `err`, where libx264 cannot be loaded (or this
/// was built without x264.h) or refuses the settings.
cframes_h264 *cframes_h264_open(int width, int height, int fps, const char *preset, int qp, int threads, const char *options, char *err, unsigned long errsize);

/// Encodes one frame (the Y, U and V planes one after another), or, with `frame` NULL, gives
/// one of the frames x264 still holds. `out` and `size`: the stream's next bytes (none yet:
/// size 0), valid until the next call. 0, or -1 when x264 failed.
int cframes_h264_encode(cframes_h264 *e, const uint8_t *frame, const uint8_t **out, long *size);

/// How many frames x264 holds that `cframes_h264_encode(e, NULL, ...)` has still to give.
int cframes_h264_delayed(cframes_h264 *e);

/// Frees the encoder (NULL: nothing).
void cframes_h264_close(cframes_h264 *e);

/// An animated GIF written by this process (gif.c): frames go onto `store` (a file open for
/// reading and writing, empty) as they come, compactly (the pixels that changed since the
/// frame before, runs of one colour), and into a histogram of every frame's colours; the
/// memory does not grow with the number of frames. NULL: sides out of 1…65535, or no memory.
typedef struct cframes_gif cframes_gif;
cframes_gif *cframes_gif_open(int width, int height, int store);

/// Adds a frame of the encoder's size (cairo ARGB32, rows `stride` bytes apart). 0, or the
/// errno of writing the store (then every later call fails with it).
int cframes_gif_add(cframes_gif *g, const uint8_t *bgra, long stride);

/// Writes the GIF to `out`: one palette of every frame's colours (median cut), each frame
/// dithered to it (Sierra Lite), only the rectangle that changed since the frame before
/// (unchanged pixels in it transparent), delays in centiseconds from `fps`, looping
/// forever. 0, or an errno (EINVAL: no frames).
int cframes_gif_finish(cframes_gif *g, int out, double fps);

/// Frees the encoder (NULL: nothing); the files are the caller's.
void cframes_gif_close(cframes_gif *g);

#endif
