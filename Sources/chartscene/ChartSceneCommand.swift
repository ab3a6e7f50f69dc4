import Platform
import ArgumentParser
import ChartSceneHost
import Glibc

/// `chartscene SCRIPT.lua ...` (the default) and `chartscene preset ...`.
struct ChartSceneCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "chartscene",
    abstract: "Render Lua chart scenes to PNG, SVG, PDF, GIF, WebP, APNG, MP4 or WebM.",
    usage: "chartscene SCRIPT.lua [-o OUT] [options]   (chartscene render --help lists the options)\n  chartscene <subcommand> ...",
    discussion: "chartscene SCRIPT.lua renders a scene; the script returns cs.scene{...} (see docs/lua-api.md).",
    version: ChartSceneCommand.versionLine,
    subcommands: [Render.self, ServeCommand.self, PresetCommand.self, CompositionCommand.self, InitCommand.self, DefinitionsCommand.self, LintCommand.self, BatchCommand.self, ConcatCommand.self],
    defaultSubcommand: Render.self)
}

extension ChartSceneCommand {
  /// `chartscene --version`: the version and the commit the binary was built from.
  static var versionLine: String { BuildStamp.versionLine }
}

/// `chartscene SCRIPT.lua [-o OUT] [--at T] [--size WxH] [--scale S] [--theme day|night] [--preset P] [--inspect]`
struct Render: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "render",
    abstract: "Render a scene (the default: chartscene SCRIPT.lua).",
    discussion: "The output format follows the extension of OUT: .png, .svg, .pdf for a frame; .gif, .webp, .apng, .mp4, .webm or NAME-%04d.png for an animated scene.")

  @Argument(help: "The scene script (a .lua file that returns cs.scene{...}; '-': read it from standard input).", completion: .file(extensions: ["lua"]))
  var script: String

  @Option(name: .shortAndLong, parsing: .unconditional, help: "Output file (default: SCRIPT.png, or SCRIPT.mp4 for an animated scene; '-': standard output).", completion: .file())
  var output: String?

  @Option(help: "The output format where no file extension gives it: with -o - or without -o (png, svg, pdf, gif, webp, apng, mp4, webm).", completion: .list(StandardOutput.formats))
  var format: String?

  @Option(parsing: .unconditional, help: "Time in seconds of the frame to render or inspect (a still).")
  var at: Double?

  @Option(parsing: .unconditional, help: "Frames A-B of an animated scene (inclusive, from 0), identical to the same frames of a full render.")
  var frames: String?

  @Option(help: "Render only the I-th of N balanced frame ranges (I from 1), to join with 'chartscene concat' (.mp4: cut at keyframes) or as part of a PNG sequence; 'auto' or 'auto/N' takes I (and N) from a Slurm job array or a Kubernetes Indexed Job.")
  var shard: String?

  @Option(parsing: .unconditional, help: "Device pixels per scene pixel (layout stays in scene pixels).")
  var scale: Double = 1

  @Flag(help: "Print the scene as JSON instead of rendering.")
  var inspect = false

  @Flag(name: .shortAndLong, help: "Print no warnings and no progress (errors still).")
  var quiet = false

  @Flag(name: .shortAndLong, help: "Say what was written (format, size, bytes, time) and which files the script read.")
  var verbose = false

  @Flag(help: "Render again on every save of the script, its modules, data and presets.")
  var watch = false

  @Flag(help: "Show the scene in a window; the pointer drives the gestures; reloads on save. Keys: space play/pause, ←/→ step, Home, r reload, t day/night, s save PNG, i inspect, q quit.")
  var live = false

  @Option(help: "With --live: write the gestures performed as a timeline (a Lua chunk) to this file on quit.", completion: .file(extensions: ["lua"]))
  var record: String?

  @Option(help: "The largest still image or document (PNG, SVG, PDF) to write, e.g. 64M.")
  var maxOutput: String = "512M"

  @OptionGroup
  var scene: SceneOptions

  func validate() throws {
    do throws(HostError) {
      if let at { try RenderRequest.checkAt(at) }
      if at != nil && frames != nil { throw .usage("--at and --frames cannot be used together") }
      if let frames { _ = try RenderRequest.frames(frames) }
      try RenderRequest.checkScale(scale)
      _ = try RenderRequest.maxOutput(maxOutput)
    } catch { throw ValidationError(error.message) }
    try validateShard()
    if record != nil && !live { throw ValidationError("--record needs --live") }
    if live && (watch || inspect || output != nil) { throw ValidationError("--live shows the scene in a window: it takes no -o, --watch or --inspect") }
    if script == "-" && (watch || live) { throw ValidationError("a script read from standard input cannot be watched or shown live (\(watch ? "--watch" : "--live")): give its file") }
    if quiet && verbose { throw ValidationError("--quiet and --verbose cannot be used together") }
    if let format {
      guard StandardOutput.formats.contains(format) else { throw ValidationError("bad --format '\(format)', expected one of: \(StandardOutput.formats.joined(separator: ", "))") }
      if let output, output != "-" { throw ValidationError("--format is for -o - or no -o: the extension of '\(output)' gives the format") }
      if live || inspect { throw ValidationError("--format picks an output format: it does not go with \(live ? "--live" : "--inspect")") }
    }
    if output == "-" && watch { throw ValidationError("-o - writes once to standard output: it does not go with --watch") }
    if let output, output != "-", !live, !inspect {
      do { try OutputName.check(output) } catch { throw ValidationError(error.message) }
      if at != nil && RenderJob.isAnimated(output) { throw ValidationError("--at picks one frame of a still output (.png, .svg, .pdf); use --frames for '\(output)'") }
      if frames != nil && !RenderJob.isAnimated(output) { throw ValidationError("--frames needs an animated output (.mp4, .webm, .gif, .webp, .apng or NAME-%04d.png), not '\(output)'") }
    }
  }

  func overrides() -> Session.Overrides { scene.overrides() }

  /// The frames asked for (validated).
  var frameRange: ClosedRange<Int>? { frames.flatMap { try? RenderRequest.frames($0) } }

  func run() throws {
    // No half-written output when interrupted or when a script is stuck past --max-time.
    // (--live leaves Ctrl-C to the window, which quits cleanly and writes --record.)
    if !live { TempFiles.removeOnSignals() }
    Watchdog.start()
    // (A live window runs as long as its user wants.)
    if !live && !watch { Watchdog.limitTotal(scene.maxTotalTime, script: script) }
    if live {
      try LiveLoop(script: script, overrides: overrides(), record: record).run()
      return
    }
    if watch {
      WatchLoop(script: script) { files in try self.once(files: files) }.run()
    }
    try once(files: nil)
  }

  /// Loads the script and renders (or inspects) once.
  func once(files: ((FileLog) -> Void)?, progress: Bool = true) throws {
    let started = StageTiming.now()
    let session = try Session.open(script, overrides: overrides(), quiet: quiet, files: files)
    if inspect {
      print(try session.inspect(at: at ?? 0), terminator: "")
      return
    }
    let animated = session.scene.duration > 0
    let out = output ?? defaultOutput(for: script, animated: animated)
    if out == "-" {
      let ext = format ?? (animated ? "mp4" : "png")
      try StandardOutput.write(format: ext) { (path: String) throws(HostError) in
        do { try render(session, to: path, progress: false, shownAs: "-") } catch let e as HostError { throw e } catch { throw HostError("\(error)") }
        if verbose { report(session, path, shownAs: "standard output", since: started) }
      }
      return
    }
    try render(session, to: out, progress: progress && !quiet)
    if verbose { report(session, out, shownAs: out, since: started) }
  }

  /// `--verbose`: one line for what was written, one for what was read.
  func report(_ session: Session, _ path: String, shownAs name: String, since start: Double) {
    let seconds = (StageTiming.now() - start)
    let w = Int((session.scene.width * scale).rounded()), h = Int((session.scene.height * scale).rounded())
    var st = stat()
    let bytes = stat(path, &st) == 0 ? " \(st.st_size) bytes," : ""
    let ext = path.split(separator: ".").last.map(String.init) ?? "?"
    Session.printError("wrote \(name): \(ext.uppercased()), \(w)x\(h) px,\(bytes) in \(String(format3: seconds)) s")
    let read = session.files
    Session.printError("read \(session.fromStandardInput ? "the script from standard input" : session.scriptPath)\(read.isEmpty ? "" : ", " + read.joined(separator: ", "))")
  }

  /// Renders to the file `out`, whose extension picks the format.
  func render(_ session: Session, to out: String, progress: Bool, shownAs name: String? = nil) throws {
    var request = OutputRequest(output: out)
    request.at = at
    request.frames = frameRange
    request.scale = scale
    request.shard = try resolvedShard()
    request.maxOutput = (try? RenderRequest.maxOutput(maxOutput)) ?? RenderJob.defaultMaxOutput
    request.progress = progress
    request.quiet = quiet
    request.shownAs = name
    try request.write(session)
  }

  func defaultOutput(for script: String, animated: Bool) -> String {
    if script == "-" { return "-" }
    let base = Paths.fileExtension(of: script) == "lua" ? Paths.removingExtension(script) : script
    return base + "." + (format ?? (animated ? "mp4" : "png"))
  }
}

