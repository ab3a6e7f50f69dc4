import ArgumentParser
import ChartSceneHost
import Platform

/// `chartscene concat OUT.mp4 SEGMENT.mp4...`: joins the segments of a sharded render.
struct ConcatCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "concat",
    abstract: "Join MP4 segments rendered with --shard into one MP4, without re-encoding.",
    discussion: "Give the segments in order (1/N first), every one of the N, each written with --shard I/N from the same scene and options: concat reads their metadata and refuses a set with a shard missing, twice or out of order, mixed counts, or segments of another render.")

  @Argument(help: "The MP4 to write.", completion: .file(extensions: ["mp4"]))
  var output: String

  @Argument(help: "The segments, in order.", completion: .file(extensions: ["mp4"]))
  var segments: [String] = []

  @Option(name: .customLong("allow-read"), help: ArgumentHelp("A folder the scene's sound may be read from, besides the current one and the segments' (repeatable).", valueName: "DIR"),
          completion: .directory)
  var allowRead: [String] = []

  func validate() throws {
    if segments.isEmpty { throw ValidationError("'concat' needs the segments to join after OUT") }
    do throws(HostError) {
      for d in allowRead { try RenderRequest.checkReadable(d) }
    } catch { throw ValidationError(error.message) }
  }

  func run() throws {
    TempFiles.removeOnSignals()
    try ShardJoin.join(segments, into: output, allowRead: allowRead)
  }
}
