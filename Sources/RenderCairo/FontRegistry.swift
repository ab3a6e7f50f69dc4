import Glibc
import CCairo
import Platform

/// Registers the fonts shipped in `assets/fonts/` with a private fontconfig configuration,
/// so text looks the same on every machine whatever fonts it has installed.
public enum FontRegistry {
  /// The family every text is set in.
  public static let family = "Inter"
  nonisolated(unsafe) private static var fontsDirectory: String?
  nonisolated(unsafe) private static var done = false
  private static let lock = Lock()

  /// Sets where the bundled fonts are; call before the first text is measured.
  public static func configure(fontsDirectory dir: String?) {
    lock.locked { fontsDirectory = dir }
  }

  /// Names of the font files used, for diagnostics.
  nonisolated(unsafe) public private(set) static var registeredFiles: [String] = []

  static func ensureRegistered() {
    lock.locked {
      if done { return }
      done = true
      guard let dir = fontsDirectory, let config = FcConfigCreate() else { return }
      var files: [String] = []
      for name in ["Inter-Regular.otf", "Inter-SemiBold.otf", "Inter-Bold.otf"] {
        let path = dir + "/" + name
        if FcConfigAppFontAddFile(config, path) != 0 { files.append(path) }
      }
      if files.isEmpty { FcConfigDestroy(config); return }
      FcConfigSetCurrent(config)
      registeredFiles = files
    }
  }
}
