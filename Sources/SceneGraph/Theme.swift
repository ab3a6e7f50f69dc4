import Drawing

/// Every colour and size a scene is drawn with. Built-in `day` and `night` follow the
/// contest's palette; a table in a script may override any field.
public struct Theme: Sendable, Equatable {
  public var name: String
  public var background: Color
  public var cardBackground: Color
  public var text: Color
  public var secondaryText: Color
  public var axisText: Color
  public var grid: Color
  public var zeroLine: Color
  public var minimapDim: Color
  public var minimapFrame: Color
  public var minimapGrip: Color
  public var indicatorLine: Color
  public var posterBackground: Color
  public var posterBorder: Color
  public var shadow: Color
  public var chipText: Color
  public var accent: Color
  public var modalDim: Color
  /// Behind lists, carousels and card stacks (iOS's grouped background).
  public var groupedBackground: Color

  public static let day = Theme(
    name: "day",
    background: hex("#FFFFFF"), cardBackground: hex("#FFFFFF"), text: hex("#222222"), secondaryText: hex("#6D6D72"),
    axisText: hex("#626E77"), grid: hex("#182D3B1A"), zeroLine: hex("#182D3B33"),
    minimapDim: hex("#E2EEF9A0"), minimapFrame: hex("#C0D1E1"), minimapGrip: hex("#FFFFFF"),
    indicatorLine: hex("#182D3B33"), posterBackground: hex("#FFFFFF"), posterBorder: hex("#182D3B1F"),
    shadow: hex("#0000001F"), chipText: hex("#FFFFFF"), accent: hex("#3497ED"), modalDim: hex("#00000066"),
    groupedBackground: hex("#EFEFF4"))

  public static let night = Theme(
    name: "night",
    background: hex("#242F3E"), cardBackground: hex("#242F3E"), text: hex("#FFFFFF"), secondaryText: hex("#A3B1C2"),
    axisText: hex("#8D9DAE"), grid: hex("#FFFFFF1A"), zeroLine: hex("#FFFFFF33"),
    minimapDim: hex("#304259A0"), minimapFrame: hex("#56626D"), minimapGrip: hex("#FFFFFF"),
    indicatorLine: hex("#FFFFFF33"), posterBackground: hex("#1C2533"), posterBorder: hex("#FFFFFF1F"),
    shadow: hex("#00000059"), chipText: hex("#FFFFFF"), accent: hex("#5AA0F2"), modalDim: hex("#00000099"),
    groupedBackground: hex("#1A222C"))

  public static let builtIn: [String: Theme] = ["day": day, "night": night]

  /// Theme colour names usable wherever a colour is expected (`"text"`, `"grid"`, ...).
  nonisolated(unsafe) public static let colorKeys: [(String, WritableKeyPath<Theme, Color>)] = [
    ("background", \.background), ("cardBackground", \.cardBackground), ("text", \.text),
    ("secondaryText", \.secondaryText), ("axisText", \.axisText), ("grid", \.grid), ("zeroLine", \.zeroLine),
    ("minimapDim", \.minimapDim), ("minimapFrame", \.minimapFrame), ("minimapGrip", \.minimapGrip),
    ("indicatorLine", \.indicatorLine), ("posterBackground", \.posterBackground), ("posterBorder", \.posterBorder),
    ("shadow", \.shadow), ("chipText", \.chipText), ("accent", \.accent), ("modalDim", \.modalDim),
    ("groupedBackground", \.groupedBackground),
  ]

  public func color(named name: String) -> Color? {
    Theme.colorKeys.first { $0.0 == name }.map { self[keyPath: $0.1] }
  }

  private static func hex(_ s: String) -> Color { Color(hex: s) ?? .black }
}

/// A colour given in a script: a literal or a theme name resolved at draw time.
public enum ColorRef: Sendable, Equatable {
  case literal(Color)
  case theme(String)

  /// Parses `#RRGGBB`, `#RRGGBBAA` or a theme colour name; nil when it is neither.
  public init?(_ s: String) {
    if let c = Color(hex: s) { self = .literal(c); return }
    guard Theme.day.color(named: s) != nil else { return nil }
    self = .theme(s)
  }

  public func resolve(_ theme: Theme) -> Color {
    switch self {
    case .literal(let c): c
    case .theme(let n): theme.color(named: n) ?? theme.text
    }
  }
}