/// `chartscene preset list | show NAME | export NAME`
struct PresetCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "preset",
    abstract: "List, show, export, install or remove presets, or list the keys a preset may set.",
    discussion: "Presets are found in ./presets/, then $XDG_CONFIG_HOME/chartscene/presets/ (~/.config/...), then the built-ins.")

  enum Action: String, ExpressibleByArgument, CaseIterable { case list, show, export, keys, install, remove }

  @Argument(help: "list, show NAME, export NAME, keys (every key a preset may set, as a Markdown table), install FILE|DIR (into the user's presets), or remove NAME.")
  var action: Action

  @Argument(help: "The preset's name or path (for show, export and remove; a file or folder for install).", completion: .custom { _, _, _ in PresetCatalog.names() })
  var name: String?

  @Flag(help: "With install: also install a preset that hides a built-in one, or replaces an installed one.")
  var force = false

  func validate() throws {
    if force && action != .install { throw ValidationError("--force goes with 'preset install'") }
    let needsName = action == .show || action == .export || action == .install || action == .remove
    if needsName && name == nil { throw ValidationError("'preset \(action.rawValue)' needs a preset name") }
    if !needsName && name != nil { throw ValidationError("'preset \(action.rawValue)' takes no name") }
  }

  func run() throws {
    switch action {
    case .list: print(try PresetCatalog.list(), terminator: "")
    case .show: print(try PresetCatalog.show(name ?? "", export: false), terminator: "")
    case .export: print(try PresetCatalog.show(name ?? "", export: true), terminator: "")
    case .keys: print(PresetCatalog.keysTable(), terminator: "")
    case .install: for line in try PresetCatalog.install(name ?? "", force: force) { print(line) }
    case .remove: print(try PresetCatalog.remove(name ?? ""))
    }
  }
}

