import ChartModel
import Encoding
import Glibc
import Platform
import SceneGraph

/// `chartscene concat OUT.mp4 SEGMENT.mp4...`: joins the MP4 segments of a sharded render
/// (`--shard I/N`) without re-encoding, after checking from their metadata that they are one
/// full set, in order, of one render; the scene's sound and subtitles go on once.
public enum ShardJoin {
  /// A segment as its metadata describes it.
  public struct Segment {
    var path: String
    var shard: Shard
    var empty: Bool
    var render: String
    var version: String?
    /// The sound and subtitles of the whole video (`chartscene_media`), nil without.
    var media: MediaTrack?
  }

  /// Joins `segments` (in order) into `output`; a segment's sound may come only from the
  /// current folder, a segment's folder or one of `allowRead` (`checkMedia`).
  public static func join(_ segments: [String], into output: String, allowRead: [String] = []) throws(HostError) {
    guard Paths.fileExtension(of: output) == "mp4" else {
      throw HostError("cannot write '\(output)': concat joins MP4 segments into an .mp4")
    }
    if let bad = FFmpegEncoder.listUnsafe(output) { throw HostError("cannot write '\(output)': \(bad)") }
    for s in segments {
      guard Paths.fileExtension(of: s) == "mp4" else { throw HostError("cannot join '\(s)': segments are .mp4 files written with --shard") }
      if let bad = FFmpegEncoder.listUnsafe(s) { throw HostError("cannot join '\(s)': \(bad)") }
      var st = stat()
      guard stat(s, &st) == 0 else { throw HostError("cannot read '\(s)': \(errno == ENOENT ? "no such file" : String(cString: strerror(errno)))") }
      guard (st.st_mode & S_IFMT) == S_IFREG else { throw HostError("cannot read '\(s)': not a regular file") }
      guard access(s, R_OK) == 0 else { throw HostError("cannot read '\(s)': \(String(cString: strerror(errno)))") }
      if let a = AssetLocator.realPath(s), let b = AssetLocator.realPath(output), a == b {
        throw HostError("cannot write '\(output)': it is one of the segments")
      }
    }
    do { try AtomicOutput.checkTarget(output) } catch { throw HostError(error.description) }
    let set = try segments.map(read)
    try check(set)
    // Empty shards (no frames: more shards than keyframe intervals) carry no stream: they
    // count for the set but add nothing to the join.
    let joined = set.filter { !$0.empty }.map(\.path)
    guard !joined.isEmpty else { throw HostError("cannot join: every segment is an empty marker (a shard with no frames)") }
    let metadata = set.first?.version.map { [("comment", $0)] } ?? []
    // The segments are silent: the scene's sound and subtitles go onto the joined video
    // once, one track from start to end (no gap or click at the joins).
    if let first = set.first, let tagged = first.media {
      let media = try checkMedia(tagged, of: first.path, roots: readableRoots(segments, allowRead: allowRead))
      let silent: String
      do {
        silent = try FFmpegEncoder.scratchName(beside: output, suffix: ".video")
        try FFmpegEncoder.concat(joined, to: silent, metadata: metadata)
      } catch { throw HostError(error.description) }
      try media.write(silent: silent, to: output, format: .mp4, subtitleFile: true)
      return
    }
    do { try FFmpegEncoder.concat(joined, to: output, metadata: metadata) } catch { throw HostError(error.description) }
  }

  /// The folders (real paths) a segment's sound may be read from: the current one, each
  /// segment's, and each `--allow-read DIR`.
  static func readableRoots(_ segments: [String], allowRead: [String]) -> [String] {
    var roots: [String] = []
    for d in ["."] + segments.map(Paths.directory(of:)) + allowRead {
      if let r = AssetLocator.realPath(d.isEmpty ? "." : d), !roots.contains(r) { roots.append(r) }
    }
    return roots
  }

  /// The longest a segment's description of its sound may be (its clips, cues and texts).
  static let mediaClips = 1_000
  /// The longest scene, in seconds (`cs.scene`'s `duration`).
  static let longest = 3600.0

