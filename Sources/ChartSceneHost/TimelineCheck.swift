import LuaKit
import SceneGraph

/// Checks a scene's timeline when the scene loads (also for a still): every target names a
/// node or a chart part, with the nearest name suggested for a typo; an event after the
/// scene's end is a warning (it never happens).
enum TimelineCheck {
  /// The parts of a chart or card a target may name after the node's id (`deck.plot`).
  static let chartParts = ["title", "plot", "yGutter", "xAxis", "minimap", "minimap.window", "minimap.left", "minimap.right",
                            "poster", "zoomOut", "yAxis.right"]

  /// Every name a target may use in the scene.
  static func names(in scene: Scene) -> [String] {
    var out: [String] = []
    scene.root.walk { n in
      out.append(n.id)
      if let spec = n.chart {
        out += chartParts.map { n.id + "." + $0 }
        out += spec.data.lines.map { n.id + ".legend." + $0.id }
        // A line may also be named by its name (CSV and JSON lines are named after columns).
        out += spec.data.lines.filter { $0.name != $0.id && !$0.name.isEmpty }.map { n.id + ".legend." + $0.name }
      }
    }
    return out
  }

  /// Throws for the first event whose target names nothing; returns the warnings.
  static func check(_ scene: Scene, locate: (String) -> String) throws(HostError) -> [String] {
    var known: [String]? = nil
    var warnings: [String] = []
    for e in scene.timeline {
      let place = e.place.isEmpty ? "" : e.place + " "
      if case .id(let id)? = e.target {
        let all = known ?? names(in: scene)
        known = all
        if !all.contains(id) {
          var msg = "\(place)\(e.name): no node or part '\(id)'"
          if let near = LuaOptions.nearest(id, in: all) { msg += " (did you mean '\(near)'?)" }
          throw HostError(locate(msg))
        }
      }
      if scene.duration > 0 && e.at >= scene.duration {
        warnings.append(locate("\(place)\(e.name) at \(fmt(e.at)) s is not before the scene's end (duration \(fmt(scene.duration)) s): it never happens"))
      }
    }
    return warnings
  }

  static func fmt(_ d: Double) -> String { d == d.rounded() && abs(d) < 1e15 ? String(Int64(d)) : String(d) }
}
