import Dispatch
import Drawing
import Encoding
import Glibc
import RenderCairo
import Platform

/// Renders the frames of an animated scene: a PNG sequence (`%04d` in the name) or a video
/// or animated image through ffmpeg. Frames are simulated in order on this thread (scripts
/// run here), then painted and encoded on a pool of workers, one painter each.
public struct AnimationJob {
  public var output: String
  /// Frames to render (inclusive); nil renders them all.
  public var frames: ClosedRange<Int>?
  public var scale: Double
  public var progress: Bool
  /// Container metadata of a video (MP4, WebM): the version, a shard's identity.
  public var metadata: [(String, String)] = []
  /// A segment of a sharded render: written without the scene's sound and subtitle track
  /// (`concat` adds it once to the joined video; `chartscene_media` tells it what).
  public var silent = false
  /// Write the captions as a `.vtt` beside the video too (not for standard output).
  public var subtitleFile = true
  /// Told (frames done, frames in all) after each frame is written (the studio's progress bar).
  public var onFrame: ((Int, Int) -> Void)?

  public init(output: String, frames: ClosedRange<Int>? = nil, scale: Double = 1, progress: Bool = false) {
    self.output = output; self.frames = frames; self.scale = scale; self.progress = progress
  }

  /// True when `path` asks for a sequence of PNG files (`%d`, `%04d`, ...).
  public static func isSequence(_ path: String) -> Bool { sequencePattern(path) != nil }

  static func sequencePattern(_ path: String) -> (prefix: String, width: Int, suffix: String)? {
    OutputName.sequence(path)
  }

  static func name(_ pattern: (prefix: String, width: Int, suffix: String), _ k: Int) -> String {
    var n = String(k)
    while n.count < pattern.width { n = "0" + n }
    return pattern.prefix + n + pattern.suffix
  }

  /// What one run renders and where: checked before any frame is painted.
  /// The most pixels one animated render may draw, all frames together: an hour of 4K
  /// (3840x2160) at 60 fps. A scene of 3600 s at 240 fps and 16384x16384 would be 116,000 times that.
  public static let maximumPixels = 2e12

  struct Plan {
    var range: ClosedRange<Int>
    /// The PNG sequence's name pattern, or nil for one video file.
    var pattern: (prefix: String, width: Int, suffix: String)?
    /// Device pixels of a frame.
    var width: Int
    var height: Int
  }

  /// Renders the frames and writes the output: checks what was asked, starts the encoder,
  /// paints the frames on the workers in order, then puts the files in place.
  public func run(_ session: Session) throws(HostError) {
    let started = StageTiming.now()
    let plan = try check(session)
    let media = mediaTrack(session, plan)
    // The .vtt written beside the video is an output too: never one of the script's inputs
    // (its own captions file `o.vtt` for `-o o.mp4`).
    let subtitles = subtitleFile && media?.webVTT != nil ? MediaTrack.subtitlePath(for: output) : nil
    if let subtitles { try session.refuseInput(subtitles) }
    let scratch: String?
    if media != nil {
      do { scratch = try FFmpegEncoder.scratchName(beside: output, suffix: ".video") } catch { throw HostError(error.description) }
    } else {
      scratch = nil
    }
    defer { if let scratch { unlink(scratch); TempFiles.unregister(scratch) } }
    let video = try encoder(plan, fps: session.simulation.clock.fps, path: scratch ?? output)
    let meter = Progress(total: plan.range.count, enabled: progress, onStep: onFrame)
    defer { meter.finish() }
    var written: [String] = []
    do throws(HostError) {
      try renderFrames(session, plan, video: video, written: &written, meter: meter)
      // Again: callbacks (draw, update, timeline calls) may have read files since the
      // first check.
      if let pattern = plan.pattern {
        for k in plan.range { try session.refuseInput(AnimationJob.name(pattern, k)) }
      } else {
        try session.refuseInput(output)
      }
      if let subtitles { try session.refuseInput(subtitles) }
      if let video { do { try video.finish() } catch { throw HostError(error.description) } }
      if let media, let scratch, let format = AnimationJob.format(of: output) {
        try media.write(silent: scratch, to: output, format: format, subtitleFile: subtitleFile)
      }
      if let pattern = plan.pattern { try AnimationJob.moveIntoPlace(pattern, plan.range) }
      StageTiming.report(frames: plan.range.count, wall: StageTiming.now() - started)
    } catch {
      video?.cancel()
      for f in written { unlink(f); TempFiles.unregister(f) }
      throw error
    }
  }

  /// The frames painted or waiting to be written at once: two workers, two frames each.
  static let framesInFlight = 4

