import CFrames
import Dispatch
import Drawing

/// Cairo's ARGB32 frames (BGRA bytes, premultiplied: frames are opaque) to planar YUV 4:2:0
/// as ffmpeg's own conversion gives it by default: BT.601 limited range (Y 16–235, U and V
/// 16–240), each chroma sample from the mean of its 2x2 pixels. Rows in parts on two
/// threads, 16 pixels at a time in SIMD lanes (the same integers as one pixel at a time:
/// `convertScalar`, kept for the tests and for a row's last pixels). Even sides only.
enum YUV {
  static func convert(_ image: RasterImage, into out: inout [UInt8]) {
    let w = image.width, h = image.height, stride = image.stride
    let pairs = h / 2
    let parts = pairs >= 64 ? 4 : 1
    image.pixels.withUnsafeBytes { src in
      out.withUnsafeMutableBytes { dst in
        nonisolated(unsafe) let sp = src.baseAddress!, dp = dst.baseAddress!
        DispatchQueue.concurrentPerform(iterations: parts) { part in
          rows(sp, width: w, height: h, stride: stride, into: dp, pairs: pairs * part / parts..<pairs * (part + 1) / parts)
        }
      }
    }
  }

  /// Row pairs `pairs` of a `width`×`height` BGRA image at `src` into the planes at `dst`:
  /// in AVX2 registers where the processor has them (`avx2Rows`), else in SIMD lanes,
  /// except in a debug build, where generic SIMD code runs a hundred times slower than the
  /// one-block-at-a-time reference, `scalarRows` (the tests compare each with it in any build).
  static func rows(_ src: UnsafeRawPointer, width w: Int, height h: Int, stride: Int, into dst: UnsafeMutableRawPointer, pairs: Range<Int>) {
    #if DEBUG
    scalarRows(src.assumingMemoryBound(to: UInt8.self), width: w, height: h, stride: stride,
               into: dst.assumingMemoryBound(to: UInt8.self), pairs: pairs)
    #else
    if hasAVX2 {
      avx2Rows(src, width: w, height: h, stride: stride, into: dst, pairs: pairs)
    } else {
      simdRows(src, width: w, height: h, stride: stride, into: dst, pairs: pairs)
    }
    #endif
  }

  /// Whether `avx2Rows` can run here.
  static let hasAVX2 = cframes_has_avx2() != 0

  /// `rows` in C with AVX2 (`CFrames`), 16 pixels at a time, a row's last pixels one block
  /// at a time: the same bytes as `simdRows` in half its time (W6's 570 frames of 1280x720:
  /// 0.29 s of CPU in Swift's SIMD lanes, built for any x86-64, 0.15 s here, by `perf`; about
  /// what reading 3.7 MB and writing 1.4 MB a frame costs). Only where `hasAVX2`.
  static func avx2Rows(_ src: UnsafeRawPointer, width w: Int, height h: Int, stride: Int, into dst: UnsafeMutableRawPointer, pairs: Range<Int>) {
    guard !pairs.isEmpty else { return }
    cframes_yuv_rows_avx2(src.assumingMemoryBound(to: UInt8.self), w, h, stride, dst.assumingMemoryBound(to: UInt8.self), pairs.lowerBound, pairs.upperBound)
    let done = w / 16 * 16
    guard done < w else { return }
    let ySize = w * h, cSize = (w / 2) * (h / 2)
    let s = src.assumingMemoryBound(to: UInt8.self), d = dst.assumingMemoryBound(to: UInt8.self)
    for pair in pairs {
      pixels(s + 2 * pair * stride, s + (2 * pair + 1) * stride, d + 2 * pair * w, d + (2 * pair + 1) * w,
             d + ySize + pair * (w / 2), d + ySize + cSize + pair * (w / 2), from: done, to: w)
    }
  }

  /// `rows` 16 pixels at a time.
  static func simdRows(_ src: UnsafeRawPointer, width w: Int, height h: Int, stride: Int, into dst: UnsafeMutableRawPointer, pairs: Range<Int>) {
    let ySize = w * h, cSize = (w / 2) * (h / 2)
    for pair in pairs {
      let row0 = src + (2 * pair) * stride, row1 = row0 + stride
      let y0 = dst + (2 * pair) * w, y1 = y0 + w
      let u = dst + ySize + pair * (w / 2), v = dst + ySize + cSize + pair * (w / 2)
      var x = 0
      while x + 16 <= w {
        let p0 = row0.loadUnaligned(fromByteOffset: x * 4, as: SIMD16<UInt32>.self)
        let p1 = row1.loadUnaligned(fromByteOffset: x * 4, as: SIMD16<UInt32>.self)
        y0.storeBytes(of: luma(p0), toByteOffset: x, as: SIMD16<UInt8>.self)
        y1.storeBytes(of: luma(p1), toByteOffset: x, as: SIMD16<UInt8>.self)
        // Each 2x2 block's sums: the two rows, then neighbouring lanes.
        let bs = (p0 & 0xff) &+ (p1 & 0xff)
        let gs = ((p0 &>> 8) & 0xff) &+ ((p1 &>> 8) & 0xff)
        let rs = ((p0 &>> 16) & 0xff) &+ ((p1 &>> 16) & 0xff)
        let b = bs.evenHalf &+ bs.oddHalf, g = gs.evenHalf &+ gs.oddHalf, r = rs.evenHalf &+ rs.oddHalf
        // As in `convertScalar`, with the + 128 moved inside the shift (128 << 10 = 131072,
        // plus the 512 of rounding) so that every step stays positive: 131584 is more than
        // 38 · 1020 + 74 · 1020 and 94 · 1020 + 18 · 1020.
        let us = (112 &* b &+ 131584 &- 38 &* r &- 74 &* g) &>> 10
        let vs = (112 &* r &+ 131584 &- 94 &* g &- 18 &* b) &>> 10
        u.storeBytes(of: SIMD8<UInt8>(truncatingIfNeeded: us), toByteOffset: x / 2, as: SIMD8<UInt8>.self)
        v.storeBytes(of: SIMD8<UInt8>(truncatingIfNeeded: vs), toByteOffset: x / 2, as: SIMD8<UInt8>.self)
        x += 16
      }
      if x < w {
        pixels(row0.assumingMemoryBound(to: UInt8.self), row1.assumingMemoryBound(to: UInt8.self),
               y0.assumingMemoryBound(to: UInt8.self), y1.assumingMemoryBound(to: UInt8.self),
               u.assumingMemoryBound(to: UInt8.self), v.assumingMemoryBound(to: UInt8.self), from: x, to: w)
      }
    }
  }

