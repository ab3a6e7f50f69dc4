import Foundation
import XCTest

/// `locale`, `timezone`, `--locale`, `--timezone` as a user runs them (docs/locales.md).
final class LocaleCLITests: TempFolderCase {
  static let repo = EndToEndTests.repo

  func localeData(_ name: String) throws -> [String: Any] {
    let url = Self.repo.appendingPathComponent("assets/locales/\(name).json")
    return try XCTUnwrap(JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any])
  }

  func labels(_ json: String, _ key: String) throws -> [String] {
    let doc = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
    let root = try XCTUnwrap(doc["root"] as? [String: Any])
    return try XCTUnwrap(root[key] as? [[String: Any]]).compactMap { $0["text"] as? String }
  }

  /// Each locale's month names on the X axis and its compact suffix and separators on the
  /// Y axis, as `--inspect` reports the labels, checked against the locale's file.
  func testEveryLocaleOnTheAxes() throws {
    let names = ["en", "es", "fr", "de", "pt-BR", "ru", "uk", "zh-Hans", "ja", "ko", "ar", "he", "hi"]
    var seen = Set<String>()
    for name in names {
      let data = try localeData(name)
      let r = try CLI.run(["examples/locales.lua", "--locale", name, "--inspect"], cwd: Self.repo)
      XCTAssertEqual(r.status, 0, "\(name): \(r.stderr)")
      XCTAssertTrue(r.stdout.contains("\"locale\": \"\(name)\""), name)
      let x = try labels(r.stdout, "xLabels"), y = try labels(r.stdout, "yLabels")
      let months = (data["monthsShort"] as! [String]) + (data["standaloneMonthsShort"] as! [String])
      XCTAssertTrue(x.allSatisfy { l in months.contains { l.contains($0) } }, "\(name): \(x)")
      // The example spans 0.5 to 2.5 million: the million's short form, or the number written out.
      let million = (data["compact"] as! [[Any]]).first { ($0[0] as! Int) == 6 }!
      let suffix = (million[3] as! String).trimmingCharacters(in: .whitespaces)
      XCTAssertTrue(y.contains { $0.contains(suffix) }, "\(name): \(y) lacks '\(suffix)'")
      if (million[1] as! Int) == 6 {
        XCTAssertTrue(y.contains { $0.contains((data["decimal"] as! String) + "5") }, "\(name): \(y) lacks the decimal separator")
      }
      seen.insert(x.joined(separator: "|"))
    }
    XCTAssertGreaterThan(seen.count, 8, "the locales' labels differ")
  }

  /// English and UTC by default: the same bytes as without the options; another locale moves pixels.
  func testDefaultIsEnglishUTC() throws {
    let a = tmp.appendingPathComponent("a.png"), b = tmp.appendingPathComponent("b.png"), c = tmp.appendingPathComponent("c.png")
    XCTAssertEqual(try CLI.run(["examples/chart.lua", "-o", a.path], cwd: Self.repo).status, 0)
    XCTAssertEqual(try CLI.run(["examples/chart.lua", "-o", b.path, "--locale", "en", "--timezone", "UTC"], cwd: Self.repo).status, 0)
    XCTAssertEqual(try CLI.run(["examples/chart.lua", "-o", c.path, "--locale", "ru"], cwd: Self.repo).status, 0)
    XCTAssertEqual(try Data(contentsOf: a), try Data(contentsOf: b))
    XCTAssertNotEqual(try Data(contentsOf: a), try Data(contentsOf: c))
  }

  /// A time zone moves the day ticks to local midnights (New York: 05:00 UTC in winter).
  func testTimezoneOnTheAxis() throws {
    let script = tmp.appendingPathComponent("tz.lua")
    try """
    local cs = require("chartscene")
    local x, v = {}, {}
    local t0 = 1615680000000 -- 2021-03-14T00:00Z, the American change
    for i = 0, 24 * 6 do x[#x + 1] = t0 + i * 3600000; v[#v + 1] = 50 + 30 * math.sin(i / 5) end
    local s = cs.data.series { name = "NY", x = x, lines = { { id = "a", name = "Load", color = "#3497ED", values = v } } }
    return cs.scene { width = 720, height = 400, timezone = "America/New_York", root = cs.chart { data = s, minimap = false } }
    """.write(to: script, atomically: true, encoding: .utf8)
    let r = try CLI.run([script.path, "--inspect"])
    XCTAssertEqual(r.status, 0, r.stderr)
    let x = try labels(r.stdout, "xLabels")
    XCTAssertTrue(x.contains("Mar 15") && x.contains("Mar 16"), "\(x)")
    XCTAssertTrue(r.stdout.contains("\"timezone\": \"America/New_York\""))
    let utc = try labels(try CLI.run([script.path, "--inspect", "--timezone", "UTC"]).stdout, "xLabels")
    XCTAssertNotEqual(x, utc)
    XCTAssertEqual(try CLI.run(["lint", script.path, "--locale", "ja", "--timezone", "Asia/Tokyo"]).status, 0)
  }

  /// Text templates write numbers and dates in the scene's locale.
  func testTemplatesInTheLocale() throws {
    let script = tmp.appendingPathComponent("tpl.lua")
    try """
    local cs = require("chartscene")
    local s = cs.data.sample()[1]
    s:setRange(0.5, 1)
    return cs.scene { width = 720, height = 400, locale = "ru",
      root = cs.vstack { cs.text { text = "{time:%B %Y}: {value:y0|compact}", data = s }, cs.chart { data = s, title = "{time}" } } }
    """.write(to: script, atomically: true, encoding: .utf8)
    let r = try CLI.run([script.path, "--inspect"])
    XCTAssertEqual(r.status, 0, r.stderr)
    XCTAssertTrue(r.stdout.contains("\"text\": \"март 2019: 64\""), r.stdout)
    XCTAssertTrue(r.stdout.contains("\"title\": \"пт, 8 мар. 2019\u{202f}г.\""), r.stdout)
  }

  /// Bad names: one line with the nearest names and a non-zero exit, no output written.
  func testBadLocalesAndZones() throws {
    let out = tmp.appendingPathComponent("x.png")
    var r = try CLI.run(["examples/chart.lua", "--locale", "russian", "-o", out.path], cwd: Self.repo)
    XCTAssertNotEqual(r.status, 0)
    XCTAssertTrue(r.stderr.hasPrefix("Error: unknown locale 'russian' (nearest: 'ru'") || r.stderr.contains("error: unknown locale 'russian' (nearest: 'ru'"), r.stderr)
    r = try CLI.run(["examples/chart.lua", "--timezone", "Europe/Olso", "-o", out.path], cwd: Self.repo)
    XCTAssertNotEqual(r.status, 0)
    XCTAssertTrue(r.stderr.contains("unknown time zone 'Europe/Olso' (nearest: 'Europe/Oslo'"), r.stderr)
    r = try CLI.run(["lint", "examples/chart.lua", "--locale", "xx"], cwd: Self.repo)
    XCTAssertNotEqual(r.status, 0)
    for (field, value, message) in [("locale", "\"klingon\"", "unknown locale 'klingon'"), ("timezone", "\"Mars/Olympus\"", "unknown time zone 'Mars/Olympus'"),
                                    ("timezone", "5", "bad field 'timezone' in cs.scene (string expected, got number)")] {
      let script = tmp.appendingPathComponent("bad.lua")
      try "local cs = require(\"chartscene\")\nreturn cs.scene {\n  \(field) = \(value),\n  root = cs.chart { data = cs.data.sample()[1] },\n}\n".write(to: script, atomically: true, encoding: .utf8)
      let r = try CLI.run([script.path, "-o", out.path])
      XCTAssertEqual(r.status, 1)
      XCTAssertTrue(r.stderr.hasPrefix("error: \(script.path):2: \(message)"), r.stderr)
      XCTAssertEqual(r.stderr.split(separator: "\n").count, 1, r.stderr)
    }
    XCTAssertFalse(FileManager.default.fileExists(atPath: out.path))
    // In a preset: the preset's line.
    let presets = tmp.appendingPathComponent("presets")
    try FileManager.default.createDirectory(at: presets, withIntermediateDirectories: true)
    try "return { description = \"x\", scene = { timezone = \"Nowhere\" } }\n".write(to: presets.appendingPathComponent("p.lua"), atomically: true, encoding: .utf8)
    let script = tmp.appendingPathComponent("p.lua")
    try "local cs = require(\"chartscene\")\nreturn cs.scene { preset = \"p\", root = cs.chart { data = cs.data.sample()[1] } }\n".write(to: script, atomically: true, encoding: .utf8)
    r = try CLI.run([script.path, "-o", out.path])
    XCTAssertEqual(r.status, 1)
    XCTAssertTrue(r.stderr.contains("presets/p.lua:1: unknown time zone 'Nowhere'") && r.stderr.contains("for 'scene.timezone' in preset"), r.stderr)
  }
}
