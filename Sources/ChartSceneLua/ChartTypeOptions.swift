import ChartModel
import LuaKit
import SceneGraph

/// The round-two keys of `cs.chart{}` and `cs.card{}`: `type`, `stacked`, `percentage`,
/// `yScaled`. Each overrides what the data says (ChartStyle).
enum ChartTypeOptions {
  static func read(_ o: LuaOptions) throws -> ChartStyle.Overrides {
    var r = ChartStyle.Overrides()
    r.type = try o.choice("type", SeriesKind.self)
    r.stacked = try o.bool("stacked")
    r.percentage = try o.bool("percentage")
    r.yScaled = try o.bool("yScaled")
    return r
  }

  /// A percentage chart shows shares of a whole: a negative value has no share, so the chart
  /// is refused with one line naming the line, the value and its time.
  static func checkShares(_ spec: ChartSpec) throws(LuaError) {
    guard spec.style.percentage, let (line, i) = Stacking.firstNegative(spec.data.lines) else { return }
    let title = spec.title.map { $0.isEmpty ? "" : " '\($0)'" } ?? ""
    let when = i < spec.data.xs.count ? ChartSet.dayText(spec.data.xs[i]) : "point \(i + 1)"
    throw LuaError("percentage chart\(title): line '\(line.name)' has negative values (\(CompactNumber.grouped(line.values[i])) at \(when)); shares need values of 0 or more")
  }
}
