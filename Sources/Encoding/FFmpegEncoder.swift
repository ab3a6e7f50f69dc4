import CFrames
import Dispatch
import Drawing
import Glibc
import Synchronization
import Platform

/// Encodes frames into GIF, WebP, APNG, MP4 or WebM by feeding raw pixels to an `ffmpeg`
/// child process. The file is written under a temporary name in the same folder and renamed
/// only when ffmpeg succeeds; on failure nothing is left and an earlier file is untouched.
/// An MP4 at a whole number of frames a second is made without ffmpeg where libx264 loads
/// (`H264Encoder`; `encoder(...)` chooses).
public final class FFmpegEncoder {
  public enum Format: String, CaseIterable, Sendable { case gif, webp, apng, mp4, webm }

  public struct EncodeError: Error, CustomStringConvertible {
    public var description: String
  }

  let path: String
  let temp: String
  let pid: pid_t
  let stdin: Int32
  /// What ffmpeg printed (errors only): it can exit 0 after failing to write the file (a
  /// full disk), so any line here is a failure.
  let log = Log()
  var finished = false
  /// MP4 and WebM of even sides get their frames as YUV 4:2:0, converted here on two
  /// threads (`YUV.swift`): ffmpeg's own conversion from BGRA ran on one thread and took as
  /// long as the encoding. Other formats and odd sides get BGRA.
  let yuv: Bool
  var yuvBuffer: [UInt8] = []
  /// The pipe's size in bytes, as the kernel gives it after the sizing in `init`.
  var pipeCapacity = 1 << 16
  /// Whether frames larger than the pipe go in by vmsplice (`write(converted:)`).
  var splices = true
  /// The last frame handed to the pipe by vmsplice: held until ffmpeg has read it.
  var spliced: [UInt8]? = nil

  final class Log: Sendable {
    let text = Mutex<[UInt8]>([])
    let done = DispatchSemaphore(value: 0)
    /// Reads `fd` to its end on a thread of its own, then closes it.
    func drain(_ fd: Int32) {
      DispatchQueue.global().async {
        var buf = [UInt8](repeating: 0, count: 4096)
        while true {
          let n = buf.withUnsafeMutableBytes { read(fd, $0.baseAddress!, $0.count) }
          if n < 0 && errno == EINTR { continue }
          if n <= 0 { break }
          self.text.withLock { if $0.count < 1 << 16 { $0 += buf[0..<n] } }
        }
        close(fd)
        self.done.signal()
      }
    }
    /// The first line, after ffmpeg has exited.
    func firstLine() -> String? {
      done.wait()
      done.signal()
      let s = text.withLock { String(decoding: $0, as: UTF8.self) }
      return s.split(separator: "\n").first.map(String.init)
    }
  }

