import ChartSceneHost
import Encoding
import ArgumentParser
import Platform

/// `--shard I/N` (or `auto`, `auto/N`) of a render: which frames this worker renders.
extension Render {
  func validateShard() throws {
    guard let shard else { return }
    if case .failure(let e) = Shard.resolve(shard) { throw ValidationError(e.message) }
    if frames != nil || at != nil { throw ValidationError("--shard picks the frames itself: it cannot be used with --frames or --at") }
    if inspect || watch || live { throw ValidationError("--shard renders part of a video: it cannot be used with --inspect, --watch or --live") }
  }

  /// The shard (`auto` resolved from the environment), or nil without `--shard`.
  func resolvedShard() throws(HostError) -> Shard? {
    guard let shard else { return nil }
    switch Shard.resolve(shard) {
    case .success(let s): return s
    case .failure(let e): throw HostError.usage(e.message)
    }
  }

  /// The frames of this shard: balanced ranges of frames for a PNG sequence; for an MP4,
  /// balanced ranges of whole keyframe intervals, so that every segment starts on a
  /// keyframe at the same frame as in a one-process render. Empty when N exceeds the parts
  /// (frames of a sequence, keyframe intervals of an MP4).
  func shardFrames(_ s: Shard, session: Session, output: String) throws(HostError) -> Range<Int> {
    let clock = session.simulation.clock
    let total = clock.frameCount
    if AnimationJob.isSequence(output) { return s.range(of: total) }
    guard Paths.fileExtension(of: output) == "mp4" else {
      throw HostError.usage("--shard needs an .mp4 or a PNG sequence like NAME-%04d.png, not '\(output)'")
    }
    return s.frames(of: total, keyframeInterval: FFmpegEncoder.keyframeInterval(fps: clock.fps))
  }

  /// The metadata an MP4 segment carries so that `concat` can check a set: who it is
  /// (`chartscene_shard` I/N), its frames (`chartscene_frames` A-B of the scene, or `none`),
  /// and the hash of the scene and options all shards must share (`chartscene_render`).
  /// A scene with sound or captions adds `chartscene_media`: what `concat` adds to the
  /// joined video (the segments are silent).
  func shardMetadata(_ s: Shard, frames: Range<Int>, session: Session) -> [(String, String)] {
    var tags = [("chartscene_shard", s.text),
                ("chartscene_frames", frames.isEmpty ? "none" : "\(frames.lowerBound)-\(frames.upperBound - 1)"),
                ("chartscene_render", session.fingerprint(scale: scale, preset: scene.preset, args: overrides().args))]
    let clock = session.simulation.clock
    let media = MediaTrack(session.scene.narration, start: 0, duration: Double(clock.frameCount) / clock.fps)
    if !media.isEmpty { tags.append(("chartscene_media", media.json)) }
    return tags
  }
}
