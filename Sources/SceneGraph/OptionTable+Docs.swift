/// The option tables of docs/lua-api.md, made from the declarations: each sits between
/// `<!-- options: OWNER ... -->` and `<!-- /options -->` (`chartscene definitions --docs FILE`
/// rewrites them; a test fails when the committed page differs).
extension OptionTable {
  public static let docsMarker = "<!-- options: "
  public static let docsEnd = "<!-- /options -->"

  /// The table's rows: key, default, what it accepts and does.
  public var markdown: String {
    var out = "| key | default | in this version |\n|---|---|---|\n"
    for o in options {
      var text = o.doc
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
  /// `<!-- options: cs.carousel -->`; the generated rows follow it up to the line
  /// `<!-- /options -->`. `problem` hears a marker naming no declared table or left open.
  public static func updatingDocs(_ page: String, problem: (String) -> Void = { _ in }) -> String {
    let lines = page.split(separator: "\n", omittingEmptySubsequences: false)
    var out: [Substring] = []
    var i = 0
    while i < lines.count {
      let line = lines[i]
      out.append(line)
      i += 1
      guard line.hasPrefix(docsMarker), line.hasSuffix(" -->") else { continue }
      let owner = String(line.dropFirst(docsMarker.count).dropLast(4))
      guard let end = lines[i...].firstIndex(where: { $0.hasPrefix(docsEnd) }) else { problem("the table of \(owner) has no '\(docsEnd)' line"); continue }
      guard let table = named(owner) else { problem("no declared options named '\(owner)'"); continue }
      out.append(contentsOf: table.markdown.split(separator: "\n"))
      i = end
    }
    return out.joined(separator: "\n")
  }
}
