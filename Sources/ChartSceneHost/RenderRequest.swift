/// What the command line asks of a render, lint or batch job, checked in one place: each
/// setting's text is read and bounded here, with the one message a bad value gets, so that
/// `chartscene SCRIPT`, `chartscene lint`, the lines of a batch file and a shard all accept
/// and refuse the same things. The executable only parses words into these.
public enum RenderRequest {
  /// `--size WxH`: scene pixels, each 1 to 16384 ("720x1280"; "720xx1280" is refused).
  public static func size(_ text: String) throws(HostError) -> (width: Double, height: Double) {
    let parts = text.lowercased().split(separator: "x", omittingEmptySubsequences: false)
    guard parts.count == 2, let w = Double(parts[0]), let h = Double(parts[1]), w >= 1, h >= 1, w <= 16384, h <= 16384 else {
      throw .usage("bad --size '\(text)' (expected WxH, e.g. 720x1280, each 1 to 16384)")
    }
    return (w, h)
  }

  /// `--frames A-B` (inclusive, from 0) or one frame `N`.
  public static func frames(_ text: String) throws(HostError) -> ClosedRange<Int> {
    let parts = text.split(separator: "-", omittingEmptySubsequences: false)
    guard (1...2).contains(parts.count), let a = Int(parts[0]), let b = Int(parts.last!), a >= 0, b >= a else {
      throw .usage("bad --frames '\(text)' (expected A-B, e.g. 0-59, or one frame N)")
    }
    return a...b
  }

  /// `--at T`: seconds of the frame to render, 0 to 3600 (a time is reached by simulating
  /// every tick from 0: at most a scene's longest duration).
  public static func checkAt(_ at: Double) throws(HostError) {
    guard at.isFinite, at >= 0 else { throw .usage("bad --at \(at) (seconds, 0 or more)") }
    guard at <= 3600 else { throw .usage("bad --at \(at) (seconds, at most 3600)") }
  }

  /// `--scale S`: device pixels per scene pixel, above 0 and at most 16.
  public static func checkScale(_ scale: Double) throws(HostError) {
    guard scale.isFinite, scale > 0, scale <= 16 else { throw .usage("bad --scale \(scale) (must be above 0 and at most 16)") }
  }

  /// `--fps`: 1 to 240.
  public static func checkFPS(_ fps: Double) throws(HostError) {
    guard fps >= 1, fps <= 240 else { throw .usage("bad --fps \(fps) (1 to 240)") }
  }

  /// `--max-time`: seconds a script call may run, above 0 and at most a day.
  public static func checkMaxTime(_ t: Double) throws(HostError) {
    guard t.isFinite, t > 0, t <= 86400 else { throw .usage("bad --max-time \(t) (seconds, above 0 and at most 86400)") }
  }

  /// `--max-total-time`: CPU seconds of the whole run, above 0 and at most a week.
  public static func checkMaxTotalTime(_ t: Double) throws(HostError) {
    guard t.isFinite, t > 0, t <= 7 * 86400 else { throw .usage("bad --max-total-time \(t) (seconds, above 0 and at most 604800)") }
  }

  /// `--theme`: a built-in theme.
  public static func checkTheme(_ name: String) throws(HostError) {
    guard Session.isTheme(name) else { throw .usage("invalid theme '\(name)' for --theme, expected one of: 'day', 'night'") }
  }

  /// "512M", "2G", "1.5G", "300000K", "1T" (binary units; a bare number is MiB), from
  /// `minimum` bytes to 1 TiB; nil when it is not one.
  public static func memory(_ s: String, minimum: Int = 1 << 20) -> Int? {
    var text = s.uppercased()
    if text.hasSuffix("IB") { text.removeLast(2) } else if text.hasSuffix("B") { text.removeLast() }
    var unit = 1 << 20
    switch text.last {
    case "K": unit = 1 << 10; text.removeLast()
    case "M": unit = 1 << 20; text.removeLast()
    case "G": unit = 1 << 30; text.removeLast()
    case "T": unit = 1 << 40; text.removeLast()
    default: break
    }
    guard let n = Double(text), n.isFinite else { return nil }
    let bytes = n * Double(unit)
    guard bytes >= Double(minimum), bytes <= Double(1 << 40) else { return nil }
    return Int(bytes)
  }

  /// `--max-memory`: the script's heap and data, 1M to 1T.
  public static func maxMemory(_ text: String) throws(HostError) -> Int {
    guard let m = memory(text) else { throw .usage("bad --max-memory '\(text)' (expected a size from 1M to 1T, e.g. 512M or 2G)") }
    return m
  }

  /// `--max-output`: the largest still or document, 1K to 1T.
  public static func maxOutput(_ text: String) throws(HostError) -> Int {
    guard let m = memory(text, minimum: 1 << 10) else { throw .usage("bad --max-output '\(text)' (expected a size from 1K to 1T, e.g. 64M or 2G)") }
    return m
  }

  /// `--allow-read DIR`: an existing folder.
  public static func checkReadable(_ dir: String) throws(HostError) {
    guard AssetLocator.realPath(dir).map(AssetLocator.isDirectory) ?? false else { throw .usage("bad --allow-read '\(dir)': not a folder") }
  }
}
