/// How a path is painted.
public enum Paint: Sendable, Equatable {
  case fill(Color)
  case stroke(Color, width: Double, cap: LineCap = .round, join: LineJoin = .round, dash: [Double] = [])
}

public enum LineCap: String, Sendable, Equatable { case butt, round, square }
public enum LineJoin: String, Sendable, Equatable { case miter, round, bevel }

/// A font request; resolved by the painter's text system.
public struct Font: Sendable, Hashable {
  public enum Weight: String, Sendable, Hashable, CaseIterable { case regular, medium, semibold, bold }
  public var size: Double
  public var weight: Weight
  public init(size: Double, weight: Weight = .regular) { self.size = size; self.weight = weight }
}

/// Horizontal placement of a text run relative to its anchor x.
public enum TextAlign: String, Sendable, Equatable, CaseIterable { case left, center, right }

/// One line of text, placed with its top-left (after alignment) at `origin`.
public struct TextRun: Sendable, Equatable {
  public var text: String
  public var font: Font
  public var color: Color
  /// The anchor: x is aligned according to `align`; y is the top of the line box.
  public var origin: Point
  public var align: TextAlign
  /// A soft outline in this colour under the glyphs, so labels stay legible over lines.
  public var halo: Color?
  /// A chart's axis label: `chartscene lint` checks its contrast against what is under it.
  public var isLabel: Bool
  public init(_ text: String, font: Font, color: Color, origin: Point, align: TextAlign = .left, halo: Color? = nil, isLabel: Bool = false) {
    self.text = text; self.font = font; self.color = color; self.origin = origin; self.align = align; self.halo = halo; self.isLabel = isLabel
  }
}

/// One entry of a display list. Push/pop entries nest.
public enum DisplayItem: Sendable, Equatable {
  case path(Path, Paint)
  case text(TextRun)
  /// Clip everything until the matching `.popClip` to this path.
  case pushClip(Path)
  case popClip
  case pushTransform(Affine)
  case popTransform
  /// Composite everything until the matching `.popGroup` with this opacity.
  case pushGroup(opacity: Double)
  case popGroup
  /// A soft drop shadow under a rounded rectangle.
  case shadow(Rect, radius: Double, blur: Double, color: Color)
  /// Items drawn flat into `bounds`, then turned in 3D with true perspective.
  case layer(Layer3D)
  /// Items whose pixels a raster painter may keep and reuse while `key` is the same (for
  /// parts that do not change between frames, like a mini-map's lines). `bounds` holds them.
  case cached(key: String, bounds: Rect, items: [DisplayItem])
  /// A picture scaled to fit the rectangle (its proportions kept, centred), times `opacity`.
  case image(ImageRef, Rect, opacity: Double)
}

/// A group of items turned about an axis through the centre of `bounds`.
public struct Layer3D: Sendable, Equatable {
  public enum Axis: String, Sendable { case vertical, horizontal }
  public var items: [DisplayItem]
  public var bounds: Rect
  /// Degrees; positive turns the right (or bottom) edge away from the viewer.
  public var angle: Double
  public var axis: Axis
  /// Distance of the eye from the layer, in scene pixels.
  public var perspective: Double
  public init(items: [DisplayItem], bounds: Rect, angle: Double, axis: Axis = .vertical, perspective: Double = 1000) {
    self.items = items; self.bounds = bounds; self.angle = angle; self.axis = axis; self.perspective = perspective
  }
}

/// The plain-value output of a frame: what a painter draws. `Sendable`, so frames can be
/// painted and encoded on worker threads.
public struct DisplayList: Sendable, Equatable {
  public var size: Size
  public var background: Color
  public var items: [DisplayItem]
  public init(size: Size, background: Color, items: [DisplayItem] = []) {
    self.size = size; self.background = background; self.items = items
  }
}

/// Measures text for layout. Implemented with Pango for real output and with a fixed-width
/// stand-in in tests that need no fonts.
public protocol TextMeasurer: AnyObject {
  /// Width and line height of `text` set in `font`, in scene pixels.
  func measure(_ text: String, font: Font) -> Size
}

/// A measurer that gives every character the same width: for layout tests without fonts.
public final class FixedWidthTextMeasurer: TextMeasurer {
  public init() {}
  public func measure(_ text: String, font: Font) -> Size {
    Size(Double(text.count) * font.size * 0.6, (font.size * 1.25).rounded(.up))
  }
}
