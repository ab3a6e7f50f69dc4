/// One output of a loaded scene, as `chartscene SCRIPT -o OUT` and each line of a batch file
/// ask for it (the values already read by `RenderRequest`): a still (`at`) or the frames of
/// an animation, a whole video or one shard of it.
public struct OutputRequest {
  /// The file to write; its extension picks the format.
  public var output: String
  /// The time of a still's frame (`--at`).
  public var at: Double?
  /// Frames A-B of an animation (`--frames`).
  public var frames: ClosedRange<Int>?
  /// Device pixels per scene pixel.
  public var scale: Double = 1
  /// `--shard I/N`: this worker's part of the frames.
  public var shard: Shard?
  /// The largest still image or document to write, in bytes.
  public var maxOutput: Int = RenderJob.defaultMaxOutput
  /// Whether a progress bar is drawn while frames are written.
  public var progress = false
  /// Whether warnings are left out.
  public var quiet = false
  /// The output's name in messages when it is not `output` ("-" for standard output, which
  /// gets no subtitle file beside it).
  public var shownAs: String?
  /// Told (frames done, frames in all) after each frame of an animation is written.
  public var onFrame: ((Int, Int) -> Void)?

  public init(output: String) { self.output = output }

  /// Writes the output of `session`.
  public func write(_ session: Session) throws(HostError) {
    let name = shownAs ?? output
    guard RenderJob.isAnimated(output) else {
      guard shard == nil else { throw .usage("--shard needs an animated output (.mp4 or NAME-%04d.png), not '\(name)'") }
      guard frames == nil else { throw .usage("--frames needs an animated output (.mp4, .webm, .gif, .webp, .apng or NAME-%04d.png), not '\(name)'") }
      try RenderJob(output: output, time: at ?? 0, scale: scale, maxOutput: maxOutput).run(session)
      return
    }
    guard at == nil else { throw .usage("--at picks one frame of a still output (.png, .svg, .pdf); use --frames for '\(name)'") }
    if session.scene.duration <= 0 && !quiet {
      Session.printError("warning: the scene is a still (duration 0): '\(name)' holds its one frame (give cs.scene a duration to animate it)")
    }
    var job = AnimationJob(output: output, frames: frames, scale: scale, progress: progress)
    // Which chartscene wrote it, in the containers that hold metadata (MP4, WebM).
    job.metadata = [("comment", BuildStamp.versionLine)]
    job.subtitleFile = shownAs != "-"
    job.onFrame = onFrame
    if let s = shard {
      let range = try s.frames(of: session, output: output)
      if !AnimationJob.isSequence(output) {
        let render = session.fingerprint(scale: scale, preset: session.overrides.preset, args: session.overrides.args)
        job.metadata += s.metadata(frames: range, session: session, render: render)
      }
      job.silent = true
      // More shards than parts: this one has no frames. An MP4 segment is still written
      // (no stream, only its metadata) so that concat sees a full set; a PNG sequence
      // gets nothing.
      guard !range.isEmpty else { try job.runEmpty(session); return }
      job.frames = range.lowerBound...(range.upperBound - 1)
    }
    try job.run(session)
  }
}
