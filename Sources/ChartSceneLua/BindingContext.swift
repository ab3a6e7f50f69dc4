import ChartModel
import Drawing
import Glibc
import LuaKit
import SceneGraph

/// What the bindings need from the host: where files are, and where warnings go.
public final class BindingContext {
  /// The script's folder: paths in scripts resolve against it.
  public let scriptDirectory: String
  /// The folder holding `data/`, `fonts/` (nil when the assets were not found).
  public let assetsDirectory: String?
  /// Prints one warning line (the host de-duplicates).
  public let warn: (String) -> Void
  /// Sets loaded so far, keyed by path, so two loads of one file give the same sets.
  var loaded: [String: [ChartSet]] = [:]
  /// Paths of the modules loaded with `require`, for error messages.
  public internal(set) var chunks: [String] = []
  /// Views already placed in a container or scene.
  var adopted: Set<ObjectIdentifier> = []

  /// Where each text and chart view was made (`FILE:LINE:`), for warnings about its texts.
  public internal(set) var places: [ObjectIdentifier: String] = [:]
  /// The families of a font file, nil when it is not a font (set by the host, which has the
  /// fonts; `fonts = {...}` of a scene or preset is checked with it).
  public var fontFamilies: ((String) -> [String]?)?
  /// The families of the bundled fonts (set by the host).
  public var bundledFamilies: [String] = []

  /// Marks a view as placed; false when it already was.
  func adopt(_ node: AnyObject) -> Bool { adopted.insert(ObjectIdentifier(node)).inserted }

  public init(scriptDirectory: String, assetsDirectory: String?, warn: @escaping (String) -> Void) {
    self.scriptDirectory = scriptDirectory
    self.assetsDirectory = assetsDirectory
    self.warn = warn
  }

  /// The animated state shared by the bindings and the scene the script returns.
  public let presentation = Presentation()
  /// The scene the script returned (for `cs.call` functions).
  public var scene: Scene?
  /// How texts are measured (chart layout depends on it): set by the host.
  public var measurer: TextMeasurer?
  /// Every `cs.view` made so far, by number (from 1), and the prelude's module (a registry
  /// reference; CompositionViewBinding).
  var viewScripts: [ViewScript] = []
  /// The same, by their view (a script's `self.state` looks its view up on every access).
  var viewScript: [ObjectIdentifier: ViewScript] = [:]
  var viewPrelude: Int32 = 0
  /// The `cs.animate` block running (numbered from 1), and how many there were.
  var animateBlock: Int?
  var animateBlocks = 0
  /// Views whose state a running block changed (their children move at its end).
  var pendingMotions: [ViewScript] = []
  /// `self:add` and `self:remove` (registry references), and how many views were added.
  var viewMethods: [String: Int32] = [:]
  var addedViews = 0
  /// `cs.args`: the `--arg KEY=VALUE` pairs, in order.
  public var args: [(String, String)] = []
  /// Keys the script read from `cs.args` that were not given, in the order first read (at
  /// most 64, each a valid `--arg` key): the fields `chartscene serve` offers.
  public private(set) var argsRead: [String] = []

  func noteArgRead(_ key: String) {
    guard argsRead.count < 64, !argsRead.contains(key), ArgsBinding.parse(key + "=") != nil, key.utf8.count <= 64 else { return }
    argsRead.append(key)
  }

  /// Every file the script made chartscene read (data, modules, presets): what `--watch`
  /// watches besides the script.
  public let files = FileLog()

  /// Preset lookup for this script.
  public var presets: PresetLoader {
    var l = PresetLoader(scriptDirectory: scriptDirectory, assetsDirectory: assetsDirectory)
    let files = self.files
    l.onRead = { files.insert($0) }
    l.fontFamilies = fontFamilies
    l.bundledFamilies = bundledFamilies
    return l
  }

  /// A script path made absolute against the script's folder.
  public func resolve(_ path: String) -> String {
    if path.hasPrefix("/") { return path }
    if scriptDirectory == "." || scriptDirectory.isEmpty { return path }
    return scriptDirectory + "/" + path
  }

  /// The folders (real paths) whose files a script may read: the script's, the current one,
  /// and each `--allow-read DIR`. Empty: no confinement (the library used on its own).
  public var readableRoots: [String] = []
  /// How the refusal names what widens the confinement.
  public static let widen = "--allow-read DIR adds one"

  /// `path` resolved against the script's folder, refused when the file it names (its
  /// symbolic links followed) lies outside `roots` (the readable roots by default): a shared
  /// script must not draw /etc/passwd into a picture. A file that does not exist is left to
  /// the reader's own error.
  public func confined(_ path: String, roots: [String]? = nil, what: String = "the folders a script may read (the script's, the current one; \(BindingContext.widen))") throws(LuaError) -> String {
    // "-" is standard input: what the user pipes in, never a file next to the script.
    if path == "-" && roots == nil { return "-" }
    do { try FileReader.refuseNUL(path) } catch { throw LuaError(error.description) }
    let full = resolve(path)
    let allowed = roots ?? readableRoots
    guard !allowed.isEmpty, let real = BindingContext.realPath(full) else { return full }
    guard allowed.contains(where: { real == $0 || real.hasPrefix($0 == "/" ? "/" : $0 + "/") }) else {
      throw LuaError("cannot read '\(path)': it is outside \(what)")
    }
    return full
  }

  /// The canonical path of an existing file or folder.
  public static func realPath(_ path: String) -> String? {
    guard let p = realpath(path, nil) else { return nil }
    defer { free(p) }
    return String(cString: p)
  }
}

/// The files a script depends on, in the order they were first read.
public final class FileLog {
  public private(set) var paths: [String] = []
  public init() {}
  public func insert(_ path: String) { if !paths.contains(path) { paths.append(path) } }
}
