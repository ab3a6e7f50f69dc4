import Glibc
import Platform

extension FFmpegEncoder {
  /// Joins MP4 segments (each starting on a keyframe, encoded alike: `--shard`) into one
  /// MP4 without re-encoding: ffmpeg's concat demuxer and `-c copy`. Written under a
  /// temporary name and renamed when complete.
  /// `metadata` replaces the segments' own (their shard tags do not describe the whole).
  public static func concat(_ segments: [String], to path: String, metadata: [(String, String)] = []) throws(EncodeError) {
    let made = try FFmpegEncoder.temporary(beside: path)
    close(made.fd)
    let temp = made.name
    var listTemplate = Array("/tmp/chartscene-concat-XXXXXX".utf8CString)
    guard let lfd = TempFiles.create(&listTemplate) else {
      TempFiles.discard(temp)
      throw EncodeError(description: "cannot write a list of segments in /tmp: \(String(cString: strerror(errno)))")
    }
    let list = String(cString: listTemplate.map { UInt8(bitPattern: $0) })
    defer { unlink(list); TempFiles.unregister(list) }
    // The concat demuxer's list: absolute paths, single quotes escaped as '\'' (inside single
    // quotes every other character is taken as it is). A line ends the name: names with
    // control characters are refused before this (`ConcatCommand`), and again here.
    var text = "ffconcat version 1.0\n"
    for s in segments {
      if let bad = FFmpegEncoder.listUnsafe(s) {
        TempFiles.discard(temp); close(lfd)
        throw EncodeError(description: "cannot join '\(s)': \(bad)")
      }
      let abs = s.hasPrefix("/") ? s : FFmpegEncoder.workingDirectory() + "/" + s
      text += "file '" + abs.replacing("'", with: "'\\''") + "'\n"
    }
    let bytes = Array(text.utf8)
    let written = bytes.withUnsafeBytes { Glibc.write(lfd, $0.baseAddress, $0.count) }
    close(lfd)
    guard written == bytes.count else {
      TempFiles.discard(temp)
      throw EncodeError(description: "cannot write a list of segments in /tmp")
    }
    let args = ["ffmpeg", "-hide_banner", "-loglevel", "error", "-y", "-f", "concat", "-safe", "0", "-i", list,
                "-map", "0", "-c", "copy", "-map_metadata", "-1"] + metadata.flatMap { ["-metadata", $0.0 + "=" + $0.1] }
      + ["-movflags", "+faststart", "-f", "mp4", temp]
    let (ok, message) = FFmpegEncoder.runToEnd(args)
    guard ok else {
      TempFiles.discard(temp)
      throw EncodeError(description: "ffmpeg failed joining '\(path)'" + (message.map { ": " + $0.replacing(temp, with: path).replacing(list, with: "the list of segments") } ?? ""))
    }
    if let reason = TempFiles.commit(temp, to: path) { throw EncodeError(description: "cannot write '\(path)': \(reason)") }
  }

  /// Why a path cannot go into a concat list (a control character: a newline would end the
  /// line), or nil.
  public static func listUnsafe(_ path: String) -> String? {
    path.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F }
      ? "its name holds a control character (a line break or a tab), which a list of segments cannot hold: rename it" : nil
  }

  /// The container tags of a media file (an MP4's `mdta` keys; else `ffprobe -show_entries
  /// format_tags`), or why they could not be read (ffprobe's first line).
  public static func probeTags(_ path: String) -> Result<[String: String], EncodeError> {
    // A segment's keys, as chartscene or ffmpeg wrote them, read here: ffprobe's start alone
    // is ~65 ms of CPU a segment.
    if let tags = MP4Writer.metadataKeys(path) { return .success(tags) }
    // "file:" keeps a name like "x:y.mp4" from being read as a protocol.
    let abs = path.hasPrefix("/") ? path : workingDirectory() + "/" + path
    let (ok, out, message) = run(["ffprobe", "-hide_banner", "-v", "error", "-show_entries", "format_tags", "-of", "default=noprint_wrappers=1", "file:" + abs], capture: true)
    guard ok else {
      var why = message.map { $0.replacing("file:" + abs, with: path) } ?? "ffprobe failed"
      // "[mov,mp4,... @ 0x55...] moov atom not found": the demuxer's address says nothing.
      if why.hasPrefix("["), let end = why.firstIndex(of: "]") { why = String(why[why.index(after: end)...].drop { $0 == " " }) }
      if why.isEmpty { why = "ffprobe cannot read it" }
      return .failure(EncodeError(description: why))
    }
    var tags: [String: String] = [:]
    for line in out.split(separator: "\n") where line.hasPrefix("TAG:") {
      guard let eq = line.firstIndex(of: "=") else { continue }
      tags[String(line[line.index(line.startIndex, offsetBy: 4)..<eq])] = String(line[line.index(after: eq)...])
    }
    return .success(tags)
  }

  static func workingDirectory() -> String {
    var buf = [CChar](repeating: 0, count: 4096)
    guard getcwd(&buf, buf.count) != nil else { return "." }
    return String(decoding: buf.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
  }

  /// Runs ffmpeg with `args` (stdin and stdout /dev/null) to its end: success, and the first
  /// line it printed on stderr.
  static func runToEnd(_ args: [String]) -> (Bool, String?) {
    let (ok, _, line) = run(args, capture: false)
    return (ok, line)
  }

  /// Runs a program (ffmpeg, ffprobe) to its end: success, its standard output when
  /// `capture` (else /dev/null), and the first line it printed on stderr.
  static func run(_ args: [String], capture: Bool) -> (Bool, String, String?) {
    let program = args[0]
    var logFDs: [Int32] = [0, 0]
    guard pipeCloseOnExec(&logFDs) else { return (false, "", String(cString: strerror(errno))) }
    var outFDs: [Int32] = [-1, -1]
    if capture {
      guard pipeCloseOnExec(&outFDs) else { close(logFDs[0]); close(logFDs[1]); return (false, "", String(cString: strerror(errno))) }
    }
    let (rc, child) = TempFiles.spawn(args, output: capture ? outFDs[1] : nil, errors: logFDs[1])
    close(logFDs[1])
    let log = Log()
    log.drain(logFDs[0])
    let output = Log()
    if capture {
      close(outFDs[1])
      output.drain(outFDs[0])
    }
    func text() -> String {
      guard capture else { return "" }
      output.done.wait()
      output.done.signal()
      return output.text.withLock { String(decoding: $0, as: UTF8.self) }
    }
    if rc != 0 {
      _ = log.firstLine()
      _ = text()
      return (false, "", "cannot run \(program) (\(String(cString: strerror(rc)))): install ffmpeg (Debian: apt-get install ffmpeg; a source checkout: scripts/install-deps)")
    }
    var status: Int32 = 0
    while waitpid(child, &status, 0) < 0 && errno == EINTR {}
    TempFiles.unregister(child: child)
    let line = log.firstLine()
    return ((status & 0x7f) == 0 && (status >> 8) & 0xff == 0 && line == nil, text(), line)
  }
}
