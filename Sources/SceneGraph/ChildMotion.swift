import Drawing
import Motion

/// The numbers of a child's layout record that move by identity: its frame, offset, scale,
/// opacity, 3D turn and z (a hidden child counts as transparent).
public struct ChildValues: Sendable, Equatable {
  public var x = 0.0, y = 0.0, width = 0.0, height = 0.0
  public var dx = 0.0, dy = 0.0
  public var scale = 0.0, opacity = 0.0, turn = 0.0, z = 0.0
  public init() {}

  /// A record's values; a record without a frame fills the content (`content`).
  public init(_ c: ChildLayout, content: Size) {
    let f = c.frame ?? Rect(0, 0, content.width, content.height)
    x = f.x; y = f.y; width = f.width; height = f.height
    dx = c.offset.x; dy = c.offset.y
    scale = c.scale; opacity = c.hidden ? 0 : c.opacity; turn = c.turn; z = c.z
  }

  public static func - (a: ChildValues, b: ChildValues) -> ChildValues {
    var d = ChildValues()
    d.x = a.x - b.x; d.y = a.y - b.y; d.width = a.width - b.width; d.height = a.height - b.height
    d.dx = a.dx - b.dx; d.dy = a.dy - b.dy
    d.scale = a.scale - b.scale; d.opacity = a.opacity - b.opacity; d.turn = a.turn - b.turn; d.z = a.z - b.z
    return d
  }

  var isZero: Bool { self == ChildValues() }
}

/// One `cs.animate` block's motion of a composition's children, SwiftUI's way: the layout
/// ran once for the new state, and each child (by identity) is drawn at its new place plus
/// what separated its old one from it (`delta`), times what is left of the motion (1 → 0
/// along the curve, at the speed the block asked for). Blocks add up, so a motion that
/// interrupts another starts from what is shown, at the speed shown.
public struct ChildMotion {
  /// What is left of the motion: 1 at its start, 0 when settled (a spring passes 0).
  public var remaining: Animated<Double>
  /// Old minus new values, per child.
  public var delta: [ObjectIdentifier: ChildValues]
  /// When it settles.
  public var end: Double

  public init(delta: [ObjectIdentifier: ChildValues], at t: Double, _ transition: Transition, rate: Double?) {
    var r = Animated(1.0)
    r.set(0, at: t, transition, velocity: rate.map { -$0 })
    remaining = r
    self.delta = delta
    end = t + transition.delay + transition.duration
  }
}

extension ViewLayout {
  /// Starts a motion of the children from the layout they had (`before`, the model's, by
  /// child) to the one the state gives now, at t; nothing when nothing changed.
  /// `entering`: children added by the change, which come from their transition's values.
  public func animate(from before: [ObjectIdentifier: ChildValues], to after: [ObjectIdentifier: ChildValues], entering: [ObjectIdentifier: ViewTransition] = [:],
                      content: Size, at t: Double, _ transition: Transition, rate: Double?) -> Double? {
    var delta: [ObjectIdentifier: ChildValues] = [:]
    for (id, tr) in entering {
      guard let new = after[id], new.opacity > 0 else { continue }
      let d = tr.away(new, content: content) - new
      if !d.isZero { delta[id] = d }
    }
    for (id, old) in before {
      guard entering[id] == nil, let new = after[id] else { continue }
      var d = old - new
      if old.opacity == 0 && new.opacity > 0 {
        // A child that was not drawn fades in where it is now (it had no place before).
        d = ChildValues()
        d.opacity = -new.opacity
      } else if new.opacity == 0 && old.opacity > 0 {
        continue  // hidden now: gone at once
      }
      if !d.isZero { delta[id] = d }
    }
    guard !delta.isEmpty else { return nil }
    let m = ChildMotion(delta: delta, at: t, transition, rate: rate)
    motions.append(m)
    return m.end
  }

