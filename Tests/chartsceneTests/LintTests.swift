import Foundation
import XCTest

/// `chartscene lint`: every example passes at its own size, 360×640, 320×240, 1280×720 and 1920×1080; mistakes
/// are found and named.
final class LintTests: TempFolderCase {

  func examples() throws -> [String] {
    try FileManager.default.contentsOfDirectory(atPath: EndToEndTests.repo.appendingPathComponent("examples").path).filter { $0.hasSuffix(".lua") }.sorted()
  }

  /// Issue 21: at its own size, 360×640, 320×240 and 1920×1080, day and night (the labels'
  /// contrast included); issue 39 adds 1280×720. Each size and theme is one run over every example (lint takes
  /// several scripts), two runs at a time.
  func testEveryExamplePassesAtEverySizeDayAndNight() throws {
    let names = try examples()
    XCTAssertGreaterThan(names.count, 20)
    let sizes: [String?] = [nil, "360x640", "320x240", "1280x720", "1920x1080"]
    let configs: [(String?, String)] = sizes.flatMap { size in ["day", "night"].map { (size, $0) } }
    let scripts: [String] = names.map { "examples/" + $0 }
    let results = CLI.runAll(configs.map { (size: String?, theme: String) -> [String] in
      ["lint"] + scripts + ["--theme", theme] + (size.map { ["--size", $0] } ?? [])
    })
    for ((size, theme), r) in zip(configs, results) {
      XCTAssertEqual(r.status, 0, "\(size ?? "own size") \(theme): \(r.stdout)\(r.stderr)")
      XCTAssertEqual(r.stdout, "", "\(size ?? "own size") \(theme)")
      XCTAssertEqual(r.stderr, "", "\(size ?? "own size") \(theme)")
      XCTAssertLessThan(r.seconds, 30, "lint of every example at \(size ?? "own size") \(theme) took \(r.seconds) s")
    }
  }

  /// Several scripts in one run: each finding names its script, a script that fails prints
  /// its error line and the next one is still checked, and the status is 1 when any had a
  /// finding or failed (0 when none); no script at all is a usage error.
  func testSeveralScriptsAreCheckedOneAfterTheOther() throws {
    let bad = tmp.appendingPathComponent("bad.lua"), broken = tmp.appendingPathComponent("broken.lua")
    try """
    local cs = require("chartscene")
    return cs.scene{ width=400, height=300, root=cs.zstack{
      cs.text{ id="a", text="Overlapping caption" },
      cs.text{ id="b", text="Second caption here" },
    } }
    """.write(to: bad, atomically: true, encoding: .utf8)
    try "local x = nil\nreturn x.y\n".write(to: broken, atomically: true, encoding: .utf8)
    let r = try CLI.run(["lint", broken.path, bad.path, "examples/chart.lua", broken.path, "--size", "400x300"])
    XCTAssertEqual(r.status, 1, r.stderr)
    XCTAssertEqual(r.stdout, "lint: \(bad.path): t=0 s: texts 'Overlapping caption' and 'Second caption here' overlap\n")
    XCTAssertEqual(r.stderr, String(repeating: "error: \(broken.path):2: attempt to index a nil value (local 'x')\n", count: 2))
    let clean = try CLI.run(["lint", "examples/chart.lua", "examples/five.lua"])
    XCTAssertEqual(clean.status, 0, clean.stdout + clean.stderr)
    XCTAssertEqual(clean.stdout + clean.stderr, "")
    let none = try CLI.run(["lint", "--size", "400x300"])
    XCTAssertEqual(none.status, 64)
    XCTAssertEqual(none.stderr, "error: Missing expected argument '<scripts> ...'\n")
  }