  /// Y of 16 pixels (BGRA words), in 16-bit lanes: 66 · 255 + 129 · 255 + 25 · 255 + 128 < 65536.
  @inline(__always) static func luma(_ p: SIMD16<UInt32>) -> SIMD16<UInt8> {
    let b = SIMD16<UInt16>(truncatingIfNeeded: p & 0xff)
    let g = SIMD16<UInt16>(truncatingIfNeeded: (p &>> 8) & 0xff)
    let r = SIMD16<UInt16>(truncatingIfNeeded: (p &>> 16) & 0xff)
    return SIMD16<UInt8>(truncatingIfNeeded: ((66 &* r &+ 129 &* g &+ 25 &* b &+ 128) &>> 8) &+ 16)
  }

  /// Pixels `x0..<x1` (x0 even) of one row pair, one 2x2 block at a time.
  static func pixels(_ row0: UnsafePointer<UInt8>, _ row1: UnsafePointer<UInt8>, _ y0: UnsafeMutablePointer<UInt8>, _ y1: UnsafeMutablePointer<UInt8>,
                     _ u: UnsafeMutablePointer<UInt8>, _ v: UnsafeMutablePointer<UInt8>, from x0: Int, to x1: Int) {
    var x = x0
    while x < x1 {
      let o = x * 4
      let b00 = Int(row0[o]), g00 = Int(row0[o + 1]), r00 = Int(row0[o + 2])
      let b01 = Int(row0[o + 4]), g01 = Int(row0[o + 5]), r01 = Int(row0[o + 6])
      let b10 = Int(row1[o]), g10 = Int(row1[o + 1]), r10 = Int(row1[o + 2])
      let b11 = Int(row1[o + 4]), g11 = Int(row1[o + 5]), r11 = Int(row1[o + 6])
      y0[x] = luma(r00, g00, b00); y0[x + 1] = luma(r01, g01, b01)
      y1[x] = luma(r10, g10, b10); y1[x + 1] = luma(r11, g11, b11)
      let r = r00 + r01 + r10 + r11, g = g00 + g01 + g10 + g11, b = b00 + b01 + b10 + b11
      // Sums of four: the coefficients shifted by two more bits.
      u[x / 2] = UInt8(truncatingIfNeeded: ((-38 * r - 74 * g + 112 * b + 512) >> 10) + 128)
      v[x / 2] = UInt8(truncatingIfNeeded: ((112 * r - 94 * g - 18 * b + 512) >> 10) + 128)
      x += 2
    }
  }

  /// The whole image one 2x2 block at a time (the reference for the SIMD rows).
  static func convertScalar(_ image: RasterImage, into out: inout [UInt8]) {
    let w = image.width, h = image.height, stride = image.stride
    image.pixels.withUnsafeBufferPointer { src in
      out.withUnsafeMutableBufferPointer { dst in
        scalarRows(src.baseAddress!, width: w, height: h, stride: stride, into: dst.baseAddress!, pairs: 0..<h / 2)
      }
    }
  }

  /// Row pairs `pairs`, one 2x2 block at a time: `convertScalar`'s loop, and what `rows`
  /// does in a debug build.
  static func scalarRows(_ s: UnsafePointer<UInt8>, width w: Int, height h: Int, stride: Int, into d: UnsafeMutablePointer<UInt8>, pairs: Range<Int>) {
    let ySize = w * h, cSize = (w / 2) * (h / 2)
    for pair in pairs {
      pixels(s + 2 * pair * stride, s + (2 * pair + 1) * stride, d + 2 * pair * w, d + (2 * pair + 1) * w,
             d + ySize + pair * (w / 2), d + ySize + cSize + pair * (w / 2), from: 0, to: w)
    }
  }

  @inline(__always) static func luma(_ r: Int, _ g: Int, _ b: Int) -> UInt8 {
    UInt8(truncatingIfNeeded: ((66 * r + 129 * g + 25 * b + 128) >> 8) + 16)
  }
}
