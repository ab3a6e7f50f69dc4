import ChartSceneHost
import Encoding
import ArgumentParser

/// `--shard I/N` of a render: which frames this worker renders.
extension Render {
  func validateShard() throws {
    guard let shard else { return }
    guard Shard(shard) != nil else { throw ValidationError("bad --shard '\(shard)' (\(Shard.usage))") }
    if frames != nil || at != nil { throw ValidationError("--shard picks the frames itself: it cannot be used with --frames or --at") }
    if inspect || watch || live { throw ValidationError("--shard renders part of a video: it cannot be used with --inspect, --watch or --live") }
  }

  /// The frames of this shard: balanced ranges of frames for a PNG sequence; for an MP4,
  /// balanced ranges of whole keyframe intervals, so that every segment starts on a
  /// keyframe at the same frame as in a one-process render.
  func shardFrames(session: Session, output: String) throws(HostError) -> ClosedRange<Int>? {
    guard let text = shard, let s = Shard(text) else { return nil }
    let clock = session.simulation.clock
    let total = clock.frameCount
    let range: Range<Int>
    var detail = ""
    if AnimationJob.isSequence(output) {
      range = s.range(of: total)
    } else if output.lowercased().hasSuffix(".mp4") {
      let g = FFmpegEncoder.keyframeInterval(fps: clock.fps)
      range = s.frames(of: total, keyframeInterval: g)
      detail = ", cut at keyframes every \(g) frames: \((total + g - 1) / g) parts at most"
    } else {
      throw HostError.usage("--shard needs an .mp4 or a PNG sequence like NAME-%04d.png, not '\(output)'")
    }
    guard !range.isEmpty else {
      throw HostError("--shard \(text) has no frames: the scene has \(total) frame\(total == 1 ? "" : "s")\(detail)")
    }
    return range.lowerBound...(range.upperBound - 1)
  }
}