  func testFindingsAreNamedAndExitOne() throws {
    let script = tmp.appendingPathComponent("bad.lua")
    try """
    local cs = require("chartscene")
    return cs.scene{ width=400, height=300, root=cs.zstack{
      cs.text{ id="a", text="Overlapping caption" },
      cs.text{ id="b", text="Second caption here" },
      cs.canvas{ id="c", draw=function(g, w, h, t) g:text("cut off by the canvas edge", w - 40, 20) end },
    } }
    """.write(to: script, atomically: true, encoding: .utf8)
    let r = try CLI.run(["lint", script.path])
    XCTAssertEqual(r.status, 1)
    XCTAssertEqual(r.stdout, """
    lint: \(script.path): t=0 s: text 'cut off by the canvas edge' is clipped by its container
    lint: \(script.path): t=0 s: texts 'Overlapping caption' and 'Second caption here' overlap

    """)
    XCTAssertEqual(r.stderr, "")
  }

  func testTheIssuesDataPassesAtEverySize() throws {
    // Hourly, 5-minute, ten years daily, 1e-6 and 1.5e12 values, long names, isolated points.
    let script = tmp.appendingPathComponent("data.lua")
    try """
    local cs = require("chartscene")
    local function series(t0, step, n, f, name)
      local x, v, w = {}, {}, {}
      for i = 0, n - 1 do x[#x+1] = t0 + i * step; v[#v+1] = f(i); w[#w+1] = (i % 5 == 2) and f(i) / 2 or 0/0 end
      return cs.data.series{ name = name, x = x, lines = {
        { id = "a", name = "A remarkably long line name that goes on and on forever", color = "#3DC23F", values = v },
        { id = "b", name = "Isolated points", color = "#F34C44", values = w } } }
    end
    local t0 = 1554076800000
    return cs.scene{ width = 720, height = 1280, root = cs.vstack{
      cs.chart{ data = series(t0, 3600000, 145, function(i) return 100 + 50 * math.sin(i / 5) end, "Hourly"), indicatorAt = 0.5 },
      cs.chart{ data = series(t0, 300000, 169, function(i) return -20 + 40 * math.sin(i / 9) end, "Five minutes"), indicatorAt = 0.99 },
      cs.chart{ data = series(1262304000000, 86400000, 3653, function(i) return 1000 + 3 * i end, "Ten years daily with a long title that does not fit"), indicatorAt = 0.02 },
      cs.chart{ data = series(t0, 86400000, 61, function(i) return 1e-6 + 0.5e-6 * math.sin(i / 6) end, "Micro"), indicatorAt = 0.5 },
      cs.chart{ data = series(0, 31557600000, 51, function(i) return 1.5e12 * i / 50 end, "Tera"), indicatorAt = 1 },
    } }
    """.write(to: script, atomically: true, encoding: .utf8)
    for size in [nil, "360x640", "320x240", "1200x700"] {
      let r = try CLI.run(["lint", script.path] + (size.map { ["--size", $0] } ?? []))
      XCTAssertEqual(r.status, 0, "\(size ?? "own size"): \(r.stdout)\(r.stderr)")
    }
    let r = try CLI.run([script.path, "--inspect"])
    XCTAssertTrue(["\"1T\"", "\"1.5T\"", "\"2T\""].contains { r.stdout.contains($0) }, "no T label")
    XCTAssertTrue(r.stdout.contains("\"0.0000015\"") || r.stdout.contains("\"0.000001\""), "no small-decimal label")
    XCTAssertFalse(r.stdout.contains("\"1500B\""))
  }

  func testBadArguments() throws {
    var r = try CLI.run(["lint", "examples/chart.lua", "--frames", "x"])
    XCTAssertEqual(r.status, 64)
    XCTAssertEqual(r.stderr, "error: bad --frames 'x' (expected A-B, e.g. 0-59, or one frame N)\n")
    r = try CLI.run(["lint", "examples/chart.lua", "--frames", "3-4"])
    XCTAssertEqual(r.status, 1)
    XCTAssertEqual(r.stderr, "error: bad --frames 3-4: the scene has frames 0-0 (1 at 60 fps)\n")
    r = try CLI.run(["lint", "examples/chart.lua", "--size", "0x5"])
    XCTAssertEqual(r.status, 64)
    r = try CLI.run(["lint", tmp.appendingPathComponent("missing.lua").path])
    XCTAssertEqual(r.status, 1)
    XCTAssertTrue(r.stderr.hasPrefix("error: "), r.stderr)
    XCTAssertEqual(r.stderr.split(separator: "\n").count, 1)
    r = try CLI.run(["lint", "examples/story.lua", "--frames", "10-20"])
    XCTAssertEqual(r.status, 0, r.stdout + r.stderr)
  }