  /// Starts ffmpeg for frames of `width`×`height` device pixels at `fps`. `metadata` goes into
  /// the container (MP4 and WebM; keys starting with `chartscene_` are kept in an MP4 as
  /// they are, with `-movflags use_metadata_tags`).
  public init(path: String, format: Format, width: Int, height: Int, fps: Double, metadata: [(String, String)] = []) throws(EncodeError) {
    self.path = path
    let made = try FFmpegEncoder.temporary(beside: path)
    close(made.fd)
    temp = made.name

    let yuv = (format == .mp4 || format == .webm) && width % 2 == 0 && height % 2 == 0
    self.yuv = yuv
    let x264Options = FFmpegEncoder.x264Options(keyframeInterval: FFmpegEncoder.keyframeInterval(fps: fps))
    var args = ["ffmpeg", "-hide_banner", "-loglevel", "error", "-y"]
    args += ["-f", "rawvideo", "-pix_fmt", yuv ? "yuv420p" : "bgra", "-s", "\(width)x\(height)", "-r", FFmpegEncoder.rate(fps), "-i", "pipe:0"]
    let even = yuv ? "null" : "pad=ceil(iw/2)*2:ceil(ih/2)*2"
    switch format {
    case .mp4:
      // Cut-friendly: a closed group of pictures every second (a keyframe every
      // `keyframeInterval` frames), a constant quantiser and no B-frames, on a fixed number
      // of threads: each group is encoded from its own frames alone, the same bytes on any
      // machine, so segments rendered apart (`--shard`) join (`concat`) into the very
      // frames of a one-process render. No weighted prediction (`weightp=0`): it finds
      // fades of the whole picture, which charts hardly have, and its search cost 11% of
      // x264's time on W6; of seven test videos, five decode to the very same frames
      // without it, the two with fades (cards, carousel) to the same quality (PSNR) and
      // within 0.4% of the size. No deblocking filter (`no-deblock`): it smooths the edges
      // of blocks, and a chart's edges are sharp lines and text, so its pictures come out as
      // close to the frames without it (W6: +3.1 dB PSNR, 2% smaller; of seven test videos the
      // PSNR moved by −0.26 to +0.21 dB otherwise, SSIM by at most 0.0004, sizes −2% to +1.4%),
      // and it took 6% of ffmpeg's CPU time on W6 (bench/README.md).
      // Whole-pixel motion vectors (`subme=0`: no half-pixel planes to interpolate for each
      // frame, no sub-pixel search) over two reference frames (`ref=2`), 8x8 motion blocks
      // (`partitions=p8x8,i4x4`) and 4x4 transforms only (`8x8dct=0`: less ringing around
      // sharp edges without deblocking): x264 takes 15% less CPU on W6, and of seven test
      // videos three come out 8–15% smaller, four 0.3–6.5% larger, the PSNR within −0.14 to
      // +0.36 dB, the SSIM as good or better (`subme=0` alone: 16–19% larger; bench/README.md).
      // Its two threads each encode half of every frame (`sliced-threads=1`) rather than
      // frames in turn: no frame waits for the one before it to be half done, so x264 keeps
      // pace with the painting on two cores (W6: 0.75 of the wall time, 0.94 of the CPU,
      // paired, farm-bench -n 9) for a file 2.9% larger (two slices predict a little less);
      // the same bytes on any machine, as before.
      args += ["-vf", even, "-c:v", "libx264", "-pix_fmt", "yuv420p", "-preset", "superfast", "-qp", "23", "-threads", "2",
               "-x264-params", x264Options,
               "-movflags", metadata.contains { $0.0.hasPrefix("chartscene_") } ? "+faststart+use_metadata_tags" : "+faststart", "-f", "mp4"]
    case .webm:
      args += ["-vf", even, "-c:v", "libvpx-vp9", "-pix_fmt", "yuv420p", "-b:v", "0", "-crf", "32", "-deadline", "realtime", "-cpu-used", "8", "-row-mt", "1", "-fflags", "+bitexact", "-f", "webm"]  // bitexact: no random segment id or date
    case .gif:
      // A palette per frame, streamed. `FFmpegEncoder.encoder` gives a `GIFEncoder` instead
      // (one palette for the whole animation, without holding the frames).
      args += ["-filter_complex", "[0:v]split[a][b];[a]palettegen=stats_mode=single:reserve_transparent=0[p];[b][p]paletteuse=new=1:dither=sierra2_4a", "-loop", "0", "-f", "gif"]
    case .webp:
      args += ["-c:v", "libwebp_anim", "-lossless", "0", "-quality", "85", "-loop", "0", "-f", "webp"]
    case .apng:
      args += ["-c:v", "apng", "-plays", "0", "-f", "apng"]
    }
    if format == .mp4 || format == .webm {
      for (key, value) in metadata { args += ["-metadata", key + "=" + value] }
    }
    args.append(temp)

    var pipeFDs: [Int32] = [0, 0]
    var logFDs: [Int32] = [0, 0]
    guard FFmpegEncoder.pipeCloseOnExec(&pipeFDs) else { unlink(temp); TempFiles.unregister(temp); throw EncodeError(description: "cannot start ffmpeg: \(String(cString: strerror(errno)))") }
    guard FFmpegEncoder.pipeCloseOnExec(&logFDs) else {
      close(pipeFDs[0]); close(pipeFDs[1]); unlink(temp); TempFiles.unregister(temp)
      throw EncodeError(description: "cannot start ffmpeg: \(String(cString: strerror(errno)))")
    }
    let (rc, child) = TempFiles.spawn(args, input: pipeFDs[0], errors: logFDs[1], closing: [pipeFDs[1]])
    close(pipeFDs[0])
    close(logFDs[1])
    log.drain(logFDs[0])
    if rc != 0 {
      close(pipeFDs[1]); unlink(temp); TempFiles.unregister(temp)
      throw EncodeError(description: "cannot run ffmpeg (\(String(cString: strerror(rc)))): install ffmpeg (Debian: apt-get install ffmpeg; a source checkout: scripts/install-deps)")
    }
    pid = child
    stdin = pipeFDs[1]
    // A frame of 1280x720 is 1.4 MB: in the default 64 KiB pipe it takes 22 turns of
    // writer and reader, each a wake-up of the other side. 1 MiB (Linux's usual limit for
    // an unprivileged process; refused above it, and then the pipe stays as it was); for YUV
    // frames of 1 MiB or less, the largest power of two below a frame, so that frames go in
    // by vmsplice (`write(converted:)`).
    var want = 1 << 20
    let frameBytes = width * height * 3 / 2
    if yuv { while want > 1 << 16 && want >= frameBytes { want >>= 1 } }
    _ = fcntl(stdin, FFmpegEncoder.setPipeSize, Int32(want))
    let size = fcntl(stdin, FFmpegEncoder.getPipeSize)
    if size > 0 { pipeCapacity = Int(size) }
  }

  /// x264's options past `-preset superfast -qp 23 -threads 2` for MP4 (the comment in `init`
  /// says why each), the same in this process as through ffmpeg's `-x264-params`.
  static func x264Options(keyframeInterval g: Int) -> String {
    "keyint=\(g):min-keyint=\(g):scenecut=0:bframes=0:open-gop=0:weightp=0:no-deblock=1:subme=0:ref=2:partitions=p8x8,i4x4:8x8dct=0:sliced-threads=1"
  }

  /// Whether MP4s are encoded by x264 in this process where it loads (`H264Encoder`; else
  /// by ffmpeg, from the frames sent down the pipe). Tests turn it off to compare the two.
  nonisolated(unsafe) static var inProcessH264 = true

