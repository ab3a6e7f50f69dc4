import CCairo
import Glibc
import Drawing

/// Vector formats cairo writes.
public enum VectorFormat: Sendable { case svg, pdf }

/// Errors from cairo.
public struct CairoError: Error, CustomStringConvertible {
  public var description: String
}

extension CairoPainter {
  /// The device size of a display list at a scale.
  public static func deviceSize(_ list: DisplayList, scale: Double) -> (width: Int, height: Int) {
    (Int((list.size.width * scale).rounded()), Int((list.size.height * scale).rounded()))
  }

  /// Paints a display list into pixels at `scale` device pixels per scene pixel.
  public func raster(_ list: DisplayList, scale: Double) throws -> RasterImage {
    try raster(list, scale: scale, rows: 0..<CairoPainter.deviceSize(list, scale: scale).height)
  }

  /// The same, painted into `spare` (the pixels of an earlier frame that nothing else holds)
  /// when it is of the right size: an animation's frames reuse a few buffers instead of
  /// having the kernel map and zero 3.7 MB of new pages for each frame of 1280x720.
  public func raster(_ list: DisplayList, scale: Double, reusing spare: consuming [UInt8]) throws -> RasterImage {
    try raster(list, scale: scale, rows: 0..<CairoPainter.deviceSize(list, scale: scale).height, reusing: spare)
  }

  /// Paints only the device rows `rows` of a display list (one band of the image).
  public func raster(_ list: DisplayList, scale: Double, rows: Range<Int>, reusing spare: consuming [UInt8] = []) throws -> RasterImage {
    let w = CairoPainter.deviceSize(list, scale: scale).width, h = rows.count
    guard w > 0, h > 0 else { throw CairoError(description: "the image would be empty (\(w)x\(h) pixels)") }
    let stride = Int(cairo_format_stride_for_width(CAIRO_FORMAT_ARGB32, Int32(w)))
    var status = CAIRO_STATUS_SUCCESS
    // Whatever is in the buffer (nothing yet, or an earlier frame): the background is
    // painted over every pixel first.
    func draw(_ base: UnsafeMutablePointer<UInt8>) {
      let surface = cairo_image_surface_create_for_data(base, CAIRO_FORMAT_ARGB32, Int32(w), Int32(h), Int32(stride))
      let cr = cairo_create(surface)!
      cairo_translate(cr, 0, -Double(rows.lowerBound))
      cairo_scale(cr, scale, scale)
      paint(list, on: cr, raster: scale)
      cairo_surface_flush(surface)
      status = cairo_status(cr)
      cairo_destroy(cr)
      cairo_surface_destroy(surface)
    }
    var pixels = consume spare
    if pixels.count == stride * h {
      pixels.withUnsafeMutableBufferPointer { draw($0.baseAddress!) }
    } else {
      pixels = [UInt8](unsafeUninitializedCapacity: stride * h) { buf, count in
        draw(buf.baseAddress!)
        count = stride * h
      }
    }
    if status != CAIRO_STATUS_SUCCESS { throw CairoError(description: "cairo: " + String(cString: cairo_status_to_string(status))) }
    return RasterImage(width: w, height: h, stride: stride, pixels: pixels)
  }

