import CPNG
import Drawing

/// Encodes frames as PNG with settings chosen for charts: the "up" filter and zlib's RLE
/// strategy at level 1, deflated in stripes on several threads.
public struct PNGEncoder: Sendable {
  public var level: Int32
  public var threads: Int32
  public init(level: Int32 = 1, threads: Int32 = 2) { self.level = level; self.threads = threads }

  public struct EncodeError: Error, CustomStringConvertible {
    public var description: String { "PNG encoding failed (out of memory?)" }
  }

  public func encode(_ image: RasterImage) throws -> [UInt8] {
    var buf = cs_png_buffer(data: nil, size: 0)
    let rc = image.pixels.withUnsafeBufferPointer { p in
      cs_png_encode(p.baseAddress, Int32(image.width), Int32(image.height), Int32(image.stride), level, threads, &buf)
    }
    guard rc == 0, let data = buf.data else { throw EncodeError() }
    defer { cs_png_free(&buf) }
    return Array(UnsafeBufferPointer(start: data, count: buf.size))
  }
}