struct CompositionCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "composition",
    abstract: "List the compositions require() finds, or print one to copy and change.",
    discussion: "Compositions are found next to the script, in ./compositions/, then $XDG_CONFIG_HOME/chartscene/compositions/ (~/.config/...), then the built-ins (list, carousel, cards, tabs).")

  enum Action: String, ExpressibleByArgument, CaseIterable { case list, show }
  @Argument(help: "list or show.") var action: Action
  @Argument(help: "The composition's name (for show).") var name: String?

  func validate() throws {
    if action == .show && name == nil { throw ValidationError("'composition show' needs a composition name") }
    if action == .list && name != nil { throw ValidationError("'composition list' takes no name") }
  }

  func run() throws {
    switch action {
    case .list: print(try CompositionCatalog.list(), terminator: "")
    case .show: print(try CompositionCatalog.show(name ?? ""), terminator: "")
    }
  }
}

/// Entry point: every failure is one `error:` line and a non-zero exit.
@main
enum Main {
  static func main() {
    // A dying ffmpeg must not kill us through SIGPIPE: writes report the error instead.
    signal(SIGPIPE, SIG_IGN)
    // `chartscene` alone: what it is and how to call it, not a complaint about a missing script.
    if CommandLine.arguments.count == 1 {
      print(ChartSceneCommand.helpMessage())
      exit(0)
    }
    if case .some(.some(let shell)) = Completions.requested(CommandLine.arguments) {
      print(Completions.script(for: shell), terminator: "")
      exit(0)
    }
    do {
      var command = try ChartSceneCommand.parseAsRoot()
      try command.run()
    } catch let e as ExitCode {
      // A command that printed what it had to say (lint's findings) and ends with a status.
      exit(e.rawValue)
    } catch let e as HostError {
      // Stopping on a signal (or the watchdog): the error is an effect of the stop (ffmpeg
      // killed: "Broken pipe"); the stopping thread exits with its own status.
      TempFiles.waitIfStopping()
      Session.printError("error: \(e.message)")
      exit(e.isUsage ? 64 : 1)
    } catch {
      TempFiles.waitIfStopping()
      let code = ChartSceneCommand.exitCode(for: error)
      if code == .success {
        // --help and friends.
        ChartSceneCommand.exit(withError: error)
      }
      Session.printError("error: " + ChartSceneCommand.message(for: error).split(separator: "\n").joined(separator: " "))
      exit(code == .validationFailure ? 64 : 1)
    }
  }
}