  /// `F_SETPIPE_SZ` and `F_GETPIPE_SZ` (Linux).
  static let setPipeSize: Int32 = 1031
  static let getPipeSize: Int32 = 1032

  /// The encoder for an animation in `format`: GIFs get one palette from every frame
  /// (`GIFEncoder`), APNG is written here (`APNGEncoder`), MP4 mostly too (`H264Encoder`),
  /// the other formats stream to one ffmpeg.
  /// `metadata` goes into the containers that hold it (MP4, WebM); ffmpeg writes none into
  /// GIF, WebP or APNG.
  public static func encoder(path: String, format: Format, width: Int, height: Int, fps: Double, metadata: [(String, String)] = []) throws(EncodeError) -> FrameEncoder {
    if format == .gif { return try GIFEncoder(path: path, fps: fps) }
    if format == .apng { return try APNGEncoder(path: path, fps: fps) }
    if format == .mp4 && inProcessH264 && width % 2 == 0 && height % 2 == 0 && fps == fps.rounded() && fps >= 1 && fps <= 1000,
       let encoder = try H264Encoder(path: path, width: width, height: height, fps: Int(fps), metadata: metadata) {
      return encoder
    }
    return try FFmpegEncoder(path: path, format: format, width: width, height: height, fps: fps, metadata: metadata)
  }

  deinit { if !finished { cancel() } }

  /// A pipe whose ends no child inherits (a child gets them only through dup2).
  static func pipeCloseOnExec(_ fds: inout [Int32]) -> Bool {
    guard pipe(&fds) == 0 else { return false }
    for fd in fds { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
    return true
  }

  /// A new temporary file beside `path` (registered: a stop removes it), or the error every
  /// encoder gives when it cannot make one.
  static func temporary(beside path: String) throws(EncodeError) -> (name: String, fd: Int32) {
    switch TempFiles.beside(path) {
    case .success(let made): return made
    case .failure(let e): throw EncodeError(description: "cannot write '\(path)': \(e.reason)")
    }
  }

  /// Frames between two keyframes of an MP4: one second's worth.
  public static func keyframeInterval(fps: Double) -> Int { max(1, Int(fps.rounded())) }

  static func rate(_ fps: Double) -> String { fps == fps.rounded() ? String(Int(fps)) : String(fps) }

  /// Sends one frame (cairo ARGB32 rows: BGRA bytes on little-endian machines).
  public func write(_ image: RasterImage) throws(EncodeError) {
    if yuv { return try writeYUV(image) }
    let rowBytes = image.width * 4
    var failure: Int32 = 0
    image.pixels.withUnsafeBytes { raw in
      guard let base = raw.baseAddress else { return }
      for y in 0..<image.height {
        failure = writeAll(stdin, UnsafeRawBufferPointer(start: base + y * image.stride, count: rowBytes))
        if failure != 0 { return }
      }
    }
    if failure != 0 {
      cancel()  // ffmpeg has gone (or stopped reading): end it, so its log is complete
      throw EncodeError(description: "ffmpeg stopped taking frames (\(String(cString: strerror(failure))))\(reason())")
    }
  }

  func writeYUV(_ image: RasterImage) throws(EncodeError) {
    let count = image.width * image.height * 3 / 2
    if yuvBuffer.count != count { yuvBuffer = [UInt8](repeating: 0, count: count) }
    YUV.convert(image, into: &yuvBuffer)
    let failure = yuvBuffer.withUnsafeBytes { writeAll(stdin, $0) }
    if failure != 0 {
      cancel()
      throw EncodeError(description: "ffmpeg stopped taking frames (\(String(cString: strerror(failure))))\(reason())")
    }
  }

  /// Closes the stream, waits for ffmpeg and moves the file into place.
  public func finish() throws(EncodeError) {
    guard !finished else { throw EncodeError(description: "ffmpeg was stopped before '\(path)' was complete") }
    finished = true
    close(stdin)
    var status: Int32 = 0
    while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
    TempFiles.unregister(child: pid)
    spliced = nil
    let exited = (status & 0x7f) == 0
    let code = (status >> 8) & 0xff
    guard exited && code == 0 && log.firstLine() == nil else {
      TempFiles.discard(temp)
      throw EncodeError(description: "ffmpeg failed writing '\(path)'\(reason())")
    }
    if let reason = TempFiles.commit(temp, to: path) { throw EncodeError(description: "cannot write '\(path)': \(reason)") }
  }

  /// Stops ffmpeg and removes what it wrote.
  public func cancel() {
    guard !finished else { return }
    finished = true
    close(stdin)
    kill(pid, SIGKILL)
    var status: Int32 = 0
    while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
    TempFiles.unregister(child: pid)
    spliced = nil
    unlink(temp)
    TempFiles.unregister(temp)
  }

  /// ": first line ffmpeg printed" (with the temporary name shown as the output's), or "".
  func reason() -> String {
    guard let line = log.firstLine(), !line.isEmpty else { return "" }
    return ": " + line.replacing(temp, with: path)
  }
}


