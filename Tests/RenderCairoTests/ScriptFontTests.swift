import ChartSceneHost
import Drawing
import Foundation
import RenderCairo
import XCTest

/// Text in every script from the bundled fonts (issue 22): Pango is asked for unknown glyphs
/// (boxes) in every title, line name and text of a scene with each script, and the pictures
/// are the same bytes on two runs.
final class ScriptFontTests: TempFolderCase {
  /// A title and a line name in each script the bundled fonts cover.
  static let samples: [(script: String, title: String, name: String)] = [
    ("Latin", "Ventas año 2024 — Übersicht", "Déjà vu"),
    ("Greek", "Πωλήσεις 2024", "Ελληνικά"),
    ("Cyrillic", "Продажи 2024 — Україна", "Магазины"),
    ("Arabic", "المبيعات ٢٠٢٤ (بالآلاف)", "عبر الإنترنت"),
    ("Hebrew", "מכירות 2024 (ש\"ח)", "חנויות"),
    ("Devanagari", "बिक्री 2024", "हिन्दी"),
    ("Thai", "ยอดขาย ๒๕๖๗", "ภาษาไทย"),
    ("Simplified Chinese", "销售额 (万元) 2024", "线上渠道"),
    ("Traditional Chinese", "銷售額 臺灣 門市", "繁體中文"),
    ("Japanese", "売上高 2024年 オンライン", "ひらがな カタカナ"),
    ("Korean", "판매 실적 2024", "한국어 온라인"),
    ("Emoji", "Sales 📈 🚀 😀", "🛒 ✅ ❤️"),
    ("Mixed", "Продажи 销售 2024 مبيعات", "Ελληνικά עברית 2024"),
  ]

  func script(_ samples: [(script: String, title: String, name: String)], height: Double) -> String {
    func lua(_ s: String) -> String { "\"" + s.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\"" }
    var charts = ""
    for (i, s) in samples.enumerated() {
      charts += """
        cs.chart { id = "c\(i)", title = \(lua(s.title)), minimap = false, data = cs.data.series { x = x, lines = {
          { id = "a", name = \(lua(s.name)), color = "#3DC23F", values = v },
          { id = "b", name = \(lua(s.title)), color = "#F34C44", values = v } } } },
        cs.text { text = \(lua(s.title)), size = 20, weight = "bold" },

        """
    }
    return """
      local x, v = {}, {}
      for i = 1, 10 do x[i] = 1546300800000 + i * 86400000; v[i] = i * 10 end
      return cs.scene { width = 720, height = \(Int(height)), root = cs.vstack {
      \(charts)} }
      """
  }

  func session(_ source: String) throws -> Session {
    let path = dir + "/s.lua"
    try source.write(toFile: path, atomically: true, encoding: .utf8)
    return try Session(scriptPath: path, quiet: true)
  }

  /// Pango's unknown glyphs in every title, line name and text of a scene with every script,
  /// found by `chartscene lint` (which asks Pango, as the warning does) in a child process:
  /// the fonts of every script loaded in the test runner would keep its memory high for the
  /// tests after it, whose children's peak memory is measured from a fork of it.
  func testEveryScriptHasEveryGlyph() throws {
    let path = dir + "/all.lua"
    try script(Self.samples, height: 5200).write(toFile: path, atomically: true, encoding: .utf8)
    let (status, out) = try run(["lint", path])
    XCTAssertEqual(status, 0, out)
    XCTAssertEqual(out, "", "lint (every text checked with Pango for unknown glyphs) found: \(out)")
    // The check does see a missing character in the same scene.
    var samples = Self.samples
    samples.append(("Ethiopic", "ሰላም", "ok"))
    try script(samples, height: 5600).write(toFile: path, atomically: true, encoding: .utf8)
    let (bad, found) = try run(["lint", path])
    XCTAssertEqual(bad, 1)
    XCTAssertTrue(found.contains("no font has U+1230, U+120B, U+121D in the title of 'c13'"), found)
    XCTAssertTrue(found.contains("no font has U+1230, U+120B, U+121D in the name of line 'b' of 'c13'"), found)
    XCTAssertFalse(found.contains("'c12'"), found)
  }

