import Drawing

/// `cs.list{}`: a vertical scrolling list of its children, clipped to its frame.
public struct ListSpec: Sendable {
  public var spacing = 12.0
  /// Height of a row that does not set its own `frame.height` (nil: from the list's width).
  public var rowHeight: Double?
  /// Scroll offset in scene pixels, clamped to the content by layout.
  public var scroll = 0.0
  public init() {}
}

/// `cs.carousel{}`: a horizontal strip of items, each turned about the vertical axis by its
/// distance from the centre (the article's HStack with a 3D effect).
public struct CarouselSpec: Sendable {
  public var spacing = 16.0
  /// Width of an item (nil: three quarters of the carousel's width).
  public var itemWidth: Double?
  /// Degrees of turn for an item one place away from the centre.
  public var angle = 30.0
  /// Scroll offset in scene pixels: 0 centres the first item.
  public var scroll = 0.0
  public init() {}
}

/// `cs.cards{}`: overlaid cards, each deeper card smaller and shifted up.
public struct CardsSpec: Sendable {
  public var scaleStep = 0.06
  public var offsetStep = 40.0
  /// Ids front to back (nil: the children's order).
  public var order: [String]?
  /// The id of the card shown full-size in a modal sheet, or nil.
  public var modal: String?
  public init() {}
}

/// `cs.tabs{}`: a tab bar and the selected tab's view.
public struct TabsSpec: Sendable {
  public enum Icon: String, Sendable, CaseIterable { case list, carousel, cards, chart }
  public var titles: [String]
  public var icons: [Icon?]
  /// Index of the selected tab (0-based).
  public var selected = 0
  public init(titles: [String], icons: [Icon?]) { self.titles = titles; self.icons = icons }
}

/// What layout decides about how a child is drawn inside a composition (a carousel item's
/// turn, a deeper card's scale): applied on top of the child's own style.
public struct Placement: Sendable, Equatable {
  /// Degrees about the vertical axis.
  public var turn = 0.0
  public var opacity = 1.0
  public var scale = 1.0
  public var offset = Point.zero
  /// Place in a stack of cards (0 = front; fractional while moving).
  public var depth = 0.0
  /// Drawn at all (a list row out of view, a card deep in the stack, an unselected tab).
  public var visible = true
  /// A card that has just passed behind the front card: how much of it is still drawn over
  /// that card (1 → 0 as it goes deeper), so it dissolves behind it instead of swapping
  /// places in one frame.
  public var passing = 0.0
  public init() {}
  public static let normal = Placement()
}

/// Metrics of the compositions' chrome.
public enum CompositionMetrics {
  public static let tabBarHeight = 56.0
  public static let tabFont = Font(size: 11, weight: .semibold)
  /// Cards deeper than this are not drawn (hidden behind the ones in front).
  public static let visibleCards = 4
  /// The least height of the front card of a `cs.cards` (a title, a plot and its axis).
  public static let minimumCardHeight = 120.0
  /// Inset of the modal sheet from the scene's edges.
  public static let modalInsets = Insets(top: 56, left: 12, bottom: 24, right: 12)
}
