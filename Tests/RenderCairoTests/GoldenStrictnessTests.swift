import ChartSceneHost
import Drawing
import Encoding
import Foundation
import RenderCairo
import XCTest

/// The golden comparison is tight enough to catch one wrong digit, and recording fails.
final class GoldenStrictnessTests: TempFolderCase {
  func render(_ script: String) throws -> RasterImage {
    let path = dir + "/s.lua"
    try script.write(toFile: path, atomically: true, encoding: .utf8)
    let session = try Session(scriptPath: path, quiet: true)
    return try CairoPainter(text: session.text).raster(try session.displayList(at: 0), scale: 1)
  }

  /// A chart with a label of axis size (11 px) in the corner.
  func chart(label: String) -> String {
    """
    local s = cs.data.sample()[1]
    s:setRange(0.75, 1)
    return cs.scene{ width = 360, height = 320, root = cs.vstack{ spacing = 0,
      cs.text{ text = "\(label)", size = 11 },
      cs.chart{ data = s, title = "Followers" } } }
    """
  }

  func testOneWrongDigitInALabelFails() throws {
    let good = try render(chart(label: "1,234"))
    XCTAssertNil(Golden.mismatch(try render(chart(label: "1,234")), good), "the same scene must match")
    for wrong in ["1,284", "1,235", "7,234", "1.234"] {
      let bad = try render(chart(label: wrong))
      let why = Golden.mismatch(bad, good)
      XCTAssertNotNil(why, "'\(wrong)' instead of '1,234' passed the golden comparison")
      let (differing, _) = Golden.compare(bad, good, channelTolerance: Golden.channelTolerance)
      XCTAssertGreaterThan(differing, Golden.allowedPixels * 2, "'\(wrong)': only \(differing) pixels differ; the allowance is too close")
    }
  }

  func testOneShiftedLineFails() throws {
    // A line one pixel off (a wrong scale, an off-by-one) changes a thin row of pixels.
    let a = try render("return cs.scene{ width = 200, height = 100, root = cs.canvas{ draw = function(g) g:color('#3497ED'):rect(10, 40, 180, 1):fill() end } }")
    let b = try render("return cs.scene{ width = 200, height = 100, root = cs.canvas{ draw = function(g) g:color('#3497ED'):rect(10, 41, 180, 1):fill() end } }")
    XCTAssertNotNil(Golden.mismatch(a, b))
  }

  func testRecordingWritesTheFileAndFails() throws {
    let image = try render(chart(label: "1,234"))
    let recorded = try Golden.check(image, "probe", in: dir, recording: true)
    XCTAssertNotNil(recorded, "recording must fail the run")
    XCTAssertTrue(recorded?.contains("without RECORD_GOLDENS") ?? false, recorded ?? "")
    XCTAssertTrue(FileManager.default.fileExists(atPath: dir + "/probe.png"))
    // Recording again still fails; comparing (the variable removed) passes.
    XCTAssertNotNil(try Golden.check(image, "probe", in: dir, recording: true))
    XCTAssertNil(try Golden.check(image, "probe", in: dir, recording: false))
    // A missing golden is recorded and fails too.
    XCTAssertNotNil(try Golden.check(image, "missing", in: dir, recording: false))
    XCTAssertTrue(FileManager.default.fileExists(atPath: dir + "/missing.png"))
    XCTAssertNil(try Golden.check(image, "missing", in: dir, recording: false))
  }
}
