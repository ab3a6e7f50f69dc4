import ChartModel
import ChartSceneLua
import Drawing
import Glibc
import LuaKit
import Render
import RenderCairo
import SceneGraph
import Platform

/// A loaded script: its Lua state, the scene it returned, and the text system used to lay
/// it out. Confined to the thread that created it.
public final class Session {
  public let scriptPath: String
  public let lua: LuaState
  public let scene: Scene
  public let text: PangoText
  let context: BindingContext
  /// The scene's clock, run on demand (frames are reached by simulating from 0).
  public private(set) lazy var simulation = Simulation(session: self)
  /// Warnings printed while loading (also written to stderr unless quiet).
  public private(set) var warnings: [String] = []
  /// Prints the warnings, the first `WarningPrinter.shown` of them.
  let printer: WarningPrinter
  /// `--size` gave the scene another size than the script's own (its timeline was written
  /// for that one): gestures on chart parts that gave way to the plot do nothing.
  public private(set) var resized = false

  public struct Overrides: Sendable {
    public var theme: String?
    public var width: Double?
    public var height: Double?
    /// A preset name or path (paths relative to the working folder).
    public var preset: String?
    public var fps: Double?
    /// `--locale`, `--timezone`: replace the script's and its preset's (docs/locales.md).
    public var locale: String?
    public var timezone: String?
    /// A timeline file (`--timeline`): it replaces the script's timeline, or adds to it when
    /// it says `merge = true` (a `--live` recording); its `duration` lengthens the scene.
    public var timeline: String?
    /// A timeline chunk whose events are added to the script's (a live session's gestures,
    /// kept across reloads).
    public var addedTimeline: String?
    /// Seconds the script's evaluation may run (`--max-time`); each callback (draw, update,
    /// a timeline call or gesture handler) gets a tenth of it.
    public var maxTime: Double = 10
    /// Bytes the script's Lua heap and the data it loads may hold (`--max-memory`).
    public var maxMemory: Int = 1 << 30
    /// `cs.args`: the `--arg KEY=VALUE` pairs, in order.
    public var args: [(String, String)] = []
    /// Folders the script may read besides its own and the current one (`--allow-read`).
    public var allowRead: [String] = []
    public init(theme: String? = nil, width: Double? = nil, height: Double? = nil, preset: String? = nil) {
      self.theme = theme; self.width = width; self.height = height; self.preset = preset
    }
  }

  /// The one line `--locale` or `--timezone` fails with, nil when both are usable.
  public static func checkFormat(locale: String?, timezone: String?) -> String? {
    if let locale {
      do { _ = try DisplayFormat.resolve(locale: locale, timezone: nil, localesDirectory: nil) } catch { return "\(error.message) (for --locale)" }
    }
    if let timezone {
      do { _ = try DisplayFormat.resolve(locale: nil, timezone: timezone, localesDirectory: nil) } catch { return "\(error.message) (for --timezone)" }
    }
    return nil
  }

  /// True for a theme name `--theme` takes.
  public static func isTheme(_ name: String) -> Bool { Theme.builtIn[name] != nil }

  /// `--arg KEY=VALUE` words as the script's `cs.args`, or the usage error.
  public static func parseArgs(_ words: [String]) -> Result<[(String, String)], HostError> {
    ChartSceneModule.parseArgs(words).mapError { HostError.usage($0.message) }
  }

  /// Files the script read (modules, data, presets), also known when loading failed.
  public var files: [String] { context.files.paths }
  /// The keys the script read from `cs.args` that the command line did not give.
  public var argsRead: [String] { context.argsRead }

  /// True when the script came from standard input (`chartscene -`): it is named `stdin` in
  /// messages, its folder is the current one, and no output can overwrite it.
  public let fromStandardInput: Bool

  /// The script's text as it was loaded (what `--shard` segments hash to tell renders apart).
  public let scriptBytes: [UInt8]

  /// What the command line set over the script (a render's fingerprint includes it).
  public let overrides: Overrides

