import ArgumentParser
import ChartSceneHost
import Glibc

/// `chartscene lint SCRIPT.lua... [--frames A-B] [--size WxH] [--theme T] [--preset P] [--arg K=V] ...`
struct LintCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "lint",
    abstract: "Check every frame of a scene for overlapping or clipped labels and misplaced posters.",
    discussion: "Prints one line per finding ('lint: FILE: t=1.23 s: chart 'views': labels '6.6K' and '6.5K' overlap') and exits 1 when there is any (or a script fails: its error: line, and the next script is checked), 0 when there is none.")

  @Argument(help: "The scene scripts (.lua files that return cs.scene{...}), each checked with the same options.", completion: .file(extensions: ["lua"]))
  var scripts: [String]

  @Option(help: "Frames A-B to check (inclusive, from 0); default: every frame (a still has one).")
  var frames: String?

  @OptionGroup
  var scene: SceneOptions

  func validate() throws {
    if scripts.isEmpty { throw ValidationError("Missing expected argument '<scripts> ...'") }
    if let frames { do { _ = try RenderRequest.frames(frames) } catch { throw ValidationError(error.message) } }
  }

  func run() throws {
    Watchdog.start()
    Watchdog.limitTotal(scene.maxTotalTime, script: scripts.count == 1 ? scripts[0] : "lint")
    var clean = true
    for script in scripts {
      do throws(HostError) { clean = try check(script) && clean } catch {
        // One script: its error ends the run as a render's does (a usage error exits 64).
        // Several: each error is its line, and the others are still checked (as in a batch).
        if scripts.count == 1 { throw error }
        Session.printError("error: \(error.message)")
        clean = false
      }
    }
    if !clean { throw ExitCode(1) }
  }

  /// Lints one script, printing its findings; true when it has none.
  func check(_ script: String) throws(HostError) -> Bool {
    let session = try Session.open(script, overrides: scene.overrides())
    let findings = try Lint(session: session).run(frames: frames.flatMap { try? RenderRequest.frames($0) })
    for f in findings {
      print("lint: \(script): t=\(LintCommand.seconds(f.time)) s: \(f.message)")
    }
    return findings.isEmpty
  }

  /// `1.23`, `0`, `2.5`.
  static func seconds(_ t: Double) -> String {
    let c = (t * 100).rounded()
    let whole = Int(c) / 100, frac = Int(c) % 100
    if frac == 0 { return "\(whole)" }
    return frac % 10 == 0 ? "\(whole).\(frac / 10)" : "\(whole).\(frac < 10 ? "0" : "")\(frac)"
  }
}
