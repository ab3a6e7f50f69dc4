import ArgumentParser
import ChartSceneHost
import Glibc

/// `chartscene lint SCRIPT.lua [--frames A-B] [--size WxH]`
struct LintCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "lint",
    abstract: "Check every frame of a scene for overlapping or clipped labels and misplaced posters.",
    discussion: "Prints one line per finding ('lint: FILE: t=1.23 s: chart 'views': labels '6.6K' and '6.5K' overlap') and exits 1 when there is any, 0 when there is none.")

  @Argument(help: "The scene script (a .lua file that returns cs.scene{...}).", completion: .file(extensions: ["lua"]))
  var script: String

  @Option(help: "Frames A-B to check (inclusive, from 0); default: every frame (a still has one).")
  var frames: String?

  @Option(help: "Scene size in scene pixels, WxH (overrides the script).")
  var size: String?

  @Option(help: "day or night (overrides the script).", completion: .list(["day", "night"]))
  var theme: String?

  @Option(help: "How dates and numbers are written: en, es, fr, de, pt-BR, ru, uk, zh-Hans, ja, ko, ar, he, hi (overrides the script).")
  var locale: String?

  @Option(help: "The IANA time zone dates are shown in, e.g. Europe/Oslo (overrides the script; default UTC).")
  var timezone: String?

  @Option(help: "CPU seconds the whole check may use.")
  var maxTotalTime: Double = Watchdog.defaultTotal

  func validate() throws {
    guard maxTotalTime.isFinite, maxTotalTime > 0, maxTotalTime <= 7 * 86400 else { throw ValidationError("bad --max-total-time \(maxTotalTime) (seconds, above 0 and at most 604800)") }
    if let frames, Render.parseFramesText(frames) == nil { throw ValidationError("bad --frames '\(frames)' (expected A-B, e.g. 0-59, or one frame N)") }
    if let message = Session.checkFormat(locale: locale, timezone: timezone) { throw ValidationError(message) }
    if let size, Render.parseSizeText(size) == nil { throw ValidationError("bad --size '\(size)' (expected WxH, e.g. 720x1280, each 1 to 16384)") }
  }

  func run() throws {
    Watchdog.start()
    Watchdog.limitTotal(maxTotalTime, script: script)
    var overrides = Session.Overrides(theme: theme)
    overrides.locale = locale
    overrides.timezone = timezone
    if let size, let (w, h) = Render.parseSizeText(size) { overrides.width = w; overrides.height = h }
    let session = try Session.open(script, overrides: overrides)
    let findings = try Lint(session: session).run(frames: frames.flatMap(Render.parseFramesText))
    for f in findings {
      print("lint: \(script): t=\(LintCommand.seconds(f.time)) s: \(f.message)")
    }
    if !findings.isEmpty { Glibc.exit(1) }
  }

  /// `1.23`, `0`, `2.5`.
  static func seconds(_ t: Double) -> String {
    let c = (t * 100).rounded()
    let whole = Int(c) / 100, frac = Int(c) % 100
    if frac == 0 { return "\(whole)" }
    return frac % 10 == 0 ? "\(whole).\(frac / 10)" : "\(whole).\(frac < 10 ? "0" : "")\(frac)"
  }
}

extension Render {
  static func parseSizeText(_ s: String) -> (Double, Double)? {
    let parts = s.lowercased().split(separator: "x")
    guard parts.count == 2, let w = Double(parts[0]), let h = Double(parts[1]), w >= 1, h >= 1, w <= 16384, h <= 16384 else { return nil }
    return (w, h)
  }

  static func parseFramesText(_ s: String) -> ClosedRange<Int>? {
    let parts = s.split(separator: "-", omittingEmptySubsequences: false)
    guard (1...2).contains(parts.count), let a = Int(parts[0]), let b = Int(parts.last!), a >= 0, b >= a else { return nil }
    return a...b
  }
}
