import ChartSceneLua
import Encoding

// What the command-line executable takes from the layers below the host: it imports only
// ChartSceneHost (and Platform), so these are named here.

/// Which build this is, for `--version`, the comment of a video and a render's fingerprint.
public enum BuildStamp {
  /// "chartscene 1.2.0 (commit abc1234)".
  public static var versionLine: String { "chartscene \(BuildInfo.version) (commit \(BuildInfo.commit))" }
}

/// The files a script read (the data, presets and fonts `--watch` follows), as the bindings
/// record them.
public typealias FileLog = ChartSceneLua.FileLog

/// Temporary outputs removed when a signal stops the run.
public typealias TempFiles = Encoding.TempFiles
