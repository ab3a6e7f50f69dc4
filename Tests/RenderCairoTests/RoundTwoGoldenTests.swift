import ChartSceneHost
import Drawing
import Foundation
import RenderCairo
import XCTest

/// Golden images of each round-two chart type, in both themes, on the contest's data (see
/// docs/testing.md for re-recording).
final class RoundTwoGoldenTests: TempFolderCase {
  static let data: String = {
    var parts = "\(#filePath)".split(separator: "/").map(String.init)
    parts.removeLast(2)
    return "/" + parts.joined(separator: "/") + "/Fixtures/telegram/round2"
  }()

  func render(_ n: Int, theme: String, extra: String = "", then: String = "") throws -> RasterImage {
    let path = dir + "/s.lua"
    try """
      local s = cs.data.telegram("\(RoundTwoGoldenTests.data)/\(n)/overview.json")[1]
      s:setRange(0.8, 1)
      \(then)
      return cs.scene{ width = 400, height = 440, theme = "\(theme)",
        root = cs.chart{ data = s, title = "Chart \(n)", indicatorAt = 0.9 \(extra) } }
      """.write(toFile: path, atomically: true, encoding: .utf8)
    let session = try Session(scriptPath: path, quiet: true)
    return try CairoPainter(text: session.text).raster(try session.displayList(at: 0), scale: 1)
  }

  /// Data the contest did not have (issue 21): negatives in a stack, gaps, several bar lines
  /// that are not stacked (Fixtures/telegram/stress, written by a script like the docs').
  func renderStress(_ file: String, extra: String = "") throws -> RasterImage {
    let path = dir + "/s.lua"
    try """
      local s = cs.data.telegram("\(RoundTwoGoldenTests.data)/../stress/\(file).json")[1]
      return cs.scene{ width = 400, height = 440, theme = "day",
        root = cs.chart{ data = s, title = "\(file)", indicatorAt = 0.42 \(extra) } }
      """.write(toFile: path, atomically: true, encoding: .utf8)
    let session = try Session(scriptPath: path, quiet: true)
    return try CairoPainter(text: session.text).raster(try session.displayList(at: 0), scale: 1)
  }

  func testNegativesStackBelowZero() throws {
    try Golden.assertMatches(try renderStress("negbars"), "round2-negative-stacked-bars-day")
    try Golden.assertMatches(try renderStress("negbars", extra: ", type = 'area'"), "round2-negative-stacked-areas-day")
  }

  func testGapsInStacksAreGaps() throws {
    try Golden.assertMatches(try renderStress("gapbars"), "round2-gap-stacked-bars-day")
    try Golden.assertMatches(try renderStress("gapareas"), "round2-gap-stacked-areas-day")
    try Golden.assertMatches(try renderStress("gappct"), "round2-gap-percentage-day")
  }

  func testUnstackedBarsStandSideBySide() throws {
    try Golden.assertMatches(try renderStress("groupbars"), "round2-grouped-bars-day")
  }

  func testTwoAxes() throws {
    for theme in ["day", "night"] { try Golden.assertMatches(try render(2, theme: theme), "round2-two-axes-\(theme)") }
  }

  func testStackedBars() throws {
    for theme in ["day", "night"] { try Golden.assertMatches(try render(3, theme: theme), "round2-stacked-bars-\(theme)") }
  }

  func testBars() throws {
    for theme in ["day", "night"] { try Golden.assertMatches(try render(4, theme: theme), "round2-bars-\(theme)") }
  }

  func testPercentageAreas() throws {
    for theme in ["day", "night"] { try Golden.assertMatches(try render(5, theme: theme), "round2-percentage-\(theme)") }
  }

  func testPieOfADay() throws {
    for theme in ["day", "night"] {
      try Golden.assertMatches(try render(5, theme: theme, then: "s:zoom('2018-10-06')"), "round2-pie-\(theme)")
    }
  }

  func testStackedAreasFromLua() throws {
    for theme in ["day", "night"] {
      try Golden.assertMatches(try render(3, theme: theme, extra: ", type = 'area'"), "round2-stacked-areas-\(theme)")
    }
  }
}
