import ChartModel
import Drawing

/// What a chart view shows (`cs.chart{}` and `cs.card{}`).
public struct ChartSpec {
  /// The set the view was given.
  public var base: ChartSet
  /// The set drawn: the base, or the detail of the day it is zoomed into.
  public var data: ChartSet { showsBase ? base : (base.zoom?.detail ?? base) }
  /// Draws the base set even while zoomed (the overview fading out).
  public var showsBase = false
  public var title: String?
  /// What the chart shows, for readers who do not see it (`description`; nil: made from
  /// the data, `SceneDescription`).
  public var description: String?
  public var minimap = true
  public var legend = true
  public var indicator = true
  public var xAxis = true
  public var yAxis = true
  public var lineWidth = 2.0
  /// Y labels as the script asked for them (nil: the default for the chart's type, `yLabels`).
  public var yLabelsAsked: YLabelPlacement?
  /// Where the indicator stands, as a fraction of the whole time axis; nil = not shown.
  public var indicatorAt: Double?
  /// Type, stacking, percentages and two axes asked for by the view (round 2; see ChartStyle).
  public var overrides = ChartStyle.Overrides()
  /// How dates and numbers are written: the scene's locale and time zone (Scene.format).
  public var format = DisplayFormat.standard
  /// Marks pinned to the data (Annotations.swift).
  public var annotations: [Annotation] = []
  /// A title with fields that follow time (TextTemplate.swift); `title` holds its text now.
  public var titleTemplate: TextTemplate?
  public init(data: ChartSet) { self.base = data }
  /// The full ChartView, as a modal sheet shows a card: with mini-map, check marks and indicator.
  public var full: ChartSpec {
    var s = self
    s.minimap = true; s.legend = true; s.indicator = true
    return s
  }
}

/// `cs.vstack`, `cs.hstack`, `cs.zstack`.
public enum StackAxis: String, Sendable { case vertical, horizontal, depth }

/// Alignment across a stack's axis.
public enum Alignment: String, Sendable, CaseIterable { case leading, center, trailing, top, bottom }

/// `cs.text{}`.
public struct TextSpec {
  public var text: String
  /// A text with fields that follow time, read from `source` (TextTemplate.swift); `text`
  /// holds its text now.
  public var template: TextTemplate?
  public var source: ChartSet?
  public var size: Double = 15
  public var weight: Font.Weight = .regular
  public var color: ColorRef = .theme("text")
  public var align: TextAlign = .left
  public init(text: String) { self.text = text }
}

/// `cs.canvas{}`: a script function that records drawing commands for a w×h area at time t.
public struct CanvasSpec {
  public var draw: (_ width: Double, _ height: Double, _ t: Double, _ theme: Theme) throws -> [DisplayItem]
  public init(draw: @escaping (Double, Double, Double, Theme) throws -> [DisplayItem]) { self.draw = draw }
}

/// A 3D turn of a view.
public struct Rotation3D: Sendable, Equatable {
  public var angle: Double
  public var axis: (Double, Double, Double)
  public var perspective: Double
  public init(angle: Double, axis: (Double, Double, Double) = (0, 1, 0), perspective: Double = 1000) {
    self.angle = angle; self.axis = axis; self.perspective = perspective
  }
  public static func == (a: Rotation3D, b: Rotation3D) -> Bool {
    a.angle == b.angle && a.axis == b.axis && a.perspective == b.perspective
  }
}

/// Edge insets in scene pixels.
public struct Insets: Sendable, Equatable {
  public var top: Double, left: Double, bottom: Double, right: Double
  public init(top: Double, left: Double, bottom: Double, right: Double) {
    self.top = top; self.left = left; self.bottom = bottom; self.right = right
  }
  public init(all v: Double) { self.init(top: v, left: v, bottom: v, right: v) }
  public static let zero = Insets(all: 0)
}

/// The modifiers every view takes.
public struct Style {
  public var padding: Insets = .zero
  public var background: ColorRef?
  public var cornerRadius: Double = 0
  public var opacity: Double = 1
  public var offset: Point = .zero
  public var scale: Double = 1
  public var rotation3d: Rotation3D?
  public var width: Double?
  public var height: Double?
  /// How it enters and leaves a `cs.view` inside `cs.animate` (nil: fading, `.opacity`).
  public var transition: ViewTransition?
  public init() {}
}

/// One view in the scene tree.
public final class Node {
  public enum Kind {
    case chart(ChartSpec)
    case card(ChartSpec)
    case stack(StackAxis, spacing: Double, align: Alignment)
    case spacer(minLength: Double)
    case text(TextSpec)
    case canvas(CanvasSpec)
    case view(ViewSpec)

    /// The name shown as `kind` in `--inspect`.
    public var name: String {
      switch self {
      case .chart: "chart"
      case .card: "card"
      case .stack(.vertical, _, _): "vstack"
      case .stack(.horizontal, _, _): "hstack"
      case .stack(.depth, _, _): "zstack"
      case .spacer: "spacer"
      case .text: "text"
      case .canvas: "canvas"
      case .view(let v): v.name
      }
    }
  }

