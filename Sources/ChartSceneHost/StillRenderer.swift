import Dispatch
import Drawing
import Encoding
import RenderCairo

/// Renders one still to PNG with both cores busy: the image is cut into horizontal bands;
/// each band is painted and compressed on its own thread (with its own text system), and
/// the compressed stripes are joined into one PNG.
enum StillRenderer {
  /// Bands below this many device pixels are not worth a second thread.
  static let minimumPixelsPerBand = 400_000

  static func png(_ list: DisplayList, scale: Double, threads: Int = 2, painter: CairoPainter? = nil) throws -> [UInt8] {
    let (w, h) = CairoPainter.deviceSize(list, scale: scale)
    let bands = max(1, min(threads, w * h / minimumPixelsPerBand, h))
    if bands == 1, let painter {
      // One band on the calling thread, with its painter (a worker of an animation).
      let encoder = PNGEncoder(threads: 1)
      let image = try painter.raster(list, scale: scale)
      return try encoder.assemble(width: w, height: h, opaque: list.background.a >= 1,
                                  stripes: [try encoder.encodeStripe(image, firstRowIsAbove: false, opaque: list.background.a >= 1, last: true)])
    }
    let opaque = list.background.a >= 1
    let encoder = PNGEncoder(threads: 1)
    let results = Slots<Result<PNGEncoder.Stripe, Error>>(count: bands)
    let bounds = (0...bands).map { h * $0 / bands }
    DispatchQueue.concurrentPerform(iterations: bands) { k in
      results[k] = Result {
        let painter = CairoPainter(text: PangoText())
        // Paint one row above the band too: the "up" filter needs the row above.
        let first = max(0, bounds[k] - 1)
        let band = try painter.raster(list, scale: scale, rows: first..<bounds[k + 1])
        return try encoder.encodeStripe(band, firstRowIsAbove: first < bounds[k], opaque: opaque, last: k == bands - 1)
      }
    }
    let stripes = try (0..<bands).map { try results[$0]!.get() }
    return try encoder.assemble(width: w, height: h, opaque: opaque, stripes: stripes)
  }
}

/// Write-once slots filled from concurrent iterations (each index by one iteration).
final class Slots<T>: @unchecked Sendable {
  private let items: UnsafeMutablePointer<T?>
  private let count: Int
  init(count: Int) {
    self.count = count
    items = .allocate(capacity: count)
    items.initialize(repeating: nil, count: count)
  }
  deinit {
    items.deinitialize(count: count)
    items.deallocate()
  }
  subscript(i: Int) -> T? {
    get { items[i] }
    set { items[i] = newValue }
  }
}