  /// Lint and rendering read their scene options with the same code: what one refuses the
  /// other refuses with the same line (lint once had its own size reader, which took
  /// "720xx1280"), and lint takes every option that changes the scene.
  func testLintAndRenderShareTheirSceneOptions() throws {
    let out = tmp.appendingPathComponent("x.png").path
    for bad in [["--size", "720xx1280"], ["--size", "0x5"], ["--theme", "dusk"], ["--fps", "0"], ["--arg", "1a=b"],
                ["--max-memory", "1K"], ["--max-time", "0"], ["--allow-read", "/no/such/folder"]] {
      let lint = try CLI.run(["lint", "examples/chart.lua"] + bad)
      let render = try CLI.run(["examples/chart.lua", "-o", out] + bad)
      XCTAssertEqual(lint.status, 64, "\(bad): \(lint.stderr)")
      XCTAssertEqual(render.status, 64, "\(bad): \(render.stderr)")
      XCTAssertEqual(lint.stderr, render.stderr, "\(bad)")
      XCTAssertTrue(lint.stderr.hasPrefix("error: ") && lint.stderr.split(separator: "\n").count == 1, lint.stderr)
    }
    // The scene variant chosen by --arg and --preset is the one checked.
    let script = tmp.appendingPathComponent("args.lua")
    try "if cs.args.mode == 'broken' then error('this variant is broken') end\nreturn cs.scene { width = 320, height = 240, root = cs.text { text = 'Hello' } }\n"
      .write(to: script, atomically: true, encoding: .utf8)
    XCTAssertEqual(try CLI.run(["lint", script.path, "--preset", "night"]).status, 0)
    let broken = try CLI.run(["lint", script.path, "--arg", "mode=broken", "--preset", "night"])
    XCTAssertEqual(broken.status, 1, broken.stdout + broken.stderr)
    XCTAssertEqual(broken.stderr, "error: \(script.path):1: this variant is broken\n")
    let preset = try CLI.run(["lint", script.path, "--preset", "no-such-preset"])
    XCTAssertEqual(preset.status, 1, preset.stderr)
    XCTAssertTrue(preset.stderr.contains("no-such-preset"), preset.stderr)
  }

  func testInspectShowsWhatIsDrawn() throws {
    let r = try CLI.run(["examples/chart.lua", "--inspect"])
    let json = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
    let root = try XCTUnwrap(json["root"] as? [String: Any])
    XCTAssertEqual((root["drawn"] as? [Double])?.count, 4)
    let xs = try XCTUnwrap(root["xLabels"] as? [[String: Any]])
    let ys = try XCTUnwrap(root["yLabels"] as? [[String: Any]])
    XCTAssertFalse(xs.isEmpty); XCTAssertFalse(ys.isEmpty)
    XCTAssertEqual(xs.map { $0["text"] as? String }, ["Feb 10", "Feb 17", "Feb 24", "Mar 3"])
    for l in xs + ys { XCTAssertEqual((l["frame"] as? [Double])?.count, 4); XCTAssertEqual(l["alpha"] as? Double, 1) }
    let parts = try XCTUnwrap(root["parts"] as? [String: Any])
    let poster = try XCTUnwrap(parts["poster"] as? [Double])
    let plot = try XCTUnwrap(parts["plot"] as? [Double])
    XCTAssertTrue(poster[0] >= plot[0] && poster[0] + poster[2] <= plot[0] + plot[2])
  }
}
