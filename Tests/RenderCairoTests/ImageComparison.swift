import CCairo
import ChartSceneHost
import Drawing
import Encoding
import Foundation
import RenderCairo
import XCTest

/// Golden images: small committed PNGs compared almost exactly (`mismatch`).
/// `RECORD_GOLDENS=1` re-records them (and fails the run); on a mismatch the actual image is written under
/// `.build/golden-failures/` for a look.
enum Golden {
  static let folder: String = {
    var parts = "\(#filePath)".split(separator: "/").map(String.init)
    parts.removeLast()
    return "/" + parts.joined(separator: "/") + "/Golden"
  }()
  static let failures: String = {
    var parts = "\(#filePath)".split(separator: "/").map(String.init)
    parts.removeLast(3)
    return "/" + parts.joined(separator: "/") + "/.build/golden-failures"
  }()

  /// Pixels of a PNG file, decoded by cairo (straight RGBA per pixel via RasterImage).
  static func load(_ path: String) -> RasterImage? {
    guard let surface = cairo_image_surface_create_from_png(path), cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS else { return nil }
    defer { cairo_surface_destroy(surface) }
    let w = Int(cairo_image_surface_get_width(surface)), h = Int(cairo_image_surface_get_height(surface))
    let stride = Int(cairo_image_surface_get_stride(surface))
    guard let data = cairo_image_surface_get_data(surface) else { return nil }
    return RasterImage(width: w, height: h, stride: stride, pixels: Array(UnsafeBufferPointer(start: data, count: stride * h)))
  }

  /// Pixels whose channels differ by more than `channelTolerance`, and the largest channel
  /// difference seen.
  static func compare(_ a: RasterImage, _ b: RasterImage, channelTolerance: Int) -> (differing: Int, largest: Int) {
    guard a.width == b.width, a.height == b.height else { return (max(a.width * a.height, b.width * b.height), 255) }
    var differing = 0, largest = 0
    for y in 0..<a.height {
      for x in 0..<a.width {
        let p = a.rgba(x: x, y: y), q = b.rgba(x: x, y: y)
        let d = max(abs(Int(p.r) - Int(q.r)), abs(Int(p.g) - Int(q.g)), abs(Int(p.b) - Int(q.b)), abs(Int(p.a) - Int(q.a)))
        largest = max(largest, d)
        if d > channelTolerance { differing += 1 }
      }
    }
    return (differing, largest)
  }

  /// Fraction of pixels whose channels differ by more than `channelTolerance`.
  static func difference(_ a: RasterImage, _ b: RasterImage, channelTolerance: Int = 0) -> Double {
    Double(compare(a, b, channelTolerance: channelTolerance).differing) / Double(max(1, a.width * a.height))
  }

  /// The golden comparison. A pixel differs when a channel is off by more than
  /// `channelTolerance` (2: what rounding alone can move, e.g. a premultiplied pixel going
  /// through a PNG file); the image matches when at most `allowedPixels` pixels differ (4: a
  /// stray antialiased corner, far below the dozens of pixels one wrong digit of an 11 px
  /// label moves — `GoldenStrictnessTests` proves that a one-digit change fails).
  static let channelTolerance = 2
  static let allowedPixels = 4

  /// Why `image` does not match `expected`, or nil when it does.
  static func mismatch(_ image: RasterImage, _ expected: RasterImage) -> String? {
    if image.width != expected.width || image.height != expected.height {
      return "the size is \(image.width)x\(image.height), the golden's \(expected.width)x\(expected.height)"
    }
    let (differing, largest) = compare(image, expected, channelTolerance: channelTolerance)
    if differing <= allowedPixels { return nil }
    return "\(differing) pixels differ by more than \(channelTolerance) (at most \(allowedPixels) may; the largest difference is \(largest))"
  }

  static var recording: Bool { ProcessInfo.processInfo.environment["RECORD_GOLDENS"] != nil }

  /// Compares with the golden image NAME. Recording (`RECORD_GOLDENS` set, or no golden
  /// yet) writes the file and FAILS, as snapshot libraries do: a run that recorded proves
  /// nothing, so it cannot pass until the variable is removed and the run repeated.
  static func assertMatches(_ image: RasterImage, _ name: String, file: StaticString = #filePath, line: UInt = #line) throws {
    if let failure = try check(image, name, in: folder, recording: recording) { XCTFail(failure, file: file, line: line) }
  }

  /// The failure message of comparing `image` with `folder/NAME.png` (nil: it matches),
  /// recording as `assertMatches` says.
  static func check(_ image: RasterImage, _ name: String, in folder: String, recording: Bool) throws -> String? {
    let path = folder + "/" + name + ".png"
    let png = try PNGEncoder().encode(image)
    if recording || !FileManager.default.fileExists(atPath: path) {
      try Data(png).write(to: URL(fileURLWithPath: path))
      return recording ? "recorded golden \(name).png (RECORD_GOLDENS is set: look at it, then run again without RECORD_GOLDENS)"
                       : "recorded missing golden \(name).png; look at it and run again"
    }
    guard let expected = load(path) else { return "cannot read \(path)" }
    guard let why = mismatch(image, expected) else { return nil }
    try FileManager.default.createDirectory(atPath: failures, withIntermediateDirectories: true)
    try Data(png).write(to: URL(fileURLWithPath: failures + "/" + name + ".png"))
    return "\(name): \(why) (actual in \(failures)/\(name).png; RECORD_GOLDENS=1 re-records)"
  }
}