  /// The frames, the output names and the size, or the error that stops the run before it
  /// starts: frames outside the scene, an impossible size, an output that is an input, a
  /// missing folder.
  func check(_ session: Session) throws(HostError) -> Plan {
    let scene = session.scene
    let clock = session.simulation.clock
    let all = 0...(clock.frameCount - 1)
    let range = frames ?? all
    guard range.lowerBound >= 0, range.upperBound <= all.upperBound else {
      throw HostError.usage("bad --frames \(range.lowerBound)-\(range.upperBound): the scene has frames 0-\(all.upperBound) (\(clock.frameCount) at \(Int(clock.fps)) fps)")
    }
    try RenderJob.checkSize(width: scene.width, height: scene.height, scale: scale)
    let pixels = Double(range.count) * (scene.width * scale).rounded() * (scene.height * scale).rounded()
    guard pixels <= AnimationJob.maximumPixels else {
      throw HostError("the animation would be \(range.count) frames of \(Int((scene.width * scale).rounded()))x\(Int((scene.height * scale).rounded())) pixels, "
        + "\(Int((pixels / 1e9).rounded())) billion pixels in all; the largest is 2000 billion (an hour of 4K at 60 fps): fewer frames (--frames, --fps, duration) or a smaller size")
    }
    try RenderJob.checkPixels(session, scale: scale, images: AnimationJob.framesInFlight, output: output)
    let pattern = AnimationJob.sequencePattern(output)
    if let pattern {
      for k in range { try session.refuseInput(AnimationJob.name(pattern, k)) }
    } else {
      try session.refuseInput(output)
    }
    do { try AtomicOutput.checkTarget(output) } catch { throw HostError(error.description) }
    return Plan(range: range, pattern: pattern, width: Int((scene.width * scale).rounded()), height: Int((scene.height * scale).rounded()))
  }

  /// The encoder of a video or animated image (nil for a PNG sequence), writing `path`
  /// (the output, or a silent video the sound is added to).
  func encoder(_ plan: Plan, fps: Double, path: String? = nil) throws(HostError) -> FrameEncoder? {
    guard plan.pattern == nil else { return nil }
    guard let format = AnimationJob.format(of: output) else {
      throw HostError("cannot write '\(output)': an animated scene needs .mp4, .webm, .gif, .webp, .apng or a PNG sequence like out-%04d.png")
    }
    do { return try FFmpegEncoder.encoder(path: path ?? output, format: format, width: plan.width, height: plan.height, fps: fps, metadata: metadata) } catch { throw HostError(error.description) }
  }

  static func format(of path: String) -> FFmpegEncoder.Format? {
    FFmpegEncoder.Format(rawValue: Paths.fileExtension(of: path))
  }

  /// The sound and subtitles to add to this video: nil without any, for a silent segment
  /// (`--shard`), and for outputs that hold no sound (GIF, WebP, APNG, PNG sequences: the
  /// audio is then left out with a warning; the captions are in the frames all the same).
  func mediaTrack(_ session: Session, _ plan: Plan) -> MediaTrack? {
    let n = session.scene.narration
    guard !n.isEmpty, !silent else { return nil }
    let format = plan.pattern == nil ? AnimationJob.format(of: output) : nil
    guard let format, format == .mp4 || format == .webm else {
      if !n.audio.isEmpty {
        let kind = plan.pattern != nil ? "a PNG sequence" : "a " + (format?.rawValue.uppercased() ?? "file")
        session.context.warn("the scene's audio is left out: '\(output)' is \(kind), which holds no sound (write .mp4 or .webm)")
      }
      return nil
    }
    let clock = session.simulation.clock
    return MediaTrack(n, start: clock.time(ofFrame: plan.range.lowerBound), duration: Double(plan.range.count) / clock.fps)
  }

  /// A shard with no frames: the same checks as a run, then, for a video, a file of no frames
  /// that carries only its metadata (an MP4 with no stream); for a PNG sequence, nothing.
  public func runEmpty(_ session: Session) throws(HostError) {
    var all = self
    all.frames = nil
    let plan = try all.check(session)
    guard let video = try encoder(plan, fps: session.simulation.clock.fps) else { return }
    do { try video.finish() } catch { throw HostError(error.description) }
  }