  /// Runs the built executable: its exit status and what it printed on both streams.
  func run(_ args: [String]) throws -> (Int32, String) {
    let p = Process()
    p.executableURL = Self.binary
    p.arguments = args
    let outFile = dir + "/out-\(UUID().uuidString).txt"
    _ = FileManager.default.createFile(atPath: outFile, contents: nil)
    let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: outFile))
    p.standardOutput = handle
    p.standardError = handle
    try p.run()
    p.waitUntilExit()
    try handle.close()
    return (p.terminationStatus, try String(contentsOfFile: outFile, encoding: .utf8))
  }

  func testAMissingCharacterIsFoundAndNamed() throws {
    let s = try session("""
      return cs.scene { width = 300, height = 200, root = cs.vstack {
        cs.chart { id = "sales", data = cs.data.sample()[1], title = "Sales ሰ" },
        cs.text { id = "note", text = "ok" } } }
      """)
    XCTAssertEqual(s.text.missingCharacters("Ethiopic ሰላም and Sinhala ඞ", font: Font(size: 12)).map(\.value), [0x1230, 0x120B, 0x121D, 0x0D9E])
    XCTAssertEqual(s.warnings, ["\(dir)/s.lua:2: no font has U+1230 in the title of 'sales'"])
  }

  /// Two processes (a picture in this one would keep the test runner's memory high for the
  /// tests after it, whose children's peak memory is measured).
  func testSameBytesOnTwoRuns() throws {
    let path = dir + "/two.lua"
    try script(Self.samples, height: 5200).write(toFile: path, atomically: true, encoding: .utf8)
    var pngs: [Data] = []
    for i in 0..<2 {
      let out = dir + "/two-\(i).png"
      let p = Process()
      p.executableURL = Self.binary
      p.arguments = [path, "-o", out]
      p.standardError = FileHandle.nullDevice
      try p.run()
      p.waitUntilExit()
      XCTAssertEqual(p.terminationStatus, 0)
      pngs.append(try Data(contentsOf: URL(fileURLWithPath: out)))
    }
    XCTAssertEqual(pngs[0], pngs[1])
    XCTAssertGreaterThan(pngs[0].count, 10_000)
  }

  /// The chartscene to run, as `CLI.binary` of the end-to-end tests finds it:
  /// `CHARTSCENE_TEST_BINARY`, else the one built next to the test bundle.
  static var binary: URL {
    if let path = ProcessInfo.processInfo.environment["CHARTSCENE_TEST_BINARY"], FileManager.default.isExecutableFile(atPath: path) {
      return URL(fileURLWithPath: path)
    }
    let here = Bundle.main.bundleURL
    for dir in [here, here.deletingLastPathComponent(), URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()] {
      let candidate = dir.appendingPathComponent("chartscene")
      if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
    }
    return URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
      .appendingPathComponent(".build/debug/chartscene")
  }

  func testRightToLeftTitlesStartAtTheRightEdge() throws {
    let s = try session("""
      return cs.scene { width = 400, height = 300, root = cs.vstack {
        cs.chart { id = "ar", data = cs.data.sample()[1], title = "المبيعات 2024", minimap = false },
        cs.chart { id = "en", data = cs.data.sample()[1], title = "Sales 2024", minimap = false } } }
      """)
    let list = try s.displayList(at: 0)
    var titles: [String: TextRun] = [:]
    for case .text(let run) in list.items where run.text.hasSuffix("2024") { titles[run.text] = run }
    XCTAssertEqual(titles["المبيعات 2024"]?.align, .right)
    XCTAssertEqual(titles["Sales 2024"]?.align, .left)
    XCTAssertGreaterThan(titles["المبيعات 2024"]?.origin.x ?? 0, 300)
    XCTAssertTrue(TextDirection.isRightToLeft("שלום 123"))
    XCTAssertTrue(TextDirection.isRightToLeft("2024 مبيعات"))
    XCTAssertFalse(TextDirection.isRightToLeft("Продажи مبيعات"))
    XCTAssertFalse(TextDirection.isRightToLeft("2024"))
  }

  /// Installed fonts take no part: the configuration holds the bundled files only (Inter
  /// alone until a text needs a character Inter lacks, then every fallback font too).
  func testTheConfigurationHoldsOnlyTheBundledFonts() throws {
    _ = try session("return cs.scene { width = 10, height = 10, root = cs.text { text = '销售' } }")
    let all = FontRegistry.registeredFiles.map { String($0.split(separator: "/").last!) }
    XCTAssertEqual(all, FontRegistry.bundledFiles)
  }

  /// A Latin text is set the same whether the fallback fonts are loaded or not (they are
  /// loaded at the first text Inter cannot set): an invisible text laid out first, Latin or
  /// Chinese, leaves the same bytes.
  func testLatinTextIsTheSameBeforeAndAfterTheFallbacksLoad() throws {
    var pngs: [Data] = []
    for (i, first) in ["Revenue", "销售额"].enumerated() {
      let path = dir + "/latin-\(i).lua"
      try """
        return cs.scene { width = 420, height = 160, root = cs.zstack {
          cs.text { text = "\(first)", size = 30, opacity = 0 },
          cs.vstack { cs.text { text = "Sales 2024 — Übersicht €1,234.5", size = 22, weight = "bold" },
                      cs.text { text = "Продажи · Πωλήσεις · ‘quotes’ № 7", size = 14 } } } }
        """.write(toFile: path, atomically: true, encoding: .utf8)
      let out = dir + "/latin-\(i).png"
      let (status, printed) = try run([path, "-o", out])
      XCTAssertEqual(status, 0, printed)
      pngs.append(try Data(contentsOf: URL(fileURLWithPath: out)))
    }
    XCTAssertEqual(pngs[0], pngs[1])
  }
}
