import Foundation
import XCTest

/// Issue 21 item 5 on the examples as people render them: every chart whose X labels are
/// dates (no year label among them) says the year beside one of them, also at 320×240,
/// where the last label of a card's narrow row has room for it only past the plot's side
/// (`ChartAxes.contextOverhang`; the cards had none before), and on a phone's crowded rows,
/// where it takes a neighbour's room.
final class YearContextCLITests: XCTestCase {
  func testTheExamplesSayTheYearAtSmallSizes() throws {
    var charts = 0
    for (script, size) in [("examples/cards.lua", "320x240"), ("examples/tabs.lua", "320x240"), ("examples/chart.lua", "360x640"), ("examples/cards.lua", "720x900"),
                           // Crowded rows: the context in a neighbour's room (`Sep 23 2018  Oct 21`), a thumbnail's label moved in (`Mar 2019`).
                           ("examples/zoom.lua", "360x640"), ("examples/zoom.lua", "320x240"), ("examples/grid.lua", "320x240")] {
      let r = try CLI.run([script, "--inspect", "--size", size])
      XCTAssertEqual(r.status, 0, r.stderr)
      let json = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
      func visit(_ n: Any) {
        if let d = n as? [String: Any] {
          if let labels = d["xLabels"] as? [[String: Any]], !labels.isEmpty {
            let texts = labels.filter { ($0["alpha"] as? Double ?? 0) > 0.5 }.compactMap { $0["text"] as? String }
            if !texts.contains(where: { $0.count == 4 && Int($0) != nil }) {
              charts += 1
              let context = (d["xContext"] as? [String: Any])?["text"] as? String
              XCTAssertTrue(context.map { $0.count == 4 && Int($0) != nil } ?? false, "\(script) at \(size): chart '\(d["id"] ?? "")' with labels \(texts) says \(context ?? "no year")")
            }
          }
          d.values.forEach(visit)
        } else if let a = n as? [Any] { a.forEach(visit) }
      }
      visit(json)
    }
    XCTAssertGreaterThan(charts, 8)
  }
}