  /// The values of a layout's records, by child.
  public static func values(_ records: [ChildLayout], _ ids: [ObjectIdentifier], content: Size) -> [ObjectIdentifier: ChildValues] {
    var out: [ObjectIdentifier: ChildValues] = [:]
    for (k, id) in ids.enumerated() { out[id] = ChildValues(k < records.count ? records[k] : ChildLayout(), content: content) }
    return out
  }

  /// The records as drawn at t: the layout's, plus what is left of every motion.
  func presented(_ records: [ChildLayout], _ ids: [ObjectIdentifier], content: Size, t: Double) -> [ChildLayout] {
    motions.removeAll { t >= $0.end }
    guard !motions.isEmpty else { return records }
    var out = records
    while out.count < ids.count { out.append(ChildLayout()) }
    for m in motions {
      let k = m.remaining.value(at: t)
      guard k != 0 else { continue }
      for (i, id) in ids.enumerated() {
        guard let d = m.delta[id] else { continue }
        var c = out[i]
        let f = c.frame ?? Rect(0, 0, content.width, content.height)
        c.frame = Rect(f.x + d.x * k, f.y + d.y * k, max(0, f.width + d.width * k), max(0, f.height + d.height * k))
        c.offset = Point(c.offset.x + d.dx * k, c.offset.y + d.dy * k)
        c.scale = max(0, c.scale + d.scale * k)
        c.opacity = max(0, min(1, c.opacity + d.opacity * k))
        c.turn = max(-80, min(80, c.turn + d.turn * k))
        c.z += d.z * k
        out[i] = c
      }
    }
    return out
  }
}

/// How a child of a `cs.view` enters (`self:add`) and leaves (`self:remove`) inside
/// `cs.animate` (SwiftUI's `.transition`): the values it comes from and goes to.
public enum ViewTransition: Sendable, Equatable {
  case opacity, scale
  case edge(Edge)
  public enum Edge: String, Sendable, CaseIterable { case left, right, top, bottom }

  /// A child's values moved out by the transition, in a content area of `content`.
  public func away(_ v: ChildValues, content: Size) -> ChildValues {
    var a = v
    switch self {
    case .opacity: a.opacity = 0
    case .scale: a.scale = 0
    case .edge(.left): a.dx = -(v.x + v.width)
    case .edge(.right): a.dx = content.width - v.x
    case .edge(.top): a.dy = -(v.y + v.height)
    case .edge(.bottom): a.dy = content.height - v.y
    }
    return a
  }
}

/// A child removed inside `cs.animate`: drawn where it was, leaving with its transition,
/// until the motion ends (then it is gone from the tree).
public struct LeavingChild {
  public var node: ObjectIdentifier
  /// Its record when it was removed (the model's).
  public var record: ChildLayout
  /// Where the transition takes its values (away minus where it was).
  public var delta: ChildValues
  public var remaining: Animated<Double>
  public var end: Double
  public init(node: ObjectIdentifier, record: ChildLayout, delta: ChildValues, at t: Double, _ transition: Transition) {
    self.node = node; self.record = record; self.delta = delta
    var r = Animated(1.0)
    r.set(0, at: t, transition)
    remaining = r
    end = t + transition.delay + transition.duration
  }

  /// Its record at t (before the motions still running add to it).
  func record(at t: Double, content: Size) -> ChildLayout {
    let k = 1 - remaining.value(at: t)
    var c = record
    let f = c.frame ?? Rect(0, 0, content.width, content.height)
    let d = delta
    c.frame = Rect(f.x + d.x * k, f.y + d.y * k, max(0, f.width + d.width * k), max(0, f.height + d.height * k))
    c.offset = Point(c.offset.x + d.dx * k, c.offset.y + d.dy * k)
    c.scale = max(0, c.scale + d.scale * k)
    c.opacity = max(0, min(1, c.opacity + d.opacity * k))
    c.hidden = c.hidden || t >= end
    return c
  }
}
