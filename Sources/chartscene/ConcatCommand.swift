import ArgumentParser
import ChartSceneHost
import Encoding
import Glibc

/// `chartscene concat OUT.mp4 SEGMENT.mp4...`: joins the segments of a sharded render.
struct ConcatCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "concat",
    abstract: "Join MP4 segments rendered with --shard into one MP4, without re-encoding.",
    discussion: "Give the segments in order (1/N first). Each must come from the same scene and options with --shard I/N.")

  @Argument(help: "The MP4 to write.", completion: .file(extensions: ["mp4"]))
  var output: String

  @Argument(help: "The segments, in order.", completion: .file(extensions: ["mp4"]))
  var segments: [String] = []

  func validate() throws {
    if segments.isEmpty { throw ValidationError("'concat' needs the segments to join after OUT") }
  }

  func run() throws {
    TempFiles.removeOnSignals()
    guard output.lowercased().hasSuffix(".mp4") else {
      throw HostError("cannot write '\(output)': concat joins MP4 segments into an .mp4")
    }
    for s in segments {
      guard s.lowercased().hasSuffix(".mp4") else { throw HostError("cannot join '\(s)': segments are .mp4 files written with --shard") }
      var st = stat()
      guard stat(s, &st) == 0 else { throw HostError("cannot read '\(s)': \(errno == ENOENT ? "no such file" : String(cString: strerror(errno)))") }
      guard (st.st_mode & S_IFMT) == S_IFREG else { throw HostError("cannot read '\(s)': not a regular file") }
      guard access(s, R_OK) == 0 else { throw HostError("cannot read '\(s)': \(String(cString: strerror(errno)))") }
      if let a = AssetLocator.realPath(s), let b = AssetLocator.realPath(output), a == b {
        throw HostError("cannot write '\(output)': it is one of the segments")
      }
    }
    let dir = output.lastIndex(of: "/").map { String(output[..<$0]) } ?? "."
    var st = stat()
    if stat(dir.isEmpty ? "/" : dir, &st) != 0 || (st.st_mode & S_IFMT) != S_IFDIR {
      throw HostError("cannot write '\(output)': the folder '\(dir)' does not exist")
    }
    do { try FFmpegEncoder.concat(segments, to: output) } catch { throw HostError(error.description) }
  }
}
