import ArgumentParser
import ChartSceneHost
import Platform
import Studio

/// `chartscene serve SCRIPT.lua [--port N] [--host ADDR] [--open] [--out DIR] [scene options]`:
/// the studio in a browser (docs/studio.md).
struct ServeCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "serve",
    abstract: "Serve the studio: see, scrub, touch, record and render the scene in a browser.",
    discussion: "Prints one line with the URL (http://127.0.0.1:PORT/?token=...); every request needs its token. Reloads on save as --live does. Renders and recordings are written into --out (default: the script's folder). See docs/studio.md.")

  @Argument(help: "The scene script (a .lua file that returns cs.scene{...}).", completion: .file(extensions: ["lua"]))
  var script: String

  @Option(help: "The port to listen on (0: a free one, printed).")
  var port: Int = 8765

  @Option(help: "The address to listen on (127.0.0.1: this machine only; 0.0.0.0: every network, with a warning).")
  var host: String = "127.0.0.1"

  @Flag(help: "Open the URL in the desktop's browser (xdg-open).")
  var open = false

  @Option(help: "The folder renders and recordings are written into (default: the script's folder).", completion: .directory)
  var out: String?

  @OptionGroup
  var scene: SceneOptions

  func validate() throws {
    if script == "-" { throw ValidationError("a script read from standard input cannot be served (it is reloaded on save): give its file") }
    guard (0...65535).contains(port) else { throw ValidationError("bad --port \(port) (0 to 65535; 0 picks a free one)") }
    guard !host.isEmpty, host.utf8.count <= 253, host.allSatisfy({ $0.isLetter || $0.isNumber || ".-:".contains($0) }) else {
      throw ValidationError("bad --host '\(host)' (an address such as 127.0.0.1, ::1 or 0.0.0.0)")
    }
    if let out { do { try RenderRequest.checkReadable(out) } catch { throw ValidationError("bad --out '\(out)': not a folder") } }
  }

  /// The scene options as words of a headless render's command line ("copy command").
  var commandWords: [String] {
    var w: [String] = []
    if let s = scene.size { w += ["--size", s] }
    if let f = scene.fps { w += ["--fps", String(f)] }
    if let t = scene.theme { w += ["--theme", t] }
    if let p = scene.preset { w += ["--preset", p] }
    if let l = scene.locale { w += ["--locale", l] }
    if let z = scene.timezone { w += ["--timezone", z] }
    for a in scene.args { w += ["--arg", a] }
    for d in scene.allowRead { w += ["--allow-read", d] }
    if scene.maxTime != 10 { w += ["--max-time", String(scene.maxTime)] }
    if scene.maxMemory != "1G" { w += ["--max-memory", scene.maxMemory] }
    return w
  }

  func run() throws {
    // Ctrl-C, SIGTERM, SIGHUP: a render in progress leaves no temporary file, and the server
    // stops at once (open pages do not hold it, as a graceful shutdown would wait for them).
    TempFiles.removeOnSignals()
    Watchdog.start()
    let folder = out ?? { let d = Paths.directory(of: script); return d.isEmpty ? "." : d }()
    var overrides = scene.overrides()
    // The page chooses the theme and the size; the command line's are where it starts.
    if scene.theme == nil { overrides.theme = nil }
    var options = StudioServer.Options(session: StudioSession.Options(script: script, overrides: overrides, outFolder: folder, commandWords: commandWords))
    options.host = host
    options.port = port
    options.open = open
    try StudioServer(options: options).run()
  }
}
