import CPNG
import Drawing
import Glibc
import Platform

/// Animated PNG written by this process (CPNG's apng.c): 8-bit RGBA, lossless, every frame
/// after the first only the rectangle that changed since the frame before, through zlib. It
/// streams onto a temporary file in the output's folder (memory does not grow with the
/// number of frames) and is put in place when complete. (It replaced ffmpeg's APNG encoder: cards.lua took 11.8 s of wall time and 13.9 s
/// of CPU that way.)
public final class APNGEncoder: FrameEncoder {
  let path: String
  let fps: Double
  let temp: String
  var fd: Int32
  var apng: OpaquePointer?
  var size: (Int, Int) = (0, 0)
  var finished = false

  public init(path: String, fps: Double) throws(FFmpegEncoder.EncodeError) {
    self.path = path
    self.fps = fps
    (temp, fd) = try FFmpegEncoder.temporary(beside: path)
  }

  deinit {
    if !finished { cancel() }
    cs_apng_free(apng)
  }

  /// A frame's duration as APNG holds it (a fraction of two 16-bit numbers): 1/fps for a
  /// whole rate, else fps's closest fraction with a numerator of 1000 (29.97 fps: 1000/29970 s).
  static func delay(fps: Double) -> (num: UInt32, den: UInt32) {
    if fps == fps.rounded(), fps >= 1, fps <= 65535 { return (1, UInt32(fps)) }
    let den = (fps * 1000).rounded()
    if den >= 1, den <= 65535 { return (1000, UInt32(den)) }
    let whole = max(1, min(65535, fps.rounded()))
    return (1, UInt32(whole))
  }

  func failure(_ reason: String) -> FFmpegEncoder.EncodeError {
    cancel()
    return FFmpegEncoder.EncodeError(description: "cannot write '\(path)': \(reason)")
  }

  public func write(_ image: RasterImage) throws(FFmpegEncoder.EncodeError) {
    guard !finished else { throw FFmpegEncoder.EncodeError(description: "cannot write '\(path)': the APNG was stopped") }
    if apng == nil {
      let d = APNGEncoder.delay(fps: fps)
      var e: Int32 = 0
      apng = cs_apng_open(fd, Int32(clamping: image.width), Int32(clamping: image.height), d.num, d.den, &e)
      guard apng != nil else { throw failure(String(cString: strerror(e))) }
      size = (image.width, image.height)
    }
    guard size == (image.width, image.height) else { throw failure("a frame of \(image.width)x\(image.height) in an APNG of \(size.0)x\(size.1)") }
    let e = image.pixels.withUnsafeBytes { cs_apng_frame(apng, $0.baseAddress!.assumingMemoryBound(to: UInt8.self), image.stride) }
    if e != 0 { throw failure(String(cString: strerror(e))) }
  }

  public func finish() throws(FFmpegEncoder.EncodeError) {
    guard !finished else { throw FFmpegEncoder.EncodeError(description: "cannot write '\(path)': the APNG was stopped before it was complete") }
    guard let apng else { throw failure("no frames") }
    var e = cs_apng_finish(apng)
    if close(fd) != 0 && e == 0 { e = errno }
    fd = -1
    if e != 0 { throw failure(String(cString: strerror(e))) }
    finished = true
    if let reason = TempFiles.commit(temp, to: path) { throw FFmpegEncoder.EncodeError(description: "cannot write '\(path)': \(reason)") }
  }

  public func cancel() {
    guard !finished else { return }
    finished = true
    if fd >= 0 { close(fd); fd = -1 }
    TempFiles.discard(temp)
  }
}
