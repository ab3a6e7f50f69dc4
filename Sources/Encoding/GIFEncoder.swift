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

/// Animated GIF with one palette made from every frame, in memory that does not grow with
/// the number of frames. ffmpeg's `palettegen` gives its palette only after the last frame,
/// so a one-pass `split, palettegen, paletteuse` graph holds every frame until then
/// (600 frames of 1000×1000 were 2.4 GB of BGRA). Here each frame is compressed as a PNG
/// (CPNG: fast, lossless) onto a temporary file in the output's folder; when the frames
/// are complete, one ffmpeg makes the palette from that file and a second maps the frames
/// to it. Both stream the frames, and the output is the same bytes on every run.
public final class GIFEncoder: FrameEncoder {
  let path: String
  let fps: Double
  /// The frames, one PNG after another (ffmpeg's `image2pipe` reads them back).
  let frames: String
  var framesFD: Int32
  let palette: String
  let temp: String
  var finished = false

  public init(path: String, fps: Double) throws(FFmpegEncoder.EncodeError) {
    self.path = path
    self.fps = fps
    var made: [String] = []
    func tempFile() throws(FFmpegEncoder.EncodeError) -> (String, Int32) {
      switch TempFiles.beside(path) {
      case .success(let file):
        made.append(file.name)
        return file
      case .failure(let e):
        for p in made { TempFiles.discard(p) }
        throw FFmpegEncoder.EncodeError(description: "cannot write '\(path)': \(e.reason)")
      }
    }
    let (f, fd) = try tempFile()
    frames = f
    framesFD = fd
    let (p, pfd) = try tempFile()
    close(pfd)
    palette = p
    let (t, tfd) = try tempFile()
    close(tfd)
    temp = t
  }

  deinit { if !finished { cancel() } }

  public func write(_ image: RasterImage) throws(FFmpegEncoder.EncodeError) {
    let png: [UInt8]
    do { png = try PNGEncoder(threads: 1).encode(image) } catch {
      cancel()
      throw FFmpegEncoder.EncodeError(description: "cannot write '\(path)': \(error)")
    }
    let failure = png.withUnsafeBytes { writeAll(framesFD, $0) }
    if failure != 0 {
      cancel()
      throw FFmpegEncoder.EncodeError(description: "cannot write '\(path)': \(String(cString: strerror(failure)))")
    }
  }

  public func finish() throws(FFmpegEncoder.EncodeError) {
    guard !finished else { throw FFmpegEncoder.EncodeError(description: "ffmpeg was stopped before '\(path)' was complete") }
    close(framesFD)
    framesFD = -1
    let input = ["-f", "image2pipe", "-c:v", "png", "-framerate", FFmpegEncoder.rate(fps), "-i", frames]
    do {
      // The theme's background is an exact palette colour, so it shows no banding.
      try FFmpegEncoder.run(input + ["-vf", "palettegen=stats_mode=full:reserve_transparent=0", "-frames:v", "1", "-update", "1",
                                     "-c:v", "png", "-f", "image2", palette], output: path, temp: palette)
      try FFmpegEncoder.run(input + ["-f", "image2pipe", "-c:v", "png", "-i", palette,
                                     "-filter_complex", "[0:v][1:v]paletteuse=dither=sierra2_4a", "-loop", "0", "-f", "gif", temp],
                            output: path, temp: temp)
    } catch {
      cancel()
      throw error
    }
    finished = true
    for p in [frames, palette] { TempFiles.discard(p) }
    if let reason = TempFiles.commit(temp, to: path) { throw FFmpegEncoder.EncodeError(description: "cannot write '\(path)': \(reason)") }
  }

  public func cancel() {
    guard !finished else { return }
    finished = true
    if framesFD >= 0 { close(framesFD); framesFD = -1 }
    for p in [frames, palette, temp] { TempFiles.discard(p) }
  }
}

extension FFmpegEncoder {
  /// Runs ffmpeg with `args` (after the common options) on files, and waits for it. Any line
  /// it prints is a failure, named with `output` in place of `temp`.
  static func run(_ args: [String], output: String, temp: String) throws(EncodeError) {
    let (ok, line) = runToEnd(["ffmpeg", "-hide_banner", "-loglevel", "error", "-nostdin", "-y"] + args)
    guard ok else {
      if let line, line.hasPrefix("cannot run ffmpeg") { throw EncodeError(description: line) }
      let reason = line.map { ": " + $0.replacing(temp, with: output) } ?? ""
      throw EncodeError(description: "ffmpeg failed writing '\(output)'\(reason)")
    }
  }
}
