import Foundation
import XCTest

/// Outputs every reader can use (issue 40, item 4), read back with the clients people use:
/// the SVG's real `<text>`, `<title>`, `<desc>`, roles and one `<g aria-label>` per series
/// (`xmllint`, Debian libxml2-utils); the PDF's Title, Subject and text (`pdfinfo`,
/// `pdftotext`, poppler-utils); the PNG's Title, Description and Software chunks (`pngcheck
/// -t`, whose check also proves each chunk's CRC; `exiftool`, libimage-exiftool-perl, for the
/// text of an iTXt chunk).
extension OutputClientsTests {
  func trimmed(_ r: CLI.Result, file: StaticString = #filePath, line: UInt = #line) -> String {
    XCTAssertEqual(r.status, 0, r.stderr, file: file, line: line)
    return r.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
  }

  func xpath(_ expr: String, _ svg: String, file: StaticString = #filePath, line: UInt = #line) throws -> String {
    trimmed(try tool("xmllint", ["--xpath", expr, svg]), file: file, line: line)
  }

  /// A script in the temporary folder (its data: the sample sets).
  func script(_ name: String, _ body: String) throws -> String {
    let path = tmp.appendingPathComponent(name).path
    try body.write(toFile: path, atomically: true, encoding: .utf8)
    return path
  }

  /// The description made from the data of examples/chart.lua: the title, the window's
  /// dates, then each line from its first to its last value in the window.
  static let madeDescription = #"^Followers, [A-Z][a-z]{2} [0-9]{1,2} – [A-Z][a-z]{2} [0-9]{1,2} 20[0-9]{2}: #0 (rose from|fell from|stayed at) [0-9,]+( to [0-9,]+)?; #1 (rose from|fell from|stayed at) [0-9,]+( to [0-9,]+)?$"#