  /// Paints a display list as an SVG or PDF document and returns its bytes; past `limit`
  /// bytes cairo is told the write failed (it stops) and the error says how large it got.
  /// `info`: the title, description and series for readers who do not see the picture (the
  /// PDF's Title and Subject; the SVG's `<title>`, `<desc>`, series groups and texts,
  /// `ReadableSVG`).
  public func vector(_ list: DisplayList, scale: Double, format: VectorFormat, limit: Int = .max, info: DocumentInfo? = nil) throws -> [UInt8] {
    let w = list.size.width * scale, h = list.size.height * scale
    let sink = ByteSink(limit: limit)
    let unmanaged = Unmanaged.passRetained(sink)
    defer { unmanaged.release() }
    let write: cairo_write_func_t = { closure, data, length in
      guard let closure, let data else { return CAIRO_STATUS_WRITE_ERROR }
      let sink = Unmanaged<ByteSink>.fromOpaque(closure).takeUnretainedValue()
      guard sink.bytes.count + Int(length) <= sink.limit else { sink.overflowed = true; return CAIRO_STATUS_WRITE_ERROR }
      sink.bytes.append(contentsOf: UnsafeBufferPointer(start: data, count: Int(length)))
      return CAIRO_STATUS_SUCCESS
    }
    let surface: OpaquePointer?
    switch format {
    case .svg:
      surface = cairo_svg_surface_create_for_stream(write, unmanaged.toOpaque(), w, h)
      cairo_svg_surface_restrict_to_version(surface, CAIRO_SVG_VERSION_1_1)
      // In CSS pixels, as the PNG: in points (cairo's default) a browser shows it 4/3 larger.
      cairo_svg_surface_set_document_unit(surface, CAIRO_SVG_UNIT_PX)
    case .pdf:
      surface = cairo_pdf_surface_create_for_stream(write, unmanaged.toOpaque(), w, h)
      cairo_pdf_surface_set_metadata(surface, CAIRO_PDF_METADATA_CREATOR, "chartscene")
      if let info {
        cairo_pdf_surface_set_metadata(surface, CAIRO_PDF_METADATA_TITLE, ReadableSVG.plain(info.title))
        cairo_pdf_surface_set_metadata(surface, CAIRO_PDF_METADATA_SUBJECT, ReadableSVG.plain(info.description))
      }
      // Reproducible builds' convention: SOURCE_DATE_EPOCH fixes the creation date, so the
      // same scene gives the same bytes (otherwise it is the time of the render).
      if let epoch = CairoOutput.sourceDateEpoch() {
        cairo_pdf_surface_set_metadata(surface, CAIRO_PDF_METADATA_CREATE_DATE, epoch)
      }
    }
    guard let surface else { throw CairoError(description: "cairo could not create the document") }
    let cr = cairo_create(surface)!
    cairo_scale(cr, scale, scale)
    paint(list, on: cr)
    cairo_show_page(cr)
    let status = cairo_status(cr)
    cairo_destroy(cr)
    cairo_surface_finish(surface)
    let surfaceStatus = cairo_surface_status(surface)
    cairo_surface_destroy(surface)
    if sink.overflowed { throw CairoError(description: "the document would be larger than \(OutputLimit.text(limit)) (--max-output)") }
    for s in [status, surfaceStatus] where s != CAIRO_STATUS_SUCCESS {
      throw CairoError(description: "cairo: " + String(cString: cairo_status_to_string(s)))
    }
    guard format == .svg, let info else { return sink.bytes }
    let annotated = ReadableSVG.annotate(sink.bytes, list: list, scale: scale, info: info, text: text)
    if annotated.count > limit { throw CairoError(description: "the document would be larger than \(OutputLimit.text(limit)) (--max-output)") }
    return annotated
  }
}

final class ByteSink {
  var bytes: [UInt8] = []
  let limit: Int
  var overflowed = false
  init(limit: Int) { self.limit = limit }
}

/// The size of one output file (`--max-output`), as messages say it.
public enum OutputLimit {
  public static let defaultBytes = 512 << 20
  /// `512 MiB`, `3.5 GiB`, `100 KiB`.
  public static func text(_ bytes: Int) -> String {
    for (unit, size) in [("GiB", 1 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10)] where bytes >= size {
      let v = Double(bytes) / Double(size)
      return (v == v.rounded() ? String(Int(v)) : String((v * 10).rounded() / 10)) + " " + unit
    }
    return "\(bytes) bytes"
  }
}

enum CairoOutput {
  /// SOURCE_DATE_EPOCH (seconds since 1970) as an ISO 8601 date, or nil when unset or bad.
  static func sourceDateEpoch() -> String? {
    guard let raw = getenv("SOURCE_DATE_EPOCH"), let seconds = Int(String(cString: raw)), seconds >= 0 else { return nil }
    var t = time_t(seconds)
    var parts = tm()
    guard gmtime_r(&t, &parts) != nil else { return nil }
    var buf = [CChar](repeating: 0, count: 32)
    guard strftime(&buf, buf.count, "%Y-%m-%dT%H:%M:%SZ", &parts) > 0 else { return nil }
    return String(decoding: buf.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
  }
}