extension String {
  /// A number with three decimals (no Foundation here).
  init(format3 x: Double) {
    let m = Int((x * 1000).rounded())
    let frac = String(m % 1000)
    self = "\(m / 1000)." + String(repeating: "0", count: 3 - frac.count) + frac
  }
}

/// The options that say which scene is made and under which limits, shared by rendering,
/// `lint` and the lines of a batch file (each checked by `RenderRequest`).
struct SceneOptions: ParsableArguments {
  @Option(parsing: .unconditional, help: "Scene size in scene pixels, WxH (overrides the script).")
  var size: String?

  @Option(parsing: .unconditional, help: "Frames per second (overrides the script).")
  var fps: Double?

  @Option(help: "day or night (overrides the script).", completion: .list(["day", "night"]))
  var theme: String?

  @Option(help: "A preset name or path; overrides the script's preset and fills in what the script does not set.", completion: .custom { _, _, _ in PresetCatalog.names() })
  var preset: String?

  @Option(help: "How dates and numbers are written: en, es, fr, de, pt-BR, ru, uk, zh-Hans, ja, ko, ar, he, hi (overrides the script).")
  var locale: String?

  @Option(help: "The IANA time zone dates are shown in, e.g. Europe/Oslo (overrides the script; default UTC).")
  var timezone: String?

  @Option(help: "A timeline file (a Lua chunk returning cs.* events) to play instead of the script's own.", completion: .file(extensions: ["lua"]))
  var timeline: String?

  @Option(name: .customLong("arg"), help: ArgumentHelp("Gives the script cs.args.KEY = \"VALUE\" (a string); repeat for more.", valueName: "KEY=VALUE"))
  var args: [String] = []

  @Option(name: .customLong("allow-read"), help: ArgumentHelp("Lets the script read files in this folder too (besides its own folder and the current one); repeat for more.", valueName: "DIR"),
          completion: .directory)
  var allowRead: [String] = []

  @Option(parsing: .unconditional, help: "Seconds the script may run while it is evaluated; each draw/update callback and timeline call gets a tenth.")
  var maxTime: Double = 10

  @Option(help: "Memory the script's Lua heap and the data it loads may hold, e.g. 512M or 2G.")
  var maxMemory: String = "1G"

  @Option(help: "CPU seconds the whole run may use: every call of the script, every frame, in all.")
  var maxTotalTime: Double = Watchdog.defaultTotal

  func validate() throws {
    do throws(HostError) {
      if let size { _ = try RenderRequest.size(size) }
      if let fps { try RenderRequest.checkFPS(fps) }
      if let theme { try RenderRequest.checkTheme(theme) }
      try RenderRequest.checkMaxTime(maxTime)
      try RenderRequest.checkMaxTotalTime(maxTotalTime)
      _ = try RenderRequest.maxMemory(maxMemory)
      for d in allowRead { try RenderRequest.checkReadable(d) }
    } catch { throw ValidationError(error.message) }
    if case .failure(let e) = Session.parseArgs(args) { throw ValidationError(e.message) }
    if let message = Session.checkFormat(locale: locale, timezone: timezone) { throw ValidationError(message) }
  }

  func overrides() -> Session.Overrides {
    var overrides = Session.Overrides(theme: theme, preset: preset)
    overrides.fps = fps
    overrides.locale = locale
    overrides.timezone = timezone
    overrides.timeline = timeline
    if let size, let (w, h) = try? RenderRequest.size(size) { overrides.width = w; overrides.height = h }
    overrides.maxTime = maxTime
    overrides.maxMemory = (try? RenderRequest.maxMemory(maxMemory)) ?? overrides.maxMemory
    overrides.args = (try? Session.parseArgs(args).get()) ?? []
    overrides.allowRead = allowRead
    return overrides
  }
}
