import Drawing
import Glibc

/// Encodes frames into GIF, WebP, APNG, MP4 or WebM by feeding raw pixels to an `ffmpeg`
/// child process. The file is written under a temporary name in the same folder and renamed
/// only when ffmpeg succeeds; on failure nothing is left and an earlier file is untouched.
public final class FFmpegEncoder {
  public enum Format: String, CaseIterable, Sendable { case gif, webp, apng, mp4, webm }

  public struct EncodeError: Error, CustomStringConvertible {
    public var description: String
  }

  let path: String
  let temp: String
  let pid: pid_t
  let stdin: Int32
  let logPath: String
  var finished = false

  /// Starts ffmpeg for frames of `width`×`height` device pixels at `fps`.
  public init(path: String, format: Format, width: Int, height: Int, fps: Double) throws(EncodeError) {
    self.path = path
    var template = Array((AtomicPaths.directory(of: path) + "/.chartscene-XXXXXX").utf8CString)
    let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
    if fd < 0 { throw EncodeError(description: "cannot write '\(path)': \(String(cString: strerror(errno)))") }
    close(fd)
    temp = String(cString: template.map { UInt8(bitPattern: $0) })
    logPath = temp + ".log"

    var args = ["ffmpeg", "-hide_banner", "-loglevel", "error", "-y",
                "-f", "rawvideo", "-pix_fmt", "bgra", "-s", "\(width)x\(height)", "-r", FFmpegEncoder.rate(fps), "-i", "pipe:0"]
    let even = "pad=ceil(iw/2)*2:ceil(ih/2)*2"
    switch format {
    case .mp4:
      args += ["-vf", even, "-c:v", "libx264", "-pix_fmt", "yuv420p", "-preset", "superfast", "-crf", "20", "-movflags", "+faststart", "-f", "mp4"]
    case .webm:
      args += ["-vf", even, "-c:v", "libvpx-vp9", "-pix_fmt", "yuv420p", "-b:v", "0", "-crf", "32", "-deadline", "realtime", "-cpu-used", "8", "-row-mt", "1", "-f", "webm"]
    case .gif:
      // One palette for the whole animation, from every frame: the theme's background is
      // an exact palette colour, so it shows no banding.
      args += ["-filter_complex", "[0:v]split[a][b];[a]palettegen=stats_mode=full:reserve_transparent=0[p];[b][p]paletteuse=dither=sierra2_4a", "-loop", "0", "-f", "gif"]
    case .webp:
      args += ["-c:v", "libwebp_anim", "-lossless", "0", "-quality", "85", "-loop", "0", "-f", "webp"]
    case .apng:
      args += ["-c:v", "apng", "-plays", "0", "-f", "apng"]
    }
    args.append(temp)

    var pipeFDs: [Int32] = [0, 0]
    guard pipe(&pipeFDs) == 0 else { unlink(temp); throw EncodeError(description: "cannot start ffmpeg: \(String(cString: strerror(errno)))") }
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    posix_spawn_file_actions_adddup2(&actions, pipeFDs[0], 0)
    posix_spawn_file_actions_addclose(&actions, pipeFDs[1])
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 2, logPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
    var cargs = args.map { strdup($0) } + [nil]
    var child: pid_t = 0
    let rc = posix_spawnp(&child, "ffmpeg", &actions, nil, &cargs, environ)
    for a in cargs { free(a) }
    posix_spawn_file_actions_destroy(&actions)
    close(pipeFDs[0])
    if rc != 0 {
      close(pipeFDs[1]); unlink(temp); unlink(logPath)
      throw EncodeError(description: "cannot run ffmpeg (\(String(cString: strerror(rc)))); scripts/install-deps installs it")
    }
    pid = child
    stdin = pipeFDs[1]
  }

  deinit { if !finished { cancel() } }

  static func rate(_ fps: Double) -> String { fps == fps.rounded() ? String(Int(fps)) : String(fps) }

  /// Sends one frame (cairo ARGB32 rows: BGRA bytes on little-endian machines).
  public func write(_ image: RasterImage) throws(EncodeError) {
    let rowBytes = image.width * 4
    var failure: Int32 = 0
    image.pixels.withUnsafeBytes { raw in
      guard let base = raw.baseAddress else { return }
      for y in 0..<image.height {
        var off = 0
        let row = base + y * image.stride
        while off < rowBytes {
          let n = Glibc.write(stdin, row + off, rowBytes - off)
          if n < 0 { if errno == EINTR { continue }; failure = errno; return }
          off += n
        }
      }
    }
    if failure != 0 { throw EncodeError(description: "ffmpeg stopped taking frames (\(String(cString: strerror(failure))))\(log())") }
  }

  /// Closes the stream, waits for ffmpeg and moves the file into place.
  public func finish() throws(EncodeError) {
    finished = true
    close(stdin)
    var status: Int32 = 0
    while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
    let exited = (status & 0x7f) == 0
    let code = (status >> 8) & 0xff
    defer { unlink(logPath) }
    guard exited && code == 0 else {
      unlink(temp)
      throw EncodeError(description: "ffmpeg failed writing '\(path)'\(log())")
    }
    chmod(temp, 0o644)
    if rename(temp, path) != 0 {
      let reason = String(cString: strerror(errno))
      unlink(temp)
      throw EncodeError(description: "cannot write '\(path)': \(reason)")
    }
  }

  /// Stops ffmpeg and removes what it wrote.
  public func cancel() {
    finished = true
    close(stdin)
    kill(pid, SIGKILL)
    var status: Int32 = 0
    while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
    unlink(temp)
    unlink(logPath)
  }

  func log() -> String {
    guard let f = fopen(logPath, "r") else { return "" }
    defer { fclose(f) }
    var buf = [CChar](repeating: 0, count: 400)
    guard fgets(&buf, 400, f) != nil else { return "" }
    let line = String(cString: buf).split(separator: "\n").first.map(String.init) ?? ""
    return line.isEmpty ? "" : ": " + line
  }
}

enum AtomicPaths {
  static func directory(of path: String) -> String {
    guard let slash = path.lastIndex(of: "/") else { return "." }
    let d = String(path[..<slash])
    return d.isEmpty ? "/" : d
  }
}