  /// The id the script gave, or one generated from the node's place in the tree.
  public var id: String
  /// What the host keys this node's state by (its axes, labels, counters, its sheet):
  /// never its id, which is free-form and names nothing else (Identity.swift).
  public let identity = NodeIdentity.next()
  public let explicitID: Bool
  public var kind: Kind
  public var style: Style
  public var children: [Node]
  /// The option keys the script set itself (a preset fills in the others).
  public var explicitKeys: Set<String> = []
  /// A preset given on this view (`preset = "name"`), applied to its subtree.
  public var preset: Preset?
  /// The script's gesture handlers (`on = { tap =, longpress =, drag = }`).
  public var handlers: GestureHandlers?
  /// The frame in scene pixels, set by layout (before offset, scale and 3D effects).
  public internal(set) var frame: Rect = .zero
  /// How the parent composition draws this node (set by layout).
  public internal(set) var placement: Placement = .normal
  /// The content frame (frame minus padding).
  public var contentFrame: Rect {
    frame.inset(top: style.padding.top, left: style.padding.left, bottom: style.padding.bottom, right: style.padding.right)
  }

  public init(id: String?, kind: Kind, style: Style = Style(), children: [Node] = []) {
    self.id = id ?? ""
    self.explicitID = id != nil
    self.kind = kind
    self.style = style
    self.children = children
    self.levels = 1 + (children.map(\.levels).max() ?? 0)
    self.views = children.reduce(1) { $0 + $1.views }
  }

  /// Views in this subtree, this one included, as built.
  public let views: Int
  /// How many views one scene may hold. Layout, hit testing and rendering visit every view
  /// in every frame; a real scene needs a few hundred.
  public static let maxViews = 10_000

  /// Levels of views from this node down (1 for a leaf), as built.
  public let levels: Int
  /// How deep views may nest. Layout, rendering and inspection recurse once per level; a
  /// real scene needs a dozen.
  public static let maxLevels = 100

  /// The chart spec of a chart or card.
  public var chart: ChartSpec? {
    switch kind {
    case .chart(let s), .card(let s): s
    default: nil
    }
  }

  /// Depth-first walk.
  public func walk(_ visit: (Node) throws -> Void) rethrows {
    try visit(self)
    for c in children { try c.walk(visit) }
  }
}

/// Errors in building a scene (duplicate ids, impossible sizes).
public struct SceneError: Error, Sendable, CustomStringConvertible {
  public var message: String
  public init(_ message: String) { self.message = message }
  public var description: String { message }
}

/// A complete scene: what `cs.scene{}` returns.
public final class Scene {
  public var width: Double
  public var height: Double
  public var theme: Theme
  public var background: ColorRef?
  public var fps: Double
  public var duration: Double
  public var root: Node
  /// What is drawn at a time (animations towards the model's state).
  public var presentation = Presentation()
  /// Scripted gestures and calls, in any order (run by time).
  public var timeline: [TimelineEvent] = []
  /// Called every tick with (t, dt).
  public var update: ((Double, Double) throws -> Void)?
  /// The locale and time zone asked for (`locale`, `timezone`: the script, else its preset;
  /// `--locale`/`--timezone` replace them), resolved into `format` by the host.
  public var localeName: String?
  public var timezoneName: String?
  /// How every chart writes dates and numbers; setting it sets it on every chart.
  public var format = DisplayFormat.standard {
    didSet {
      let f = format
      root.walk { n in
        switch n.kind {
        case .chart(var spec): spec.format = f; n.kind = .chart(spec)
        case .card(var spec): spec.format = f; n.kind = .card(spec)
        default: break
        }
      }
    }
  }
  /// Sound clips and captions (Narration.swift).
  public var narration = Narration()
  /// Font files (resolved paths) put in front of the bundled fonts, and the family every
  /// text is set in (nil: Inter): `fonts` and `font` of the scene or its preset.
  public var fonts: [String] = []
  public var font: String?
  /// The document's title and description for readers who do not see the picture (`title`,
  /// `description`; nil: from the charts, `SceneDescription`).
  public var title: String?
  public var description: String?

  public init(width: Double, height: Double, theme: Theme, background: ColorRef? = nil, fps: Double = 60, duration: Double = 0, root: Node) {
    self.width = width; self.height = height; self.theme = theme; self.background = background
    self.fps = fps; self.duration = duration; self.root = root
  }

  /// Largest side accepted, in scene pixels (times the scale, in device pixels).
  public static let maximumSide = 16384.0

  /// Gives every node without an id one derived from its path (`chart@0/1`) and checks
  /// that ids are unique.
  public func assignIDs() throws(SceneError) {
    var seen: [String: String] = [:]
    func visit(_ n: Node, _ path: String) throws(SceneError) {
      if !n.explicitID { n.id = "\(n.kind.name)@\(path.isEmpty ? "root" : path)" }
      if let other = seen[n.id] { throw SceneError("duplicate id '\(n.id)' (ids must be unique; first used by a \(other))") }
      seen[n.id] = n.kind.name
      for (k, c) in n.children.enumerated() { try visit(c, path.isEmpty ? "\(k)" : "\(path)/\(k)") }
    }
    try visit(root, "")
  }

  public func node(id: String) -> Node? {
    var found: Node?
    root.walk { if found == nil && $0.id == id { found = $0 } }
    return found
  }
}
