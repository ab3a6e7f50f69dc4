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
    let l = try locator()
    for entry in l.all() {
      if l.hidesBuiltIn((entry.path, entry.origin), relative: entry.name + ".lua") {
        Session.printError("warning: " + CompositionLocator.hidingWarning(name: entry.name, path: entry.path))
      }
      let text = (try? FileReader.read(entry.path, limit: 1 << 20)).map { String(decoding: $0, as: UTF8.self) } ?? ""
      let first = text.split(separator: "\n").first { $0.hasPrefix("--") }.map { String($0.dropFirst(2)).trimmingCharacters(in: " ") } ?? ""
      rows.append((OneLine.clean(entry.name, limit: 100), entry.origin == "built-in" ? "built-in" : OneLine.clean(entry.path, limit: 200), OneLine.clean(first)))
    }
    let w1 = rows.map(\.0.count).max() ?? 0, w2 = rows.map(\.1.count).max() ?? 0
    return rows.map { $0.0.padded(to: w1 + 2) + $0.1.padded(to: w2 + 2) + $0.2 }.joined(separator: "\n") + "\n"
  }

  /// The source of a composition, to copy and change.
  public static func show(_ name: String) throws(HostError) -> String {
    let l = try locator()
    guard !name.contains("/"), let found = l.locate(name + ".lua") else {
      throw HostError("composition '\(OneLine.clean(name, limit: 100))' not found (looked in ./compositions/, the user's compositions and the built-ins; `chartscene composition list` lists them)")
    }
    if l.hidesBuiltIn(found, relative: name + ".lua") {
      Session.printError("warning: " + CompositionLocator.hidingWarning(name: name, path: found.path))
    }
    do { return escapedSource(String(decoding: try FileReader.read(found.path, limit: 16 << 20), as: UTF8.self)) } catch { throw HostError(error.description) }
  }

  /// A shared module's source as it may reach a terminal: every control character but the
  /// line break and the tab (a CR only before a line break) shown as Lua's escape (`\027`;
  /// C1 controls and the invisible bidirectional marks as `\u{9b}`, `\u{202e}`), so a file
  /// cannot retitle the terminal, clear it or write the clipboard (OSC 52); inside a quoted
  /// string the escape means what the raw byte did.
  static func escapedSource(_ text: String) -> String {
    let scalars = Array(text.unicodeScalars)
    guard scalars.contains(where: { OneLine.needsEscape($0) && $0 != "\n" && $0 != "\t" }) else { return text }
    var out = ""
    out.reserveCapacity(text.utf8.count + 16)
    for (i, u) in scalars.enumerated() {
      if u == "\n" || u == "\t" || (u == "\r" && i + 1 < scalars.count && scalars[i + 1] == "\n") || !OneLine.needsEscape(u) {
        out.unicodeScalars.append(u)
      } else if u.value < 0x80 {
        let d = String(u.value)
        out += "\\" + String(repeating: "0", count: 3 - d.count) + d
      } else {
        out += "\\u{" + String(u.value, radix: 16) + "}"
      }
    }
    return out
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
