import ChartModel
import ChartSceneLua

/// `chartscene composition list | show NAME`: the compositions `require` finds from here.
public enum CompositionCatalog {
  static func locator() throws(HostError) -> CompositionLocator {
    CompositionLocator(scriptDirectory: ".", assetsDirectory: try AssetLocator.locate())
  }

  /// One line per composition: name, origin (or path), and the first line of its comment.
  public static func list() throws(HostError) -> String {
    var rows: [(String, String, String)] = []
    for entry in try locator().all() {
      let text = (try? FileReader.read(entry.path, limit: 1 << 20)).map { String(decoding: $0, as: UTF8.self) } ?? ""
      let first = text.split(separator: "\n").first { $0.hasPrefix("--") }.map { String($0.dropFirst(2)).trimmingCharacters(in: " ") } ?? ""
      rows.append((OneLine.clean(entry.name, limit: 100), entry.origin == "built-in" ? "built-in" : OneLine.clean(entry.path, limit: 200), OneLine.clean(first)))
    }
    let w1 = rows.map(\.0.count).max() ?? 0, w2 = rows.map(\.1.count).max() ?? 0
    return rows.map { $0.0.padded(to: w1 + 2) + $0.1.padded(to: w2 + 2) + $0.2 }.joined(separator: "\n") + "\n"
  }

  /// The source of a composition, to copy and change.
  public static func show(_ name: String) throws(HostError) -> String {
    guard !name.contains("/"), let found = try locator().locate(name + ".lua") else {
      throw HostError("composition '\(OneLine.clean(name, limit: 100))' not found (looked in ./compositions/, the user's compositions and the built-ins; `chartscene composition list` lists them)")
    }
    do { return String(decoding: try FileReader.read(found.path, limit: 16 << 20), as: UTF8.self) } catch { throw HostError(error.description) }
  }
}

extension String {
  func trimmingCharacters(in set: String) -> String {
    var s = Substring(self)
    while let f = s.first, set.contains(f) { s = s.dropFirst() }
    while let l = s.last, set.contains(l) { s = s.dropLast() }
    return String(s)
  }
}