  /// Loads the script at `scriptPath`, or, given `source`, that text under the name `scriptPath`
  /// (the script read from standard input, whose folder is the current one).
  public init(scriptPath: String, source: [UInt8]? = nil, overrides: Overrides = Overrides(), quiet: Bool = false, files: ((FileLog) -> Void)? = nil) throws(HostError) {
    self.scriptPath = scriptPath
    self.overrides = overrides
    fromStandardInput = source != nil
    let loadStart = StageTiming.cpuNow()
    let bytes: [UInt8]
    if let source {
      bytes = source
    } else {
      do { bytes = try FileReader.read(scriptPath, limit: 16 << 20) } catch { throw HostError(error.description) }
    }
    let assets = try AssetLocator.locate()
    FontRegistry.configure(fontsDirectory: assets + "/fonts")
    if ImageRef.decode == nil { ImageRef.decode = CairoImages.decode }
    var seen = Set<String>()
    var collected: [String] = []
    let printer = WarningPrinter(quiet: quiet)
    self.printer = printer
    let context = BindingContext(scriptDirectory: source != nil ? "." : Paths.directory(of: scriptPath), assetsDirectory: assets) { message in
      // The same warning is printed once, and at most `WarningPrinter.shown` in all.
      guard seen.insert(message).inserted else { return }
      collected.append(message)
      printer.print(message)
    }
    defer { printer.flush() }
    files?(context.files)
    context.fontFamilies = FontRegistry.families(ofFile:)
    context.bundledFamilies = FontRegistry.bundledFamilies
    context.args = overrides.args
    context.readableRoots = ([context.scriptDirectory.isEmpty ? "." : context.scriptDirectory, "."] + overrides.allowRead).compactMap(AssetLocator.realPath)
    let lua = LuaState()
    ChartSceneModule.install(lua, context: context)
    lua.memoryLimit = overrides.maxMemory
    lua.nameLimitOptions(time: "--max-time", memory: "--max-memory")
    lua.timeLimit = overrides.maxTime
    defer { lua.timeLimit = overrides.maxTime / 10 }
    do {
      try lua.load(bytes, chunkName: "@" + scriptPath)
      try lua.pcall(nargs: 0, nresults: 1)
    } catch {
      throw HostError(Session.located(error.message, file: scriptPath, chunks: context.chunks))
    }
    do {
      scene = try ChartSceneModule.scene(from: lua, at: -1)
    } catch {
      throw HostError("\(scriptPath):\(Session.lineCount(bytes)): \(error.message)")
    }
    lua.pop()
    self.lua = lua
    self.context = context
    scriptBytes = bytes
    warnings = collected
    if let ref = overrides.preset {
      do {
        try context.presets.load(ref, from: ".").apply(to: scene)
      } catch {
        throw HostError(error.located ? error.message : "\(error.message) (for --preset)")
      }
    }
    if overrides.preset != nil || overrides.locale != nil || overrides.timezone != nil {
      if let l = overrides.locale { scene.localeName = l }
      if let z = overrides.timezone { scene.timezoneName = z }
      do {
        scene.format = try DisplayFormat.resolve(locale: scene.localeName, timezone: scene.timezoneName, localesDirectory: assets + "/locales")
      } catch {
        let option = overrides.locale != nil && ChartLocale.resolve(overrides.locale!) == nil ? "--locale" : overrides.timezone != nil ? "--timezone" : "--preset"
        throw HostError("\(error.message) (for \(option))")
      }
    }
    if let name = overrides.theme {
      guard let t = Theme.builtIn[name] else { throw HostError("invalid theme '\(name)' for --theme, expected one of: 'day', 'night'") }
      scene.theme = t
    }
    if let fps = overrides.fps { scene.fps = fps }
    if let path = overrides.timeline {
      let bytes: [UInt8]
      do { bytes = try FileReader.read(path, limit: 16 << 20) } catch { throw HostError(error.description) }
      context.files.insert(path)
      do {
        let file = try ChartSceneModule.timelineFile(from: lua, bytes: bytes, chunkName: "@" + path)
        scene.timeline = file.merge ? scene.timeline + file.events : file.events
        Session.lengthen(scene, to: file.duration)
      } catch let e as LuaError {
        throw HostError(Session.located(e.message, file: path, chunks: context.chunks))
      } catch {
        throw HostError("\(path): \(error)")
      }
    }
    if let source = overrides.addedTimeline {
      do {
        let file = try ChartSceneModule.timelineFile(from: lua, bytes: Array(source.utf8), chunkName: "=recorded")
        scene.timeline += file.events
        Session.lengthen(scene, to: file.duration)
      } catch {
        throw HostError("recorded gestures: \(error)")
      }
    }
    // `--size` other than the script's own: the timeline was written for another size.
    let ownWidth = scene.width, ownHeight = scene.height
    resized = (overrides.width.map { $0 != ownWidth } ?? false) || (overrides.height.map { $0 != ownHeight } ?? false)
    if let w = overrides.width { scene.width = w }
    if let h = overrides.height { scene.height = h }
    for w in try TimelineCheck.check(scene, locate: { Session.located($0, file: scriptPath, chunks: context.chunks) }) { context.warn(w) }
    warnings = collected
    text = PangoText(fonts: TextFonts(files: scene.fonts, family: scene.font))
    context.measurer = text
    try layout(at: 0)
    for w in MissingGlyphs.warnings(scene, text: text, places: context.places, file: scriptPath) { context.warn(w) }
    warnings = collected
    StageTiming.add(.load, StageTiming.cpuNow() - loadStart)
  }

  /// A timeline file's `duration` (a live session's length): an animated scene lasts at least
  /// that long (a still stays a still: its replay is read with `--at`).
  static func lengthen(_ scene: Scene, to duration: Double?) {
    if let duration, scene.duration > 0, duration > scene.duration { scene.duration = duration }
  }

