import Glibc
import Platform

/// A sound file played from `at` seconds, its samples times `gain`.
public struct SoundInput: Sendable, Equatable {
  public var path: String
  public var at: Double
  public var gain: Double
  public init(path: String, at: Double, gain: Double) { self.path = path; self.at = at; self.gain = gain }
}

extension FFmpegEncoder {
  /// The sample rate of every mixed track.
  public static let audioRate = 48_000

  /// Adds sound and subtitles to a silent video: the clips mixed (each delayed to its start,
  /// times its gain, summed without normalising) into one stereo track of exactly the
  /// video's length from `start` to `start + duration` seconds of the scene (AAC in MP4, Opus
  /// in WebM), and `subtitles` (a WebVTT text, times from the video's start) as a track
  /// (mov_text in MP4, webvtt in WebM). The video is copied, not re-encoded. The same inputs
  /// give the same bytes: a one-process render and a joined set of shards get one track.
  /// Written under a temporary name and renamed when complete.
  public static func mux(video: String, to path: String, format: Format, audio: [SoundInput], subtitles: String?,
                         start: Double, duration: Double, metadata: [(String, String)] = []) throws(EncodeError) {
    guard format == .mp4 || format == .webm else { throw EncodeError(description: "cannot add sound or subtitles to '\(path)': only MP4 and WebM hold them") }
    let made = try FFmpegEncoder.temporary(beside: path)
    close(made.fd)
    let temp = made.name
    defer { TempFiles.unregister(temp) }
    var subsFile: String? = nil
    defer { if let subsFile { unlink(subsFile); TempFiles.unregister(subsFile) } }
    if let subtitles {
      var t = Array("/tmp/chartscene-subs-XXXXXX".utf8CString)
      guard let sfd = TempFiles.create(&t) else { unlink(temp); throw EncodeError(description: "cannot write subtitles in /tmp: \(String(cString: strerror(errno)))") }
      let name = String(cString: t.map { UInt8(bitPattern: $0) })
      subsFile = name
      let bytes = Array(subtitles.utf8)
      let n = bytes.withUnsafeBytes { Glibc.write(sfd, $0.baseAddress, $0.count) }
      close(sfd)
      guard n == bytes.count else { unlink(temp); throw EncodeError(description: "cannot write subtitles in /tmp") }
    }
    func file(_ p: String) -> String { "file:" + (p.hasPrefix("/") ? p : workingDirectory() + "/" + p) }
    var args = ["ffmpeg", "-hide_banner", "-loglevel", "error", "-y", "-i", file(video)]
    for clip in audio { args += ["-i", file(clip.path)] }
    if let subsFile { args += ["-f", "webvtt", "-i", file(subsFile)] }
    args += ["-map", "0:v"]
    let total = max(1, Int((duration * Double(audioRate)).rounded()))
    if !audio.isEmpty {
      var graph: [String] = []
      for (i, clip) in audio.enumerated() {
        var chain = "[\(i + 1):a]aresample=\(audioRate),aformat=sample_fmts=fltp:channel_layouts=stereo,volume=\(number(clip.gain)):precision=float"
        let offset = Int(((clip.at - start) * Double(audioRate)).rounded())
        if offset > 0 { chain += ",adelay=delays=\(offset)S:all=1" }
        if offset < 0 { chain += ",atrim=start_sample=\(-offset),asetpts=N/SR/TB" }
        graph.append(chain + "[c\(i)]")
      }
      let inputs = (0..<audio.count).map { "[c\($0)]" }.joined()
      let mixed = audio.count == 1 ? "[c0]anull" : "\(inputs)amix=inputs=\(audio.count):normalize=0:duration=longest:dropout_transition=0"
      graph.append(mixed + ",apad=whole_len=\(total),atrim=end_sample=\(total),asetpts=N/SR/TB[aout]")
      args += ["-filter_complex", graph.joined(separator: ";"), "-map", "[aout]"]
      args += format == .mp4 ? ["-c:a", "aac", "-b:a", "192k"] : ["-c:a", "libopus", "-b:a", "128k"]
      args += ["-ar", String(audioRate), "-ac", "2"]
    }
    if subsFile != nil {
      args += ["-map", "\(audio.count + 1):s", "-c:s", format == .mp4 ? "mov_text" : "webvtt", "-metadata:s:s:0", "language=und"]
    }
    args += ["-c:v", "copy", "-map_metadata", "0"] + metadata.flatMap { ["-metadata", $0.0 + "=" + $0.1] }
    if format == .mp4 {
      args += ["-movflags", metadata.contains { $0.0.hasPrefix("chartscene_") } ? "+faststart+use_metadata_tags" : "+faststart", "-f", "mp4"]
    } else {
      args += ["-fflags", "+bitexact", "-f", "webm"]
    }
    args.append(temp)
    let (ok, message) = runToEnd(args)
    guard ok else {
      unlink(temp)
      var why = message ?? ""
      why = why.replacing(temp, with: path).replacing(file(video), with: path)
      for clip in audio { why = why.replacing(file(clip.path), with: clip.path) }
      if let subsFile { why = why.replacing(file(subsFile), with: "the subtitles") }
      throw EncodeError(description: "ffmpeg failed adding sound or subtitles to '\(path)'" + (why.isEmpty ? "" : ": " + why))
    }
    if let reason = TempFiles.commit(temp, to: path) { throw EncodeError(description: "cannot write '\(path)': \(reason)") }
  }

  static func number(_ v: Double) -> String { v == v.rounded() && abs(v) < 1e15 ? String(Int64(v)) : String(v) }

  /// A name for a file beside `path` that only this process uses (registered for removal
  /// on a stop).
  public static func scratchName(beside path: String, suffix: String) throws(EncodeError) -> String {
    switch TempFiles.beside(path) {
    case .success(let made):
      close(made.fd)
      let name = made.name + suffix
      TempFiles.register(name)
      TempFiles.discard(made.name)
      return name
    case .failure(let e): throw EncodeError(description: "cannot write '\(path)': \(e.reason)")
    }
  }
}
