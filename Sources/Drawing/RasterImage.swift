/// Pixels in cairo's ARGB32 layout: native-endian 32-bit words, premultiplied alpha.
public struct RasterImage: Sendable {
  public var width: Int
  public var height: Int
  public var stride: Int
  public var pixels: [UInt8]
  public init(width: Int, height: Int, stride: Int, pixels: [UInt8]) {
    self.width = width; self.height = height; self.stride = stride; self.pixels = pixels
  }

  /// The straight RGBA of one pixel (for tests and comparisons).
  public func rgba(x: Int, y: Int) -> (r: UInt8, g: UInt8, b: UInt8, a: UInt8) {
    let o = y * stride + x * 4
    let v = UInt32(pixels[o]) | UInt32(pixels[o + 1]) << 8 | UInt32(pixels[o + 2]) << 16 | UInt32(pixels[o + 3]) << 24
    let a = UInt8(v >> 24)
    func un(_ c: UInt32) -> UInt8 { a == 0 ? 0 : UInt8(min(255, (c * 255 + UInt32(a) / 2) / UInt32(a))) }
    return (un((v >> 16) & 255), un((v >> 8) & 255), un(v & 255), a)
  }
}
