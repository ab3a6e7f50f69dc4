import ChartSceneLua
import Drawing
import Encoding
import Glibc
import RenderCairo
import Platform
import SceneGraph

/// Renders a session's scene at one time to a file whose extension picks the format.
public struct RenderJob {
  public enum Format: String, CaseIterable { case png, svg, pdf }
  /// Formats of the contract that need the clock and the ffmpeg encoders.
  public static let animatedFormats = ["gif", "webp", "apng", "mp4", "webm"]

  public var output: String
  public var time: Double
  public var scale: Double
  /// The default of `--max-output`.
  public static let defaultMaxOutput = OutputLimit.defaultBytes
  /// The largest file this job may write (`--max-output`).
  public var maxOutput: Int

  public init(output: String, time: Double = 0, scale: Double = 1, maxOutput: Int = OutputLimit.defaultBytes) {
    self.output = output; self.time = time; self.scale = scale; self.maxOutput = maxOutput
  }

  /// True for outputs made of many frames: videos, animated images, PNG sequences.
  public static func isAnimated(_ path: String) -> Bool {
    let ext = Paths.fileExtension(of: path)
    return animatedFormats.contains(ext) || AnimationJob.isSequence(path)
  }

  public static func format(of path: String) throws(HostError) -> Format {
    let ext = Paths.fileExtension(of: path)
    if let f = Format(rawValue: ext) { return f }
    throw HostError("cannot write '\(path)': unknown output format '\(ext.isEmpty ? "(none)" : "." + ext)', expected one of: .png, .svg, .pdf, .gif, .webp, .apng, .mp4, .webm, or a PNG sequence NAME-%04d.png")
  }

  /// Checks that the output size is drawable before any work is done.
  public static func checkSize(width: Double, height: Double, scale: Double) throws(HostError) {
    try RenderRequest.checkScale(scale)
    let dw = (width * scale).rounded(), dh = (height * scale).rounded()
    guard dw >= 1, dh >= 1 else { throw HostError("the image would be empty (\(Int(dw))x\(Int(dh)) pixels)") }
    guard dw <= 32768, dh <= 32768, dw * dh <= 268_435_456 else {
      throw HostError("the image would be \(Int(dw))x\(Int(dh)) pixels; the largest is 32768 on a side and 268 million pixels")
    }
  }

  /// Charges the pixels of `images` images of the scene at `scale` (4 bytes a pixel; a still
  /// is one, an animation the frames it paints at once) against what `--max-memory` leaves
  /// after the script, before any is made.
  public static func checkPixels(_ session: Session, scale: Double, images: Int, output: String) throws(HostError) {
    let limit = session.lua.memoryLimit
    guard limit > 0 else { return }
    let w = Int((session.scene.width * scale).rounded()), h = Int((session.scene.height * scale).rounded())
    let need = w * h * 4 * images
    let left = max(0, limit - session.lua.memoryUsed)
    guard need > left else { return }
    func mib(_ b: Int) -> String { String(Double(b * 10 / (1 << 20)) / 10) }
    let what = images == 1 ? "the image of \(w)x\(h) pixels needs" : "\(images) frames of \(w)x\(h) pixels painted at once need"
    throw HostError("cannot render '\(output)': \(what) \(mib(need)) MiB, more than --max-memory leaves (\(mib(left)) MiB)")
  }

  /// Charges what cairo will hold while it writes an SVG or PDF (`VectorFootprint`: the
  /// whole page in memory) against what `--max-memory` leaves after the script, before
  /// cairo is given anything.
  public static func checkVector(_ session: Session, _ list: DisplayList, scale: Double, output: String) throws(HostError) {
    let limit = session.lua.memoryLimit
    guard limit > 0 else { return }
    let (need, items) = VectorFootprint.estimate(list, scale: scale)
    let left = max(0, limit - session.lua.memoryUsed)
    guard need > left else { return }
    func mib(_ b: Int) -> String { b >= Int.max / 2 ? "more than 4 EiB" : String(Double(b / (1 << 20) * 10 + (b % (1 << 20)) * 10 / (1 << 20)) / 10) + " MiB" }
    throw HostError("cannot render '\(output)': the document of \(items) shapes and texts needs about \(mib(need)) while cairo writes it, more than --max-memory leaves (\(mib(left)))")
  }

  /// A still PNG with its Title, Description and Software text chunks (`PNGText`).
  static func withText(_ png: [UInt8], _ info: DocumentInfo) -> [UInt8] {
    PNGText.insert([("Title", info.title), ("Description", info.description), ("Software", "chartscene \(BuildInfo.version)")],
                   language: info.language, into: png)
  }

  public func run(_ session: Session) throws(HostError) {
    let format = try RenderJob.format(of: output)
    try RenderJob.checkSize(width: session.scene.width, height: session.scene.height, scale: scale)
    if format == .png { try RenderJob.checkPixels(session, scale: scale, images: 1, output: output) }
    try session.refuseInput(output)
    let list = try session.displayList(at: time)
    if format != .png { try RenderJob.checkVector(session, list, scale: scale, output: output) }
    let painter = CairoPainter(text: session.text)
    // The title and description for readers who do not see the picture (SceneDescription).
    let info = SceneDescription.make(session.scene, at: time)
    let bytes: [UInt8]
    do {
      switch format {
      // The session's text system: its layouts are already made (the scene was measured).
      case .png: bytes = try RenderJob.withText(StillRenderer.png(list, scale: scale, painter: painter), info)
      case .svg: bytes = try painter.vector(list, scale: scale, format: .svg, limit: maxOutput, info: info)
      case .pdf: bytes = try painter.vector(list, scale: scale, format: .pdf, limit: maxOutput, info: info)
      }
    } catch {
      throw HostError("cannot render '\(output)': \(error)")
    }
    guard bytes.count <= maxOutput else {
      throw HostError("cannot render '\(output)': the image would be larger than \(OutputLimit.text(maxOutput)) (--max-output)")
    }
    // Again: a draw callback may have read a file since the first check.
    try session.refuseInput(output)
    do { try AtomicOutput.write(bytes, to: output) } catch { throw HostError(error.description) }
  }
}
