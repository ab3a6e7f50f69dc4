import CFrames
import Drawing
import Glibc
import Platform

/// Something that takes an animation's frames in order and writes one file at the end.
public protocol FrameEncoder: AnyObject {
  func write(_ image: RasterImage) throws(FFmpegEncoder.EncodeError)
  /// How a frame becomes the bytes `write(converted:)` sends, done on the thread that painted
  /// it (nil: frames go to `write(_:)` as they are).
  var conversion: FrameConversion? { get }
  /// A frame made by `conversion`, in order.
  func write(converted bytes: [UInt8]) throws(FFmpegEncoder.EncodeError)
  /// Writes the file (under its final name) once every frame was given.
  func finish() throws(FFmpegEncoder.EncodeError)
  /// Stops and removes what was written.
  func cancel()
}

extension FrameEncoder {
  public var conversion: FrameConversion? { nil }
  public func write(converted bytes: [UInt8]) throws(FFmpegEncoder.EncodeError) {
    throw FFmpegEncoder.EncodeError(description: "this encoder takes frames as images")
  }
}

/// Cairo frames to planar YUV 4:2:0 (`YUV`), on any thread.
public struct FrameConversion: Sendable {
  /// The frame's bytes, in `spare` when it is of the right size (the bytes of a frame
  /// already written, that nothing else holds).
  public func convert(_ image: RasterImage, reusing spare: consuming [UInt8]) -> [UInt8] {
    var out = consume spare
    let count = image.width * image.height * 3 / 2
    if out.count != count { out = [UInt8](repeating: 0, count: count) }
    image.pixels.withUnsafeBytes { src in
      out.withUnsafeMutableBytes { dst in
        YUV.rows(src.baseAddress!, width: image.width, height: image.height, stride: image.stride, into: dst.baseAddress!, pairs: 0..<image.height / 2)
      }
    }
    return out
  }
}

extension FFmpegEncoder: FrameEncoder {
  /// YUV 4:2:0 for MP4 and WebM of even sides.
  public var conversion: FrameConversion? { yuv ? FrameConversion() : nil }

  /// A frame larger than the pipe goes in as its pages (vmsplice: no copy into pages of the
  /// pipe's own, W6's system time 0.36 → 0.29 s, 3% of its CPU): `bytes` stays held here
  /// until the next frame is in the pipe, which, being larger than the pipe, can only be in
  /// it once ffmpeg has read all of this one; the last until ffmpeg has exited. The caller's
  /// next conversion goes into buffers of frames before this one. Smaller frames, or a
  /// kernel that refuses, are copied (write).
  public func write(converted bytes: [UInt8]) throws(EncodeError) {
    var failure: Int32 = 0
    if bytes.count > pipeCapacity && splices {
      var written = 0
      failure = bytes.withUnsafeBytes { cframes_vmsplice_all(stdin, $0.baseAddress, $0.count, &written) }
      if failure == 0 {
        spliced = bytes
      } else if written == 0 && (failure == EINVAL || failure == ENOSYS) {
        splices = false
        failure = bytes.withUnsafeBytes { writeAll(stdin, $0) }
      }
    } else {
      failure = bytes.withUnsafeBytes { writeAll(stdin, $0) }
    }
    if failure != 0 {
      cancel()
      throw EncodeError(description: "ffmpeg stopped taking frames (\(String(cString: strerror(failure))))\(reason())")
    }
  }
}

/// Animated GIF with one palette made from every frame, written by this process (CFrames'
/// gif.c), in memory that does not grow with the number of frames: each frame goes, as the
/// pixels that changed since the frame before (runs of one colour), onto a temporary file in
/// the output's folder, and its colours into a histogram; when the frames are complete, the
/// palette is made from the histogram, and the frames are read back, dithered to it and
/// written. The output is the same bytes on every run. (It replaced two ffmpeg runs over the
/// frames as PNGs, palettegen and paletteuse: cards.lua's 285 frames took 11.8 s of CPU.)
public final class GIFEncoder: FrameEncoder {
  let path: String
  let fps: Double
  /// The frames as `cframes_gif_add` stores them.
  let frames: String
  var framesFD: Int32
  let temp: String
  var gif: OpaquePointer?
  var size: (Int, Int) = (0, 0)
  var finished = false

  public init(path: String, fps: Double) throws(FFmpegEncoder.EncodeError) {
    self.path = path
    self.fps = fps
    (frames, framesFD) = try FFmpegEncoder.temporary(beside: path)
    do {
      let file = try FFmpegEncoder.temporary(beside: path)
      temp = file.name
      close(file.fd)
    } catch {
      close(framesFD)
      TempFiles.discard(frames)
      throw error
    }
  }

  deinit {
    if !finished { cancel() }
    cframes_gif_close(gif)
  }

  func failure(_ reason: String) -> FFmpegEncoder.EncodeError {
    cancel()
    return FFmpegEncoder.EncodeError(description: "cannot write '\(path)': \(reason)")
  }

  public func write(_ image: RasterImage) throws(FFmpegEncoder.EncodeError) {
    guard !finished else { throw FFmpegEncoder.EncodeError(description: "cannot write '\(path)': the GIF was stopped") }
    if gif == nil {
      gif = cframes_gif_open(Int32(clamping: image.width), Int32(clamping: image.height), framesFD)
      guard gif != nil else { throw failure("frames of \(image.width)x\(image.height) are too large for a GIF") }
      size = (image.width, image.height)
    }
    guard size == (image.width, image.height) else { throw failure("a frame of \(image.width)x\(image.height) in a GIF of \(size.0)x\(size.1)") }
    let e = image.pixels.withUnsafeBytes { cframes_gif_add(gif, $0.baseAddress!.assumingMemoryBound(to: UInt8.self), image.stride) }
    if e != 0 { throw failure(String(cString: strerror(e))) }
  }

  public func finish() throws(FFmpegEncoder.EncodeError) {
    guard !finished else { throw FFmpegEncoder.EncodeError(description: "cannot write '\(path)': the GIF was stopped before it was complete") }
    guard let gif else { throw failure("no frames") }
    let out = open(temp, O_WRONLY | O_TRUNC | O_CLOEXEC)
    guard out >= 0 else { throw failure(String(cString: strerror(errno))) }
    var e = cframes_gif_finish(gif, out, fps)
    if close(out) != 0 && e == 0 { e = errno }
    if e != 0 { throw failure(String(cString: strerror(e))) }
    finished = true
    close(framesFD)
    framesFD = -1
    TempFiles.discard(frames)
    if let reason = TempFiles.commit(temp, to: path) { throw FFmpegEncoder.EncodeError(description: "cannot write '\(path)': \(reason)") }
  }

  public func cancel() {
    guard !finished else { return }
    finished = true
    if framesFD >= 0 { close(framesFD); framesFD = -1 }
    for p in [frames, temp] { TempFiles.discard(p) }
  }
}
