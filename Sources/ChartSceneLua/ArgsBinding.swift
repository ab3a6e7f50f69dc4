import LuaKit

/// `cs.args`: the `--arg KEY=VALUE` pairs of the command line (or of a batch job) as a
/// table of strings, so one script renders many variants. Always a table (empty without
/// arguments), so `cs.args.title or "Default"` works.
enum ArgsBinding {
  static func install(_ lua: LuaState, into cs: Int32, context: BindingContext) {
    lua.newTable(hash: Int32(context.args.count))
    for (key, value) in context.args {
      lua.push(value)
      lua.rawSet(-2, key)
    }
    // A key read but not given is noted (`chartscene serve` shows it as a field to fill):
    // the table itself stays a plain table of strings (pairs, rawget, # as before); only a
    // read of a missing key goes through __index, which answers nil as before.
    lua.newTable(hash: 2)
    lua.setFunction(-1, "__index") { l in
      if let key = l.toString(2) { context.noteArgRead(key) }
      return 0
    }
    lua.push(false)
    lua.rawSet(-2, "__metatable")
    lua.setMetatable(-2)
    lua.rawSet(cs, "args")
  }

  /// Checks one `KEY=VALUE` (KEY: a letter or `_`, then letters, digits or `_`); nil when bad.
  public static func parse(_ text: String) -> (key: String, value: String)? {
    guard let eq = text.firstIndex(of: "=") else { return nil }
    let key = String(text[..<eq]), value = String(text[text.index(after: eq)...])
    guard let first = key.unicodeScalars.first, first == "_" || (first.isASCII && first.properties.isAlphabetic) else { return nil }
    guard key.unicodeScalars.allSatisfy({ $0 == "_" || ($0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0))) }) else { return nil }
    guard !value.utf8.contains(0) else { return nil }
    return (key, value)
  }
}

extension ChartSceneModule {
  /// Parses `--arg` values: the pairs in order, or the message for the first bad or
  /// repeated one.
  public static func parseArgs(_ texts: [String]) -> Result<[(String, String)], ArgsError> {
    var out: [(String, String)] = []
    for t in texts {
      guard let (k, v) = ArgsBinding.parse(t) else {
        return .failure(ArgsError(message: "bad --arg '\(t)' (expected KEY=VALUE, KEY a name of letters, digits and _, not starting with a digit)"))
      }
      if out.contains(where: { $0.0 == k }) { return .failure(ArgsError(message: "--arg \(k) is given twice")) }
      out.append((k, v))
    }
    return .success(out)
  }
}

public struct ArgsError: Error { public let message: String }
