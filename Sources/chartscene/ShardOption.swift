import ChartSceneHost
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
}
