import Encoding
import Glibc
import Platform

/// `--shard I/N`: the I-th (from 1) of N balanced, contiguous parts of a list of frames or
/// of batch jobs, so N workers that each run one part cover everything once, in order.
public struct Shard: Sendable, Equatable {
  public let index: Int
  public let count: Int

  public init(index: Int, count: Int) { self.index = index; self.count = count }

  /// "2/7"; nil unless 1 ≤ I ≤ N ≤ 100000.
  public init?(_ text: String) {
    let parts = text.split(separator: "/", omittingEmptySubsequences: false)
    guard parts.count == 2, let i = Int(parts[0]), let n = Int(parts[1]), n >= 1, n <= 100_000, i >= 1, i <= n else { return nil }
    index = i; count = n
  }

  public static let usage = "expected I/N with 1 ≤ I ≤ N, e.g. 2/7"

  /// Items [lo, hi) of `total` for this shard: part sizes differ by at most one.
  public func range(of total: Int) -> Range<Int> {
    (total * (index - 1) / count)..<(total * index / count)
  }

  /// Frames of this shard when a video must be cut at keyframes every `interval` frames:
  /// whole intervals are shared out as evenly as possible (the last may be short).
  public func frames(of total: Int, keyframeInterval interval: Int) -> Range<Int> {
    let g = max(1, interval)
    let groups = (total + g - 1) / g
    let r = range(of: groups)
    return min(total, r.lowerBound * g)..<min(total, r.upperBound * g)
  }
}

extension Shard {
  /// `--shard I/N`, `auto` or `auto/N`: `auto` takes I from the environment of a job array —
  /// Slurm's `SLURM_ARRAY_TASK_ID` (normalised with `SLURM_ARRAY_TASK_MIN` and
  /// `SLURM_ARRAY_TASK_STEP`, so arrays numbered from 0 or 1 both give 1 … N; N from
  /// `SLURM_ARRAY_TASK_COUNT` unless `auto/N` gives it) or Kubernetes' `JOB_COMPLETION_INDEX`
  /// (0-based; N must come from `auto/N`). The message says what is wrong otherwise.
  public static func resolve(_ text: String, environment: (String) -> String? = Shard.environment) -> Result<Shard, ShardError> {
    if let s = Shard(text) { return .success(s) }
    let parts = text.split(separator: "/", omittingEmptySubsequences: false)
    guard parts.first == "auto", parts.count <= 2 else { return .failure(ShardError("bad --shard '\(text)' (\(usage))")) }
    var given: Int? = nil
    if parts.count == 2 {
      guard let n = Int(parts[1]), n >= 1, n <= 100_000 else { return .failure(ShardError("bad --shard '\(text)' (auto/N: N a count from 1 to 100000)")) }
      given = n
    }
    func number(_ name: String) -> Result<Int?, ShardError> {
      guard let v = environment(name), !v.isEmpty else { return .success(nil) }
      guard let n = Int(v) else { return .failure(ShardError("--shard \(text): \(name) is '\(v)', not a whole number")) }
      return .success(n)
    }
    do throws(ShardError) {
      if let id = try number("SLURM_ARRAY_TASK_ID").get() {
        let min = try number("SLURM_ARRAY_TASK_MIN").get() ?? 1
        let step = try number("SLURM_ARRAY_TASK_STEP").get() ?? 1
        guard step >= 1, id >= min, (id - min) % step == 0 else {
          return .failure(ShardError("--shard \(text): SLURM_ARRAY_TASK_ID \(id) is not in the array \(min), \(min + step), … (SLURM_ARRAY_TASK_MIN, SLURM_ARRAY_TASK_STEP)"))
        }
        let index = (id - min) / step + 1
        let fromSlurm = try number("SLURM_ARRAY_TASK_COUNT").get()
        guard let count = given ?? fromSlurm else {
          return .failure(ShardError("--shard \(text): SLURM_ARRAY_TASK_COUNT is not set: give the count, --shard auto/N"))
        }
        guard count >= 1, count <= 100_000, index <= count else {
          return .failure(ShardError("--shard \(text): SLURM_ARRAY_TASK_ID \(id) is task \(index) of an array of \(count) (SLURM_ARRAY_TASK_MIN \(min)\(given != nil ? ", count from auto/\(count)" : ", SLURM_ARRAY_TASK_COUNT")): ids must run from the array's first to its last"))
        }
        return .success(Shard(index: index, count: count))
      }
      if let k = try number("JOB_COMPLETION_INDEX").get() {
        guard let count = given else {
          return .failure(ShardError("--shard \(text): JOB_COMPLETION_INDEX gives the index, not the count: use --shard auto/N with N the Job's completions"))
        }
        guard k >= 0, k < count else {
          return .failure(ShardError("--shard \(text): JOB_COMPLETION_INDEX \(k) is not an index of \(count) completions (0 to \(count - 1))"))
        }
        return .success(Shard(index: k + 1, count: count))
      }
    } catch {
      return .failure(error)
    }
    return .failure(ShardError("--shard \(text) takes the shard from the environment, and neither SLURM_ARRAY_TASK_ID (a Slurm job array) nor JOB_COMPLETION_INDEX (a Kubernetes Indexed Job) is set"))
  }

  public static func environment(_ name: String) -> String? { getenv(name).map { String(cString: $0) } }

  public struct ShardError: Error { public var message: String; init(_ m: String) { message = m } }

  /// "I/N".
  public var text: String { "\(index)/\(count)" }
}

extension Shard {
  /// The frames of this shard of `session`'s animation written to `output`: balanced ranges
  /// of frames for a PNG sequence; for an MP4, balanced ranges of whole keyframe intervals,
  /// so that every segment starts on a keyframe at the same frame as in a one-process
  /// render. Empty when N exceeds the parts (frames of a sequence, keyframe intervals of an MP4).
  public func frames(of session: Session, output: String) throws(HostError) -> Range<Int> {
    let clock = session.simulation.clock
    let total = clock.frameCount
    if AnimationJob.isSequence(output) { return range(of: total) }
    guard Paths.fileExtension(of: output) == "mp4" else {
      throw HostError.usage("--shard needs an .mp4 or a PNG sequence like NAME-%04d.png, not '\(output)'")
    }
    return frames(of: total, keyframeInterval: FFmpegEncoder.keyframeInterval(fps: clock.fps))
  }

  /// The metadata an MP4 segment carries so that `concat` can check a set: who it is
  /// (`chartscene_shard` I/N), its frames (`chartscene_frames` A-B of the scene, or `none`),
  /// and the hash of the scene and options all shards must share (`chartscene_render`,
  /// `render`). A scene with sound or captions adds `chartscene_media`: what `concat` adds
  /// to the joined video (the segments are silent).
  public func metadata(frames: Range<Int>, session: Session, render: String) -> [(String, String)] {
    var tags = [("chartscene_shard", text),
                ("chartscene_frames", frames.isEmpty ? "none" : "\(frames.lowerBound)-\(frames.upperBound - 1)"),
                ("chartscene_render", render)]
    let clock = session.simulation.clock
    let media = MediaTrack(session.scene.narration, start: 0, duration: Double(clock.frameCount) / clock.fps)
    if !media.isEmpty { tags.append(("chartscene_media", media.json)) }
    return tags
  }
}
