import Glibc

extension FFmpegEncoder {
  /// Joins MP4 segments (each starting on a keyframe, encoded alike: `--shard`) into one
  /// MP4 without re-encoding: ffmpeg's concat demuxer and `-c copy`. Written under a
  /// temporary name and renamed when complete.
  public static func concat(_ segments: [String], to path: String) throws(EncodeError) {
    var template = Array((AtomicPaths.directory(of: path) + "/.chartscene-XXXXXX").utf8CString)
    guard let fd = TempFiles.create(&template) else { throw EncodeError(description: "cannot write '\(path)': \(String(cString: strerror(errno)))") }
    close(fd)
    let temp = String(cString: template.map { UInt8(bitPattern: $0) })
    var listTemplate = Array("/tmp/chartscene-concat-XXXXXX".utf8CString)
    guard let lfd = TempFiles.create(&listTemplate) else {
      unlink(temp); TempFiles.unregister(temp)
      throw EncodeError(description: "cannot write a list of segments in /tmp: \(String(cString: strerror(errno)))")
    }
    let list = String(cString: listTemplate.map { UInt8(bitPattern: $0) })
    defer { unlink(list); TempFiles.unregister(list) }
    // The concat demuxer's list: absolute paths, single quotes escaped as '\''.
    var text = "ffconcat version 1.0\n"
    for s in segments {
      let abs = s.hasPrefix("/") ? s : FFmpegEncoder.workingDirectory() + "/" + s
      text += "file '" + abs.replacing("'", with: "'\\''") + "'\n"
    }
    let bytes = Array(text.utf8)
    let written = bytes.withUnsafeBytes { Glibc.write(lfd, $0.baseAddress, $0.count) }
    close(lfd)
    guard written == bytes.count else {
      unlink(temp); TempFiles.unregister(temp)
      throw EncodeError(description: "cannot write a list of segments in /tmp")
    }
    let args = ["ffmpeg", "-hide_banner", "-loglevel", "error", "-y", "-f", "concat", "-safe", "0", "-i", list,
                "-map", "0", "-c", "copy", "-movflags", "+faststart", "-f", "mp4", temp]
    let (ok, message) = FFmpegEncoder.runToEnd(args)
    defer { TempFiles.unregister(temp) }
    guard ok else {
      unlink(temp)
      throw EncodeError(description: "ffmpeg failed joining '\(path)'" + (message.map { ": " + $0.replacing(temp, with: path).replacing(list, with: "the list of segments") } ?? ""))
    }
    chmod(temp, 0o644)
    if rename(temp, path) != 0 {
      let reason = String(cString: strerror(errno))
      unlink(temp)
      throw EncodeError(description: "cannot write '\(path)': \(reason)")
    }
  }

  static func workingDirectory() -> String {
    var buf = [CChar](repeating: 0, count: 4096)
    guard getcwd(&buf, buf.count) != nil else { return "." }
    return String(cString: buf)
  }

  /// Runs ffmpeg with `args` (stdin and stdout /dev/null) to its end: success, and the first
  /// line it printed on stderr.
  static func runToEnd(_ args: [String]) -> (Bool, String?) {
    var logFDs: [Int32] = [0, 0]
    guard pipeCloseOnExec(&logFDs) else { return (false, String(cString: strerror(errno))) }
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
    posix_spawn_file_actions_adddup2(&actions, logFDs[1], 2)
    var cargs = args.map { strdup($0) } + [nil]
    var attr = posix_spawnattr_t()
    posix_spawnattr_init(&attr)
    var none = sigset_t()
    sigemptyset(&none)
    posix_spawnattr_setsigmask(&attr, &none)
    posix_spawnattr_setflags(&attr, Int16(POSIX_SPAWN_SETSIGMASK))
    var child: pid_t = 0
    let (rc, _) = TempFiles.spawnChild { (posix_spawnp(&child, "ffmpeg", &actions, &attr, &cargs, environ), child) }
    posix_spawnattr_destroy(&attr)
    for a in cargs { free(a) }
    posix_spawn_file_actions_destroy(&actions)
    close(logFDs[1])
    let log = Log()
    log.drain(logFDs[0])
    if rc != 0 {
      _ = log.firstLine()
      return (false, "cannot run ffmpeg (\(String(cString: strerror(rc)))); scripts/install-deps installs it")
    }
    var status: Int32 = 0
    while waitpid(child, &status, 0) < 0 && errno == EINTR {}
    TempFiles.unregister(child: child)
    let line = log.firstLine()
    return ((status & 0x7f) == 0 && (status >> 8) & 0xff == 0 && line == nil, line)
  }
}
