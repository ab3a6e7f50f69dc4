/// A picture read from a file (`cs.image`), decoded once: what an `.image` display item draws.
public struct ImageRef: Sendable, Equatable {
  /// The file's full path (it names the picture in recordings and caches).
  public var path: String
  public var pixels: RasterImage
  public init(path: String, pixels: RasterImage) { self.path = path; self.pixels = pixels }
  public static func == (a: ImageRef, b: ImageRef) -> Bool {
    a.path == b.path && a.pixels.width == b.pixels.width && a.pixels.height == b.pixels.height && a.pixels.pixels == b.pixels.pixels
  }

  /// Decodes a PNG file into pixels (set by the host to the renderer's decoder; nil when no
  /// renderer is present).
  nonisolated(unsafe) public static var decode: ((String) -> RasterImage?)?
}
