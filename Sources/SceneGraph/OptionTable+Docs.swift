/// The option tables of docs/lua-api.md, made from the declarations: each sits between
/// `<!-- options: OWNER ... -->` and `<!-- /options -->` (`chartscene definitions --docs FILE`
/// rewrites them; a test fails when the committed page differs).
extension OptionTable {
  public static let docsMarker = "<!-- options: "
  public static let docsEnd = "<!-- /options -->"

  /// The table's rows (of `keys` only, when given): key, default, what it accepts and does.
  public func markdown(keys: [String]? = nil) -> String {
    var out = "| key | default | in this version |\n|---|---|---|\n"
    for o in options where keys?.contains(o.key) ?? true {
      // A `|` of the plain doc line would end the cell.
      var text = o.doc.split(separator: "|", omittingEmptySubsequences: false).joined(separator: "\\|")
      if let a = o.acceptedText {
        if case .choice = o.kind { text += ": " + a } else { text += ", " + a }
      }
      if let n = o.notes { text += "; " + n }
      let d = o.required ? "— (required)" : (o.defaultText ?? "none")
      out += "| `\(o.key)` | \(d) | \(text) |\n"
    }
    return out
  }

  /// `page` with every marked table generated afresh. A marker is the line
  /// `<!-- options: cs.carousel -->`, or `<!-- options: cs.chart (type, stacked) -->` for some
  /// keys; the generated rows follow it up to the line `<!-- /options -->`. `problem` hears a
  /// marker naming no declared table or key, or left open.
  public static func updatingDocs(_ page: String, problem: (String) -> Void = { _ in }) -> String {
    let lines = page.split(separator: "\n", omittingEmptySubsequences: false)
    var out: [Substring] = []
    var i = 0
    while i < lines.count {
      let line = lines[i]
      out.append(line)
      i += 1
      guard line.hasPrefix(docsMarker), line.hasSuffix(" -->") else { continue }
      let (owner, keys) = marked(line)
      guard let end = lines[i...].firstIndex(where: { $0.hasPrefix(docsEnd) }) else { problem("the table of \(owner) has no '\(docsEnd)' line"); continue }
      guard let table = named(owner) else { problem("no declared options named '\(owner)'"); continue }
      if let unknown = keys?.first(where: { table[$0] == nil }) { problem("\(owner) declares no option '\(unknown)'") }
      out.append(contentsOf: table.markdown(keys: keys).split(separator: "\n"))
      i = end
    }
    return out.joined(separator: "\n")
  }

  /// The owner and the keys (nil: all) a marker line names.
  public static func marked(_ line: Substring) -> (String, [String]?) {
    var text = line.dropFirst(docsMarker.count).dropLast(4)
    guard text.hasSuffix(")"), let open = text.firstIndex(of: "(") else { return (String(text), nil) }
    let keys = text[text.index(after: open)..<text.index(before: text.endIndex)].split(separator: ",").map { String($0.filter { $0 != " " }) }
    text = text[..<open]
    while text.hasSuffix(" ") { text = text.dropLast() }
    return (String(text), keys)
  }

  /// The keys of each declared table the marked tables of `page` show.
  public static func documentedKeys(_ page: String) -> [String: Set<String>] {
    var out: [String: Set<String>] = [:]
    for line in page.split(separator: "\n") where line.hasPrefix(docsMarker) && line.hasSuffix(" -->") {
      let (owner, keys) = marked(line)
      guard let table = named(owner) else { continue }
      out[owner, default: []].formUnion(keys ?? table.keys)
    }
    return out
  }
}
