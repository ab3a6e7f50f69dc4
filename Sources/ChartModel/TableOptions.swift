import Drawing

/// A column named by its header text or by its 1-based position.
public enum ColumnRef: Sendable, Equatable, CustomStringConvertible {
  case name(String)
  case index(Int)
  public var description: String {
    switch self {
    case .name(let s): "'\(s)'"
    case .index(let i): "\(i)"
    }
  }
}

/// How a table (CSV, JSON records) becomes a chart set. Every field is optional; see
/// `cs.data.csv` in docs/lua-api.md.
public struct TableOptions: Sendable {
  /// The set's title (default: the file name without its extension).
  public var name: String?
  /// The time column (default: the first column whose values read as times).
  public var x: ColumnRef?
  /// A strftime-style pattern for the time column (default: found from the values).
  public var timeFormat: TimePattern?
  /// The value columns that become lines (default: every column of numbers).
  public var columns: [ColumnRef]?
  /// Long data: the column whose values name the lines, and the column of numbers.
  public var series: ColumnRef?
  public var value: ColumnRef?
  /// Cell texts that mean "no value".
  public var missing: [String] = TableOptions.defaultMissing
  /// The cell separator; nil: found from the header line.
  public var delimiter: UInt8?
  /// Rows are sorted by time (stable); false: times must increase.
  public var sort = true
  /// A row missing from regularly stepped data (a day absent from daily data) is a gap in
  /// the lines; false: the lines bridge it, as before.
  public var gaps = true
  /// Line names in order, or by column header / series value.
  public var names: [String] = []
  public var namesByKey: [String: String] = [:]
  /// Line colours in order (the palette continues after them), or by name.
  public var colors: [Color] = []
  public var colorsByKey: [String: Color] = [:]
  /// Bytes the decoded columns may take (nil: no limit), and how the limit is named.
  public var memoryBudget: Int?
  public var memoryBudgetName = "the memory limit"

  public static let defaultMissing = ["", "NA", "N/A", "NaN", "nan", "null", "NULL", "-"]

  public init(name: String? = nil, delimiter: UInt8? = nil, colors: [Color] = []) {
    self.name = name; self.delimiter = delimiter; self.colors = colors
  }
}

/// What a decoded table also reports: notes for standard error (text columns skipped).
public struct TableResult {
  public var set: ChartSet
  public var notes: [String]
}