  func testSVGTextTitleDescriptionAndSeriesAreReadable() throws {
    let svg = tmp.appendingPathComponent("c.svg").path
    try render(["examples/chart.lua", "-o", svg])
    XCTAssertEqual(trimmed(try tool("xmllint", ["--noout", svg])), "")
    let texts = Int(try xpath(#"count(//*[local-name()="text"])"#, svg)) ?? 0
    XCTAssertGreaterThan(texts, 10, "every drawn text is a <text>")
    XCTAssertEqual(try xpath(#"string(/*[local-name()="svg"]/*[local-name()="title"])"#, svg), "Followers")
    let desc = try xpath(#"string(/*[local-name()="svg"]/*[local-name()="desc"])"#, svg)
    XCTAssertNotNil(desc.range(of: Self.madeDescription, options: .regularExpression), desc)
    XCTAssertEqual(try xpath(#"string(/*[local-name()="svg"]/@role)"#, svg), "graphics-document")
    XCTAssertEqual(try xpath(#"string(/*[local-name()="svg"]/@aria-labelledby)"#, svg), "cs-title")
    // One group per series, named, inside the chart's group.
    XCTAssertEqual(try xpath(#"count(//*[local-name()="g"][@aria-roledescription="series"])"#, svg), "2")
    XCTAssertEqual(try xpath(#"string(//*[local-name()="g"][@aria-label="Followers"]/*[local-name()="g"][1]/@aria-label)"#, svg), "#0")
    XCTAssertEqual(try xpath(#"string(//*[local-name()="g"][@aria-label="Followers"]/*[local-name()="g"][2]/@aria-label)"#, svg), "#1")
    // The texts are the drawn ones: the title, a date label, the poster's date.
    for text in ["Followers", "Feb 17", "Thu, Feb 28 2019"] {
      XCTAssertEqual(try xpath(#"count(//*[local-name()="text"][.=""# + text + #""])"#, svg), "1", text)
    }
    // They draw nothing: transparent, over the glyph paths that are what is seen.
    XCTAssertEqual(try xpath(#"string(//*[local-name()="g"][@id="cs-readable"]/@style)"#, svg), "fill:rgb(0%,0%,0%);fill-opacity:0;stroke:none")
  }

  func testPDFHasTitleSubjectAndItsTextInOrder() throws {
    let pdf = tmp.appendingPathComponent("c.pdf").path
    try render(["examples/chart.lua", "-o", pdf])
    let info = trimmed(try tool("pdfinfo", [pdf]))
    let fields = Dictionary(info.split(separator: "\n").compactMap { l -> (String, String)? in
      guard let colon = l.firstIndex(of: ":") else { return nil }
      return (String(l[..<colon]), l[l.index(after: colon)...].trimmingCharacters(in: .whitespaces))
    }, uniquingKeysWith: { a, _ in a })
    XCTAssertEqual(fields["Title"], "Followers", info)
    XCTAssertNotNil(fields["Subject"]?.range(of: Self.madeDescription, options: .regularExpression), info)
    // In the order drawn: the title first, then the labels and the legend's names.
    let text = trimmed(try tool("pdftotext", ["-raw", pdf, "-"])).split(separator: "\n").map(String.init)
    XCTAssertEqual(text.first, "Followers", "\(text)")
    for label in ["Feb 17", "Mar 3", "Thu, Feb 28 2019", "#0", "#1"] { XCTAssertTrue(text.contains { $0.contains(label) }, "\(label) in \(text)") }
  }

  func testPNGCarriesTitleDescriptionAndSoftware() throws {
    let png = tmp.appendingPathComponent("c.png").path
    try render(["examples/chart.lua", "-o", png])
    let out = trimmed(try tool("pngcheck", ["-t", png]))
    XCTAssertTrue(out.contains("Title:\n    Followers"), out)
    XCTAssertTrue(out.contains("Description"), out)
    XCTAssertTrue(out.contains("Software"), out)
    XCTAssertTrue(out.contains("chartscene "), out)
    XCTAssertTrue(out.contains("OK: "), out)
    // pngcheck prints a tEXt chunk's text; the description (an en dash: not Latin-1) is an
    // iTXt chunk, whose text exiftool prints, under its language.
    let tags = trimmed(try tool("exiftool", ["-s", "-s", "-Title", "-Description-en", "-Software", png])).split(separator: "\n").map(String.init)
    XCTAssertEqual(tags.count, 3, "\(tags)")
    XCTAssertEqual(tags.first, "Title: Followers")
    let desc = tags.first { $0.hasPrefix("Description-en: ") }.map { String($0.dropFirst("Description-en: ".count)) } ?? ""
    XCTAssertNotNil(desc.range(of: Self.madeDescription, options: .regularExpression), desc)
    XCTAssertTrue(tags.contains { $0.hasPrefix("Software: chartscene ") }, "\(tags)")
  }

  /// `title` and `description` given by the script win; texts XML must escape stay whole;
  /// another locale writes the dates and numbers of the description made from the data; a
  /// description that is not a string is one error line.
  func testGivenDescriptionsLocalesAndBadInput() throws {
    let given = try script("given.lua", """
      local cs = require("chartscene")
      local set = cs.data.sample()[1]
      return cs.scene { width = 480, height = 400, title = "Sales <Q1> & \\"more\\"", description = "Two lines, 'up' & down.",
        root = cs.chart { data = set, title = "A & B" } }

      """)
    let svg = tmp.appendingPathComponent("given.svg").path, pdf = tmp.appendingPathComponent("given.pdf").path, png = tmp.appendingPathComponent("given.png").path
    renderAll([[given, "-o", svg], [given, "-o", pdf], [given, "-o", png]])
    XCTAssertEqual(trimmed(try tool("xmllint", ["--noout", svg])), "")
    XCTAssertEqual(try xpath(#"string(/*[local-name()="svg"]/*[local-name()="title"])"#, svg), "Sales <Q1> & \"more\"")
    XCTAssertEqual(try xpath(#"string(/*[local-name()="svg"]/*[local-name()="desc"])"#, svg), "Two lines, 'up' & down.")
    XCTAssertEqual(try xpath(#"count(//*[local-name()="text"][.="A & B"])"#, svg), "1")
    let info = trimmed(try tool("pdfinfo", [pdf]))
    XCTAssertNotNil(info.range(of: #"(?m)^Title: +Sales <Q1> & "more"$"#, options: .regularExpression), info)
    XCTAssertNotNil(info.range(of: #"(?m)^Subject: +Two lines, 'up' & down\.$"#, options: .regularExpression), info)
    let chunks = trimmed(try tool("pngcheck", ["-t", png]))
    XCTAssertTrue(chunks.contains("Description:\n    Two lines, 'up' & down."), chunks)

    let russian = try script("ru.lua", """
      local cs = require("chartscene")
      local set = cs.data.sample()[1]
      set:setRange(0.75, 1)
      return cs.scene { width = 480, height = 400, locale = "ru", root = cs.chart { data = set, title = "Подписчики", description = nil } }

      """)
    let ruSVG = tmp.appendingPathComponent("ru.svg").path, ruPNG = tmp.appendingPathComponent("ru.png").path
    renderAll([[russian, "-o", ruSVG], [russian, "-o", ruPNG]])
    let desc = try xpath(#"string(/*[local-name()="svg"]/*[local-name()="desc"])"#, ruSVG)
    XCTAssertTrue(desc.hasPrefix("Подписчики, "), desc)
    XCTAssertTrue(desc.contains("февр.") && desc.contains(" → ") && desc.contains("#0 "), desc)
    XCTAssertEqual(try xpath(#"string(/*[local-name()="svg"]/@*[local-name()="lang"])"#, ruSVG), "ru")
    // Not Latin-1: an iTXt chunk, in UTF-8, tagged with the language.
    XCTAssertTrue(trimmed(try tool("pngcheck", ["-t", ruPNG])).contains("OK: "))
    let ruTags = trimmed(try tool("exiftool", ["-s", "-s", "-Title-ru", "-Description-ru", ruPNG]))
    XCTAssertTrue(ruTags.contains("Title-ru: Подписчики\n") && ruTags.contains("Description-ru: " + desc), ruTags)

    for (owner, body) in [("cs.chart", "cs.scene { root = cs.chart { data = cs.data.sample()[1], description = 5 } }"),
                          ("cs.scene", "cs.scene { description = { }, root = cs.chart { data = cs.data.sample()[1] } }")] {
      let bad = try script("bad.lua", "local cs = require(\"chartscene\")\nreturn " + body + "\n")
      let out = tmp.appendingPathComponent("bad.svg").path
      let r = try CLI.run([bad, "-o", out])
      XCTAssertEqual(r.status, 1, r.stderr)
      XCTAssertEqual(r.stderr.split(separator: "\n").count, 1, r.stderr)
      XCTAssertTrue(r.stderr.hasPrefix("error: \(bad):2: bad field 'description' in \(owner) (string expected, got "), r.stderr)
      XCTAssertFalse(FileManager.default.fileExists(atPath: out))
    }
  }
}