  /// Simulates the frames in order on this thread (scripts run here) and paints them on a
  /// pool of workers, at most two frames ahead each; finished frames go to `video` in order,
  /// or to the sequence's temporary files (listed in `written`).
  func renderFrames(_ session: Session, _ plan: Plan, video: FrameEncoder?, written: inout [String], meter: Progress) throws(HostError) {
    let clock = session.simulation.clock
    let range = plan.range
    let workers = AnimationJob.framesInFlight / 2
    let pool = PainterPool(fonts: session.text.fonts)
    // Buffers of painted frames, and of converted ones (YUV for MP4 and WebM: made on the
    // worker that painted the frame, while its pixels are in that core's cache, instead of
    // on this thread between two frames' scripts).
    let spares = SparePixels(keep: AnimationJob.framesInFlight)
    let convertedSpares = SparePixels(keep: AnimationJob.framesInFlight)
    var sent: [UInt8]? = nil
    let conversion = video?.conversion
    let queue = DispatchQueue(label: "chartscene.paint", attributes: .concurrent)
    // Starts at 0 and is raised: libdispatch traps when a semaphore is released below the
    // value it was created with (as it would be after an error mid-render).
    let inFlight = DispatchSemaphore(value: 0)
    for _ in 0..<(workers * 2) { inFlight.signal() }
    let results = Locked<[Int: Result<PaintedFrame, Error>]>([:])
    // Signalled once for every frame a worker is done with: this thread, when every frame in
    // flight is taken, sleeps until one is done. (It polled every 5 ms before, the workers
    // idle meanwhile: W6 took 1.38 s of wall time against 1.14 now, medians of 10 paired
    // runs, the same CPU and frames; cards.lua, never waiting here, is unchanged.)
    let done = DispatchSemaphore(value: 0)
    let group = DispatchGroup()
    // Whatever happens, no worker is still painting when this returns.
    defer { group.wait() }
    var next = range.lowerBound
    let scale = self.scale

    // Writes finished frames to the encoder in order.
    func flush(wait: Bool) throws(HostError) {
      while next <= range.upperBound {
        guard let r = results.take(next) else {
          if wait { group.wait(); continue }
          return
        }
        switch r {
        case .failure(let e as HostError): throw e
        case .failure(let e): throw HostError("cannot render frame \(next): \(e)")
        case .success(.file): break
        case .success(.image(let img)):
          if let video {
            let t0 = StageTiming.cpuNow()
            do { try video.write(img) } catch { throw HostError(error.description) }
            if StageTiming.enabled { StageTiming.add(.encode, StageTiming.cpuNow() - t0) }
          }
          // The frame before this one is no longer held by anything here: its pixels
          // go to the next frame to be painted (this frame's, while still held, would be
          // copied on the first write).
          if let pixels = sent.take() { spares.give(pixels) }
          sent = img.pixels
        case .success(.converted(let bytes)):
          if let video {
            let t0 = StageTiming.cpuNow()
            do { try video.write(converted: bytes) } catch { throw HostError(error.description) }
            if StageTiming.enabled { StageTiming.add(.encode, StageTiming.cpuNow() - t0) }
          }
          if let earlier = sent.take() { convertedSpares.give(earlier) }
          sent = bytes
        }
        inFlight.signal()
        meter.step()
        next += 1
      }
    }

    for k in range {
      let list = try session.displayList(at: clock.time(ofFrame: k))
      while inFlight.wait(timeout: .now()) == .timedOut {
        done.wait()
        try flush(wait: false)
      }
      let target = plan.pattern.map { AnimationJob.name($0, k) }
      if let target {
        written.append(AnimationJob.tempName(for: target))
        TempFiles.register(AnimationJob.tempName(for: target))
      }
      group.enter()
      queue.async {
        let painter = pool.take()
        defer { pool.give(painter); done.signal(); group.leave() }
        results.set(k, Result<PaintedFrame, Error> {
          guard var img = try AnimationJob.paint(list, scale: scale, painter: painter, sequenceFile: target, reusing: spares.take()) else { return .file }
          guard let conversion else { return .image(img) }
          let bytes = StageTiming.measure(.encode) { conversion.convert(img, reusing: convertedSpares.take()) }
          var pixels: [UInt8] = []
          swap(&pixels, &img.pixels)
          spares.give(consume pixels)
          return .converted(bytes)
        })
      }
      try flush(wait: false)
    }
    try flush(wait: true)
  }

  /// Paints one frame: into its PNG file of a sequence (under its temporary name; nil is
  /// returned), or as pixels for the encoder.
  static func paint(_ list: DisplayList, scale: Double, painter: CairoPainter, sequenceFile target: String?, reusing spare: consuming [UInt8] = []) throws -> RasterImage? {
    guard let target else {
      // Moved, not copied, into the painter: a second reference would make it copy the
      // buffer before painting into it.
      var buffer = consume spare
      return try StageTiming.measure(.paint) {
        var mine: [UInt8] = []
        swap(&mine, &buffer)
        return try painter.raster(list, scale: scale, reusing: consume mine)
      }
    }
    let png = try StillRenderer.png(list, scale: scale, threads: 1, painter: painter)
    do { try StageTiming.measure(.encode) { try AtomicOutput.write(png, to: AnimationJob.tempName(for: target)) } } catch let e as AtomicOutput.WriteError {
      // Named as the user named it, not by its temporary name.
      throw HostError(AtomicOutput.WriteError(path: target, reason: e.reason).description)
    }
    return nil
  }