  /// The session of the script at `script`; `-` reads the script from standard input (it is
  /// named `stdin` in messages, and its folder is the current one).
  public static func open(_ script: String, overrides: Overrides = Overrides(), quiet: Bool = false, files: ((FileLog) -> Void)? = nil) throws(HostError) -> Session {
    guard script == "-" else { return try Session(scriptPath: script, overrides: overrides, quiet: quiet, files: files) }
    let bytes: [UInt8]
    do { bytes = try FileReader.standardInputScript(limit: 16 << 20) } catch { throw HostError(error.description) }
    return try Session(scriptPath: "stdin", source: bytes, overrides: overrides, quiet: quiet, files: files)
  }

  /// An error when writing `output` would overwrite the script or a file it read.
  public func refuseInput(_ output: String) throws(HostError) {
    guard let out = AssetLocator.realPath(output) else { return }
    for input in (fromStandardInput ? [] : [scriptPath]) + files where AssetLocator.realPath(input) == out {
      throw HostError("cannot write '\(output)': it is \(input == scriptPath ? "the script itself" : "an input of the script ('\(input)')")")
    }
  }

  /// Simulates up to time t (the tick at or before it) and lays the scene out as drawn then.
  public func advance(to t: Double) throws(HostError) {
    try StageTiming.measure(.simulate) { () throws(HostError) in
      try simulation.advance(to: simulation.clock.frame(at: t))
      try layout(at: t)
    }
  }

  /// Lays the scene out as drawn at t; an error of a script's `layout` function is placed like
  /// any other of the script's.
  public func layout(at t: Double) throws(HostError) {
    do { try Layout(measurer: text).layout(scene, at: t) } catch let e as LuaError {
      throw HostError(Session.located(e.message, file: scriptPath, chunks: context.chunks))
    } catch { throw HostError("\(scriptPath): \(error)") }
  }

  /// The scene at time t as a display list (runs canvas draw functions).
  public func displayList(at t: Double) throws(HostError) -> DisplayList {
    try advance(to: t)
    do {
      return try StageTiming.measure(.build) { try DisplayListBuilder(measurer: text).build(scene, time: t) }
    } catch let e as LuaError {
      throw HostError(Session.located(e.message, file: scriptPath, chunks: context.chunks))
    } catch {
      throw HostError("\(scriptPath): \(error)")
    }
  }

  /// The `--inspect` JSON at time t: the values as drawn then.
  public func inspect(at t: Double) throws(HostError) -> String {
    try advance(to: t)
    var json = Inspector(measurer: text).inspect(scene, time: t)
    // Which chartscene laid it out: last, after the scene's own fields.
    if case .object(let fields) = json {
      json = .object(fields + [("version", .string(BuildInfo.version)), ("commit", .string(BuildInfo.commit))])
    }
    return json.render() + "\n"
  }

  /// Messages from Lua carry `FILE:LINE:`; one without (e.g. `error("x", 0)`) gets the
  /// script's name.
  public static func located(_ message: String, file: String, chunks: [String] = []) -> String {
    // Lua shortens long chunk names to "...tail"; put the whole path back.
    let message = LuaError(message).restoringPath([file] + chunks)
    if let colon = message.firstIndex(of: ":") {
      let rest = message[message.index(after: colon)...]
      if let colon2 = rest.firstIndex(of: ":"), Int(rest[..<colon2]) != nil { return message }
    }
    return "\(file): \(message)"
  }

  static func lineCount(_ bytes: [UInt8]) -> Int {
    var n = bytes.reduce(0) { $0 + ($1 == 10 ? 1 : 0) }
    if let last = bytes.last, last != 10 { n += 1 }
    return max(1, n)
  }

  /// Writes one line to standard error: control characters escaped, cut at
  /// `OneLine.limit` characters (see OneLine).
  public static func printError(_ line: String) {
    writeStandardError(OneLine.clean(line) + "\n")
  }
}

/// Prints a session's warnings: each once (the session drops repeats), the first `shown`
/// of them, then one line counting the rest (9,990 views without a glyph printed 9,990 lines).
final class WarningPrinter {
  static let shown = 20
  let quiet: Bool
  private(set) var printed = 0
  private(set) var dropped = 0
  init(quiet: Bool) { self.quiet = quiet }

  func print(_ message: String) {
    guard !quiet else { return }
    if printed < WarningPrinter.shown {
      printed += 1
      Session.printError("warning: \(message)")
    } else {
      dropped += 1
    }
  }

  /// The line counting the warnings not printed since the last one.
  func flush() {
    guard dropped > 0 else { return }
    Session.printError("warning: … and \(dropped) more warning\(dropped == 1 ? "" : "s") (the first \(WarningPrinter.shown) are shown)")
    dropped = 0
  }

  deinit { flush() }
}
