import CFrames
import Drawing
import Glibc

/// MP4 encoded by x264 in this process (`CFrames/h264.c`: the libx264 ffmpeg itself uses,
/// with the options ffmpeg would be given, so the very frames ffmpeg's x264 makes) and
/// written by `MP4Writer`: no ffmpeg at all. W6's frames no longer cross a pipe (790 MB for
/// ffmpeg to copy out of it; CPU 2.34 → 1.89 s with the options' change), nor does its
/// H.264 (ffmpeg's start alone was ~75 ms of CPU).
///
/// For MP4 of even sides at a whole number of frames a second, where libx264 loads
/// (`FFmpegEncoder.encoder` decides; otherwise ffmpeg encodes).
public final class H264Encoder: FrameEncoder {
  let path: String
  let settings: (width: Int, height: Int, fps: Double, metadata: [(String, String)])
  var x264: OpaquePointer?
  let writer: MP4Writer
  var yuvBuffer: [UInt8] = []
  var finished = false

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
  }

  deinit { if !finished { cancel() } }

  public var conversion: FrameConversion? { FrameConversion() }

  public func write(_ image: RasterImage) throws(FFmpegEncoder.EncodeError) {
    let count = image.width * image.height * 3 / 2
    if yuvBuffer.count != count { yuvBuffer = [UInt8](repeating: 0, count: count) }
    YUV.convert(image, into: &yuvBuffer)
    try encode(yuvBuffer)
  }

  public func write(converted bytes: [UInt8]) throws(FFmpegEncoder.EncodeError) { try encode(bytes) }

  /// `frame` (Y, U, V planes; nil: one of the frames x264 still holds) through x264, its
  /// access unit into the MP4.
  func encode(_ frame: [UInt8]?) throws(FFmpegEncoder.EncodeError) {
    guard let e = x264 else { throw FFmpegEncoder.EncodeError(description: "x264 was stopped before '\(path)' was complete") }
    var out: UnsafePointer<UInt8>? = nil
    var size = 0
    let rc = frame.map { f in f.withUnsafeBufferPointer { cframes_h264_encode(e, $0.baseAddress, &out, &size) } } ?? cframes_h264_encode(e, nil, &out, &size)
    if rc != 0 {
      cancel()
      throw FFmpegEncoder.EncodeError(description: "x264 failed encoding a frame of '\(path)'")
    }
    guard let out, size > 0 else { return }
    do { try writer.append(annexB: UnsafeRawBufferPointer(start: out, count: size)) } catch {
      cancel()
      throw FFmpegEncoder.EncodeError(description: "cannot write '\(path)': \(error.reason)")
    }
  }

  public func finish() throws(FFmpegEncoder.EncodeError) {
    guard !finished, let e = x264 else { throw FFmpegEncoder.EncodeError(description: "x264 was stopped before '\(path)' was complete") }
    // The frames x264 still holds (its threads keep one or two).
    while cframes_h264_delayed(e) > 0 { try encode(nil) }
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
    cframes_h264_close(x264)
    x264 = nil
    guard !finished else { return }
    finished = true
    writer.discard()
  }
}
