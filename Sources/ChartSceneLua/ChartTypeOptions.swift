import ChartModel
import LuaKit

/// The round-two keys of `cs.chart{}` and `cs.card{}`: `type`, `stacked`, `percentage`,
/// `yScaled`. Each overrides what the data says (ChartStyle).
enum ChartTypeOptions {
  static let keys = ["type", "stacked", "percentage", "yScaled"]

  static func read(_ o: LuaOptions) throws -> ChartStyle.Overrides {
    var r = ChartStyle.Overrides()
    r.type = try o.choice("type", SeriesKind.self)
    r.stacked = try o.bool("stacked")
    r.percentage = try o.bool("percentage")
    r.yScaled = try o.bool("yScaled")
    return r
  }
}
