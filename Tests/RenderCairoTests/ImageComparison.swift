import CCairo
import ChartSceneHost
import Drawing
import Encoding
import Foundation
import RenderCairo
import XCTest

/// Golden images: small committed PNGs compared with a tolerance. `RECORD_GOLDENS=1`
/// re-records them; on a mismatch the actual image is written under
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

  /// Fraction of pixels whose channels differ by more than `channelTolerance`.
  static func difference(_ a: RasterImage, _ b: RasterImage, channelTolerance: Int = 16) -> Double {
    guard a.width == b.width, a.height == b.height else { return 1 }
    var differing = 0
    for y in 0..<a.height {
      for x in 0..<a.width {
        let p = a.rgba(x: x, y: y), q = b.rgba(x: x, y: y)
        let d = max(abs(Int(p.r) - Int(q.r)), abs(Int(p.g) - Int(q.g)), abs(Int(p.b) - Int(q.b)), abs(Int(p.a) - Int(q.a)))
        if d > channelTolerance { differing += 1 }
      }
    }
    return Double(differing) / Double(a.width * a.height)
  }

  static func assertMatches(_ image: RasterImage, _ name: String, pixelTolerance: Double = 0.002, file: StaticString = #filePath, line: UInt = #line) throws {
    let path = folder + "/" + name + ".png"
    let png = try PNGEncoder().encode(image)
    if ProcessInfo.processInfo.environment["RECORD_GOLDENS"] != nil || !FileManager.default.fileExists(atPath: path) {
      try Data(png).write(to: URL(fileURLWithPath: path))
      if ProcessInfo.processInfo.environment["RECORD_GOLDENS"] == nil { XCTFail("recorded missing golden \(name).png; run again", file: file, line: line) }
      return
    }
    guard let expected = load(path) else { return XCTFail("cannot read \(path)", file: file, line: line) }
    let diff = difference(image, expected)
    if diff > pixelTolerance {
      try FileManager.default.createDirectory(atPath: failures, withIntermediateDirectories: true)
      try Data(png).write(to: URL(fileURLWithPath: failures + "/" + name + ".png"))
      XCTFail("\(name): \(String(format: "%.2f", diff * 100))% of pixels differ (actual in \(failures)/\(name).png; RECORD_GOLDENS=1 re-records)", file: file, line: line)
    }
  }
}
