import Platform

/// The `-o` name: its format, and for a PNG sequence its frame-number pattern. Checked
/// before anything runs, so a bad name is a usage error (exit status 64).
public enum OutputName {
  /// The widest frame number a sequence may ask for (`%09d`; a scene has at most
  /// 3600 s × 240 fps = 864,000 frames).
  public static let maximumWidth = 9

  /// A PNG sequence name split around its one `%d` or `%0Nd` (in the file name, not the
  /// folders): prefix, zero-padded width (0 for `%d`), suffix.
  public static func sequence(_ path: String) -> (prefix: String, width: Int, suffix: String)? {
    guard Paths.fileExtension(of: path) == "png" else { return nil }
    let name = path[path.index(path.endIndex, offsetBy: -Paths.fileName(of: path).count)...]
    guard let pct = name.firstIndex(of: "%"), name[name.index(after: pct)...].firstIndex(of: "%") == nil else { return nil }
    var i = name.index(after: pct)
    var width = 0
    if i < name.endIndex, name[i] == "0" {
      i = name.index(after: i)
      guard i < name.endIndex, let d = name[i].wholeNumberValue, name[i].isASCII, d >= 1 else { return nil }
      width = d
      i = name.index(after: i)
    }
    guard i < name.endIndex, name[i] == "d", width <= maximumWidth else { return nil }
    return (String(path[..<pct]), width, String(path[name.index(after: i)...]))
  }

  /// Throws a usage error unless `path` names a format chartscene writes and, if it is a
  /// PNG name holding `%`, a valid sequence pattern.
  public static func check(_ path: String) throws(HostError) {
    let name = Paths.fileName(of: path)
    let ext = Paths.fileExtension(of: path)
    guard RenderJob.Format(rawValue: ext) != nil || RenderJob.animatedFormats.contains(ext) else {
      do { _ = try RenderJob.format(of: path) } catch { throw HostError.usage(error.message) }
      return
    }
    if ext == "png" && name.contains("%") && sequence(path) == nil {
      throw HostError.usage("cannot write '\(path)': a PNG sequence takes one %d or %0Nd (N from 1 to \(maximumWidth)) in its file name, e.g. NAME-%04d.png")
    }
  }
}
