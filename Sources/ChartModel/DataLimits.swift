/// The numbers a data set may hold. Inside these bounds every difference and sum the views
/// compute (spans, ranges, axis steps, pixel positions) stays finite, and every time has a
/// calendar date.
public enum DataLimits {
  /// Times are UNIX milliseconds within ±100,000,000 days of 1970 (JavaScript's date range,
  /// years -271821 to 275760).
  public static let maxTimeMs = 8.64e15
  /// Values are at most 1e300 in magnitude.
  public static let maxValue = 1e300

  public static func isTime(_ t: Double) -> Bool { t.isFinite && abs(t) <= maxTimeMs }
  public static func isValue(_ v: Double) -> Bool { v.isFinite && abs(v) <= maxValue }

  static func format(_ d: Double) -> String { d == d.rounded() && abs(d) < 1e17 ? String(Int64(d)) : String(d) }
  static let timeRange = "UNIX milliseconds within ±8640000000000000"
  static let valueRange = "at most 1e300 in magnitude"
}
