import ChartSceneHost
import Drawing
import Foundation
import SceneGraph
import XCTest

/// Issue 39: pictures a designer would publish at every size, and a lint that sees what a
/// reader sees. A still at a size other than the script's shows settled labels (item 3);
/// a poster with room for one row shows a value (item 11).
final class SettledPicturesTests: TempFolderCase {
  static let repo = URL(fileURLWithPath: "\(#filePath)").deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

  func example(_ name: String, size: (Double, Double)? = nil) throws -> Session {
    var o = Session.Overrides()
    if let size { o.width = size.0; o.height = size.1 }
    return try Session(scriptPath: Self.repo.appendingPathComponent("examples/" + name).path, overrides: o, quiet: true)
  }

  /// The labels of every chart of a still (what the renderer draws, `--inspect` reports
  /// and lint checks), by chart id.
  func labels(_ s: Session) throws -> [(id: String, axes: ChartAxes)] {
    var out: [(String, ChartAxes)] = []
    func visit(_ n: Node) throws {
      if n.chart != nil { out.append((n.id, try s.chartAxes(n.id, at: 0).axes)) }
      for c in n.children { try visit(c) }
    }
    try visit(s.scene.root)
    return out
  }

  /// Item 3: `five.lua` at 320×240 drew its top Y labels at 11 % and its zeros at 66 %;
  /// `languages.lua` at 320×240 at 7.5 %. Settled, each label is drawn whole or not at all,
  /// and every chart still labels at least one line; at their own sizes nothing changes
  /// (every label whole, as before).
  func testStillsAtAnotherSizeShowSettledLabels() throws {
    for (name, size) in [("five.lua", (320.0, 240.0)), ("languages.lua", (320.0, 240.0)), ("five.lua", nil), ("chart.lua", (1920.0, 1080.0))] {
      let s = try example(name, size: size)
      let charts = try labels(s)
      XCTAssertFalse(charts.isEmpty, name)
      for (id, axes) in charts {
        let where_ = "\(name) \(size.map { "\(Int($0.0))x\(Int($0.1))" } ?? "own size") chart \(id)"
        for l in axes.yLabels + axes.rightLabels + axes.xRow {
          XCTAssertEqual(l.alpha, 1, accuracy: 0.001, "\(where_): label '\(l.text)' at \(l.alpha)")
        }
        XCTAssertFalse(axes.yLabels.isEmpty, "\(where_): no Y label at all")
        // And lint, which checks the same labels, finds nothing faded.
        XCTAssertEqual(Lint.fadedAtRest(name: id, axes: axes), [], where_)
      }
      let findings = try Lint(session: s).run().map(\.message).filter { $0.contains("opacity at rest") }
      XCTAssertEqual(findings, [], name)
    }
  }

  /// Item 3's lint: the labels as the former code drew them on `five.lua` at 320×240 (the
  /// defect put back: the same axes with the top label at 11 % and the zero at 66 %) are
  /// findings; whole labels are not.
  func testLintSeesALabelFadedAtRest() throws {
    let s = try example("five.lua", size: (320, 240))
    var axes = try s.chartAxes("chart1", at: 0).axes
    XCTAssertEqual(Lint.fadedAtRest(name: "chart 'chart1'", axes: axes), [])
    XCTAssertFalse(axes.yLabels.isEmpty)
    axes.yLabels[0].alpha = 0.66
    axes.yLabels.append(DrawnLabel(text: "200", frame: axes.yLabels[0].frame.offsetBy(0, -21), alpha: 0.11))
    XCTAssertEqual(Lint.fadedAtRest(name: "chart 'chart1'", axes: axes), [
      "chart 'chart1': label '\(axes.yLabels[0].text)' is drawn at 66 % opacity at rest",
      "chart 'chart1': label '200' is drawn at 11 % opacity at rest",
    ])
  }

  /// Item 3's lint runs only at rest: while an axis moves, labels cross-fade (story.lua
  /// hides lines and zooms) and lint says nothing of their opacity.
  func testLintLetsLabelsFadeWhileTheyMove() throws {
    let s = try example("story.lua")
    let findings = try Lint(session: s).run().map(\.message)
    XCTAssertEqual(findings.filter { $0.contains("opacity at rest") }, [])
  }

  /// Item 11: at 320×240 `chart.lua`'s poster showed a date and "+ 2 more" and no value
  /// at all. With room for one row it shows the biggest value (the count left out is
  /// still reported as `left`).
  func testAOneRowPosterShowsAValue() throws {
    let s = try example("chart.lua", size: (320, 240))
    let doc = try s.inspect(at: 0)
    let json = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(doc.utf8)) as? [String: Any])
    let root = try XCTUnwrap(json["root"] as? [String: Any])
    let poster = try XCTUnwrap(root["poster"] as? [String: Any], "no poster at 320x240")
    let rows = try XCTUnwrap(poster["rows"] as? [[String]])
    XCTAssertEqual(rows.count, 1, "\(rows)")
    XCTAssertFalse(rows[0][1].isEmpty, "a row with no value: \(rows)")
    XCTAssertFalse(rows[0][0].hasPrefix("+ "), "\(rows)")
    XCTAssertEqual(poster["left"] as? Int, 1)
    XCTAssertEqual(ChartPoster.fitRows(values: [3, 9, 5], room: 1).shown, [1])
    XCTAssertEqual(ChartPoster.fitRows(values: [3, 9, 5], room: 2).shown, [1])
    XCTAssertEqual(ChartPoster.fitRows(values: [3, 9, 5], room: 3).shown, [0, 1, 2])
  }
}
