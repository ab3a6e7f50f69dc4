import CFrames
import Dispatch
import Drawing
import Glibc
import Platform

/// MP4 encoded by x264 in this process (`CFrames/h264.c`: the libx264 ffmpeg itself uses,
/// with the options ffmpeg would be given, so the very frames ffmpeg's x264 makes) and
/// written by `MP4Writer`: no ffmpeg at all. W6's frames no longer cross a pipe (790 MB for
/// ffmpeg to copy out of it; CPU 2.34 → 1.89 s with the options' change), nor does its
/// H.264 (ffmpeg's start alone was ~75 ms of CPU).
///
/// For MP4 of even sides at a whole number of frames a second, where libx264 loads
/// (`FFmpegEncoder.encoder` decides; otherwise ffmpeg encodes).
public final class H264Encoder: FrameEncoder, @unchecked Sendable {
  let path: String
  let settings: (width: Int, height: Int, fps: Double, metadata: [(String, String)])
  var x264: OpaquePointer?
  let writer: MP4Writer
  var finished = false
  /// x264 runs on a queue of its own, up to two frames behind the caller, which meanwhile
  /// runs the script and builds the next frames: W6 without it (x264 called on the render's
  /// thread, as when ffmpeg wrote the MP4) took 1.49–1.50 s of wall time against 1.35 with it
  /// (medians of 6, the machine otherwise idle), the same CPU and bytes.
  let queue = DispatchQueue(label: "chartscene.h264")
  let slots = DispatchSemaphore(value: 0)
  /// The first failure on `queue` (reported by the next call).
  let failure = PosixLocked<FFmpegEncoder.EncodeError?>(nil)

  /// nil where x264 does not load or refuses the size (ffmpeg encodes then).
  init?(path: String, width: Int, height: Int, fps: Int, metadata: [(String, String)]) throws(FFmpegEncoder.EncodeError) {
    var why = [CChar](repeating: 0, count: 256)
    let options = FFmpegEncoder.x264Options(keyframeInterval: FFmpegEncoder.keyframeInterval(fps: Double(fps)))
    guard let x = cframes_h264_open(Int32(width), Int32(height), Int32(fps), "superfast", 23, 2, options, &why, UInt(why.count)) else { return nil }
    do {
      writer = try MP4Writer(beside: path, width: width, height: height, fps: fps, metadata: metadata)
    } catch {
      cframes_h264_close(x)
      throw FFmpegEncoder.EncodeError(description: "cannot write '\(path)': \(error.reason)")
    }
    self.path = path
    settings = (width, height, Double(fps), metadata)
    x264 = x
    for _ in 0..<2 { slots.signal() }
  }

  /// Dropped without `finish` or `cancel`: every block on `queue` holds the encoder, so none
  /// is left (the last one may be running this, on `queue`: no waiting for it here).
  deinit {
    guard !finished else { return }
    cframes_h264_close(x264)
    writer.discard()
  }

  public var conversion: FrameConversion? { FrameConversion() }

  public func write(_ image: RasterImage) throws(FFmpegEncoder.EncodeError) {
    var buffer = [UInt8](repeating: 0, count: image.width * image.height * 3 / 2)
    YUV.convert(image, into: &buffer)
    try write(converted: buffer)
  }

  public func write(converted bytes: [UInt8]) throws(FFmpegEncoder.EncodeError) {
    if let e = failure.withLock({ $0 }) { cancel(); throw e }
    guard !finished else { throw FFmpegEncoder.EncodeError(description: "x264 was stopped before '\(path)' was complete") }
    slots.wait()
    queue.async { [self] in
      defer { slots.signal() }
      guard failure.withLock({ $0 }) == nil else { return }
      do throws(FFmpegEncoder.EncodeError) { try encode(bytes) } catch { failure.withLock { if $0 == nil { $0 = error } } }
    }
  }

  /// `frame` (Y, U, V planes; nil: one of the frames x264 still holds) through x264, its
  /// access unit into the MP4.
  func encode(_ frame: [UInt8]?) throws(FFmpegEncoder.EncodeError) {
    guard let e = x264 else { throw FFmpegEncoder.EncodeError(description: "x264 was stopped before '\(path)' was complete") }
    var out: UnsafePointer<UInt8>? = nil
    var size = 0
    let rc = frame.map { f in f.withUnsafeBufferPointer { cframes_h264_encode(e, $0.baseAddress, &out, &size) } } ?? cframes_h264_encode(e, nil, &out, &size)
    if rc != 0 { throw FFmpegEncoder.EncodeError(description: "x264 failed encoding a frame of '\(path)'") }
    guard let out, size > 0 else { return }
    do { try writer.append(annexB: UnsafeRawBufferPointer(start: out, count: size)) } catch {
      throw FFmpegEncoder.EncodeError(description: "cannot write '\(path)': \(error.reason)")
    }
  }

  public func finish() throws(FFmpegEncoder.EncodeError) {
    queue.sync {}
    if let e = failure.withLock({ $0 }) { cancel(); throw e }
    guard !finished, let e = x264 else { throw FFmpegEncoder.EncodeError(description: "x264 was stopped before '\(path)' was complete") }
    // The frames x264 still holds (its threads keep one or two).
    do { while cframes_h264_delayed(e) > 0 { try encode(nil) } } catch { cancel(); throw error }
    cframes_h264_close(e)
    x264 = nil
    finished = true
    if writer.isEmpty {
      // No frame: ffmpeg's own encoder, started for none, writes the MP4 of no frames (a
      // video stream without samples, as an empty `--shard` segment is).
      writer.discard()
      let plain = try FFmpegEncoder(path: path, format: .mp4, width: settings.width, height: settings.height, fps: settings.fps, metadata: settings.metadata)
      return try plain.finish()
    }
    do { try writer.finish(to: path) } catch { throw FFmpegEncoder.EncodeError(description: "cannot write '\(path)': \(error.reason)") }
  }

  public func cancel() {
    failure.withLock { if $0 == nil { $0 = FFmpegEncoder.EncodeError(description: "x264 was stopped before '\(path)' was complete") } }
    queue.sync {}
    cframes_h264_close(x264)
    x264 = nil
    guard !finished else { return }
    finished = true
    writer.discard()
  }
}
