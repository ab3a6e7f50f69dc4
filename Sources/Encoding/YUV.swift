import Dispatch
import Drawing

/// Cairo's ARGB32 frames (BGRA bytes, premultiplied: frames are opaque) to planar YUV 4:2:0
/// as ffmpeg's own conversion gives it by default: BT.601 limited range (Y 16–235, U and V
/// 16–240), each chroma sample from the mean of its 2x2 pixels. Rows in two halves on two
/// threads. Even sides only.
enum YUV {
  static func convert(_ image: RasterImage, into out: inout [UInt8]) {
    let w = image.width, h = image.height, stride = image.stride
    let ySize = w * h, cSize = (w / 2) * (h / 2)
    let pairs = h / 2
    let parts = pairs >= 64 ? 4 : 1
    image.pixels.withUnsafeBytes { src in
      out.withUnsafeMutableBytes { dst in
        let s = src.baseAddress!.assumingMemoryBound(to: UInt8.self)
        let d = dst.baseAddress!.assumingMemoryBound(to: UInt8.self)
        nonisolated(unsafe) let sp = s, dp = d
        DispatchQueue.concurrentPerform(iterations: parts) { part in
          let lo = pairs * part / parts, hi = pairs * (part + 1) / parts
          let yPlane = dp, uPlane = dp + ySize, vPlane = dp + ySize + cSize
          for pair in lo..<hi {
            let row0 = sp + (2 * pair) * stride, row1 = row0 + stride
            let y0 = yPlane + (2 * pair) * w, y1 = y0 + w
            let u = uPlane + pair * (w / 2), v = vPlane + pair * (w / 2)
            var x = 0
            while x < w {
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
        }
      }
    }
  }

  @inline(__always) static func luma(_ r: Int, _ g: Int, _ b: Int) -> UInt8 {
    UInt8(truncatingIfNeeded: ((66 * r + 129 * g + 25 * b + 128) >> 8) + 16)
  }
}
