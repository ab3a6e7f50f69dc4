import Synchronization

/// Typed identity of what a scene keeps state about between ticks. Animation state (a
/// chart's axes and X labels, a template's counters, a zoom) is keyed by these values, never
/// by strings built from ids: ids are free-form (`a.right` is a fine id for a chart beside a
/// chart `a`, and names nothing of it), so no id can reach another node's state.
public struct NodeIdentity: Hashable, Sendable, CustomStringConvertible {
  /// A number no other node of this process has (nodes are numbered as they are made, so a
  /// node made after another is freed never inherits its state, as an address could).
  public let serial: Int
  static let counter = Atomic<Int>(0)
  /// A new identity (for a new node).
  public static func next() -> NodeIdentity { NodeIdentity(serial: counter.add(1, ordering: .relaxed).newValue) }
  public var description: String { "node#\(serial)" }
}

/// A chart as drawn: the node's own chart, or the full chart its sheet shows (a card's); and,
/// while a zoom cross-fades, which of its two layers (each drawn on the axis its own data
/// asks for, kept under no animation).
public struct ChartKey: Hashable, Sendable {
  public enum Role: Hashable, Sendable {
    /// The chart in the node's own frame.
    case own
    /// The full chart of the node's sheet (the sheet is keyed by its child).
    case sheet
  }
  public enum Layer: Hashable, Sendable {
    case whole
    /// The leaving overview and the arriving detail of a zoom's crossfade.
    case zoomOverview, zoomDetail
  }
  public var node: NodeIdentity
  public var role: Role
  public var layer: Layer
  public init(_ node: NodeIdentity, role: Role = .own, layer: Layer = .whole) {
    self.node = node
    self.role = role
    self.layer = layer
  }
  /// The same chart's layer of a zoom's crossfade.
  public func layer(_ l: Layer) -> ChartKey { ChartKey(node, role: role, layer: l) }
}

/// One Y axis of a chart: the left (every chart's) or a two-axis chart's right one.
public struct AxisKey: Hashable, Sendable {
  public enum Side: Hashable, Sendable { case left, right }
  public var chart: ChartKey
  public var side: Side
  public init(_ chart: ChartKey, _ side: Side = .left) {
    self.chart = chart
    self.side = side
  }
}

/// An animated number of the host's own (not a composition's state): how far a set's zoom
/// has got, and the counters of a text template (a text's, or a chart title's) per line.
public enum NumberKey: Hashable, Sendable {
  case zoom(set: ObjectIdentifier)
  case counter(NodeIdentity, line: Int)
}
