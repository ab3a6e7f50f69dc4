import ArgumentParser
import ChartSceneHost
import Glibc

/// `chartscene lint SCRIPT.lua [--frames A-B] [--size WxH] [--theme T] [--preset P] [--arg K=V] ...`
struct LintCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "lint",
    abstract: "Check every frame of a scene for overlapping or clipped labels and misplaced posters.",
    discussion: "Prints one line per finding ('lint: FILE: t=1.23 s: chart 'views': labels '6.6K' and '6.5K' overlap') and exits 1 when there is any, 0 when there is none.")

  @Argument(help: "The scene script (a .lua file that returns cs.scene{...}).", completion: .file(extensions: ["lua"]))
  var script: String

  @Option(help: "Frames A-B to check (inclusive, from 0); default: every frame (a still has one).")
  var frames: String?

  @OptionGroup
  var scene: SceneOptions

  func validate() throws {
    if let frames { do { _ = try RenderRequest.frames(frames) } catch { throw ValidationError(error.message) } }
  }

  func run() throws {
    Watchdog.start()
    Watchdog.limitTotal(scene.maxTotalTime, script: script)
    let session = try Session.open(script, overrides: scene.overrides())
    let findings = try Lint(session: session).run(frames: frames.flatMap { try? RenderRequest.frames($0) })
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
