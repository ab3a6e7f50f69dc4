import Encoding
import Glibc
import Platform

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

  /// Joins `segments` (in order) into `output`.
  public static func join(_ segments: [String], into output: String) throws(HostError) {
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
    if let media = set.first?.media {
      for clip in media.audio where access(clip.path, R_OK) != 0 {
        throw HostError("cannot read '\(clip.path)': \(errno == ENOENT ? "no such file" : String(cString: strerror(errno))) (the scene's audio, added when joining: it must be where it was when the segments were rendered)")
      }
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
