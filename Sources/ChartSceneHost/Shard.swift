import Glibc

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
