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