  /// Renames a finished sequence's temporary files to their names. Each frame stays
  /// registered once in place until all are: a stop in between removes them all (no half
  /// sequence).
  static func moveIntoPlace(_ pattern: (prefix: String, width: Int, suffix: String), _ range: ClosedRange<Int>) throws(HostError) {
    var placed: [String] = []
    defer { for f in placed { TempFiles.unregister(f) } }
    for k in range {
      let final = AnimationJob.name(pattern, k)
      if TempFiles.rename(AnimationJob.tempName(for: final), final, registering: true) != 0 {
        throw HostError("cannot write '\(final)': \(String(cString: strerror(errno)))")
      }
      placed.append(final)
    }
  }

  /// The temporary name of a frame of a sequence: unique to this process (its id and a
  /// random number), so two runs writing into one folder never share one.
  static func tempName(for path: String) -> String {
    let dir = path.contains("/") ? Paths.directory(of: path) + "/" : ""
    return dir + ".chartscene-" + tempToken + "-" + Paths.fileName(of: path)
  }
  static let tempToken = "\(getpid())-\(String(UInt32.random(in: 0...UInt32.max), radix: 36))"
}

/// Painters handed to worker threads (each has its own Pango context).
final class PainterPool: @unchecked Sendable {
  private var free: [CairoPainter] = []
  private let lock = Lock()
  private let fonts: TextFonts
  init(fonts: TextFonts = .bundled) { self.fonts = fonts }
  func take() -> CairoPainter {
    lock.locked { free.popLast() } ?? CairoPainter(text: PangoText(fonts: fonts))
  }
  func give(_ p: CairoPainter) { lock.locked { free.append(p) } }
}

/// A frame done by a worker: written to its file (a PNG sequence), painted, or painted and
/// converted for the encoder (`FrameEncoder.conversion`).
enum PaintedFrame {
  case file
  case image(RasterImage)
  case converted([UInt8])
}

/// The pixels of frames already sent to the encoder, for the next frames to be painted into
/// (at most `keep` of them).
final class SparePixels: @unchecked Sendable {
  private var free: [[UInt8]] = []
  private let lock = Lock()
  private let keep: Int
  init(keep: Int) { self.keep = keep }
  /// A buffer, or an empty array when there is none (the painter then allocates).
  func take() -> [UInt8] { lock.locked { free.popLast() } ?? [] }
  func give(_ pixels: [UInt8]) { lock.locked { if free.count < keep { free.append(pixels) } } }
}

/// A value behind a mutex.
final class Locked<T>: @unchecked Sendable {
  private var value: T
  private let lock = Lock()
  init(_ v: T) { value = v }
  func set<K: Hashable, V>(_ k: K, _ v: V) where T == [K: V] { lock.locked { value[k] = v } }
  func take<K: Hashable, V>(_ k: K) -> V? where T == [K: V] { lock.locked { value.removeValue(forKey: k) } }
}

/// A progress line on stderr (frames, fps, ETA) when it is a terminal; silent otherwise.
final class Progress {
  let total: Int
  let enabled: Bool
  let onStep: ((Int, Int) -> Void)?
  var done = 0
  let start: Double
  var lastDraw = 0.0

  init(total: Int, enabled: Bool, onStep: ((Int, Int) -> Void)? = nil) {
    self.total = total
    self.enabled = enabled && isatty(2) != 0
    self.onStep = onStep
    start = Progress.now()
  }

  static func now() -> Double { Clock.monotonic() }

  func step() {
    done += 1
    onStep?(done, total)
    guard enabled else { return }
    let t = Progress.now()
    if t - lastDraw < 0.1 && done < total { return }
    lastDraw = t
    let elapsed = max(1e-6, t - start)
    let fps = Double(done) / elapsed
    let eta = Double(total - done) / max(1e-6, fps)
    let width = 24
    let filled = total > 0 ? width * done / total : width
    let bar = String(repeating: "█", count: filled) + String(repeating: "░", count: width - filled)
    let line = "\r\(bar) \(done)/\(total) frames  \(Int(fps.rounded())) fps  ETA \(String(Int(eta.rounded(.up)))) s "
    _ = line.withCString { Glibc.write(2, $0, strlen($0)) }
  }

  func finish() {
    guard enabled, done > 0 else { return }
    _ = "\n".withCString { Glibc.write(2, $0, 1) }
  }
}