  /// A segment's `chartscene_media` tag is the segment's word, and a segment may come from
  /// anyone: its clips are read only when each is a sound file (by its first bytes), a
  /// regular file (a FIFO or a device would block ffmpeg for ever), and lies — links
  /// followed — inside `roots`; its numbers and cues are checked as a scene's are. The
  /// clips' real paths are what ffmpeg is given.
  static func checkMedia(_ media: MediaTrack, of segment: String, roots: [String]) throws(HostError) -> MediaTrack {
    let shown = segment
    func broken(_ why: String) -> HostError { HostError("cannot join '\(shown)': its sound and subtitle metadata is broken (chartscene_media: \(why))") }
    guard media.start.isFinite, media.duration.isFinite, media.start >= 0, media.duration >= 0, media.start + media.duration <= longest + 1 else {
      throw broken("start \(media.start), duration \(media.duration)")
    }
    guard media.audio.count <= mediaClips else { throw broken("\(media.audio.count) clips, at most \(mediaClips)") }
    guard media.captions.count <= Captions.maximumCues else { throw broken("more than \(Captions.maximumCues) cues") }
    for c in media.captions {
      guard c.from.isFinite, c.to.isFinite, c.from < c.to, c.text.utf8.count <= Captions.maximumText else { throw broken("a bad cue") }
    }
    var out = media
    for (k, clip) in media.audio.enumerated() {
      let name = clip.path
      guard clip.at.isFinite, clip.gain.isFinite, (0...longest).contains(clip.at), (0...16).contains(clip.gain) else {
        throw broken("clip \(k + 1) at \(clip.at) s, gain \(clip.gain)")
      }
      guard let real = AssetLocator.realPath(clip.path) else {
        throw HostError("cannot read '\(name)': \(errno == ENOENT ? "no such file" : String(cString: strerror(errno))) (the scene's audio, added when joining: it must be where it was when the segments were rendered)")
      }
      guard roots.contains(where: { real == $0 || real.hasPrefix($0 == "/" ? "/" : $0 + "/") }) else {
        throw HostError("cannot join '\(shown)': its sound '\(name)' is outside the folders concat may read (the current one, the segments'; --allow-read DIR adds one)")
      }
      let fd: Int32
      do { (fd, _) = try FileReader.openRegular(real) } catch { throw HostError("cannot join '\(shown)': its sound '\(name)': \(error.reason)") }
      var head = [UInt8](repeating: 0, count: 16)
      let n = head.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress!, 16) }
      close(fd)
      guard n >= 4, AudioClip.isSound(head: Array(head[0..<n])) else {
        throw HostError("cannot join '\(shown)': its sound '\(name)' is not a sound file (WAV, FLAC, Ogg, MP3, M4A, WebM or AIFF)")
      }
      out.audio[k].path = real
    }
    return out
  }

  /// The shard metadata of a segment (written by `--shard I/N`).
  public static func read(_ path: String) throws(HostError) -> Segment {
    let tags: [String: String]
    switch FFmpegEncoder.probeTags(path) {
    case .success(let t): tags = t
    case .failure(let e): throw HostError("cannot read '\(path)': \(e.description)")
    }
    guard let text = tags["chartscene_shard"], let render = tags["chartscene_render"], let frames = tags["chartscene_frames"] else {
      throw HostError("cannot join '\(path)': it has no shard metadata (it was not written by chartscene --shard I/N)")
    }
    guard let shard = Shard(text) else { throw HostError("cannot join '\(path)': its shard metadata is broken (chartscene_shard '\(text)')") }
    var media: MediaTrack? = nil
    if let text = tags["chartscene_media"] {
      guard let m = MediaTrack.decode(text) else { throw HostError("cannot join '\(path)': its sound and subtitle metadata is broken (chartscene_media)") }
      media = m
    }
    return Segment(path: path, shard: shard, empty: frames == "none", render: render, version: tags["comment"], media: media)
  }

  /// One full set, in order: every shard 1 … N once, all of one count and one render.
  public static func check(_ set: [Segment]) throws(HostError) {
    guard let first = set.first else { return }
    var seen: [Int: String] = [:]
    var last: Segment? = nil
    for s in set {
      if s.shard.count != first.shard.count {
        throw HostError("cannot join '\(s.path)': it is shard \(s.shard.text), of \(s.shard.count) shards, but '\(first.path)' is shard \(first.shard.text) (mixed counts)")
      }
      if s.render != first.render {
        let other = s.version != first.version
          ? " (written by \(s.version ?? "another version"), '\(first.path)' by \(first.version ?? "another version"))" : " (the scene, its files or the options differ)"
        throw HostError("cannot join '\(s.path)': it is from another render than '\(first.path)'\(other)")
      }
      if let earlier = seen[s.shard.index] {
        throw HostError("cannot join '\(s.path)': shard \(s.shard.text) is given twice (also '\(earlier)')")
      }
      if let last, s.shard.index < last.shard.index {
        throw HostError("cannot join '\(s.path)': shard \(s.shard.text) comes after shard \(last.shard.text) ('\(last.path)'): give the segments in order, 1/\(s.shard.count) first")
      }
      seen[s.shard.index] = s.path
      last = s
    }
    for i in 1...first.shard.count where seen[i] == nil {
      throw HostError("shard \(i)/\(first.shard.count) is missing (\(set.count) of \(first.shard.count) segments given)")
    }
  }
}
