import ChartModel
import Drawing

/// The `--inspect` keys of round-two charts (after `indicator`): `type`, `stacked`,
/// `percentage`, `yScaled`, `zoom`, `yRanges`, `pie`; and the parts `poster`, `zoomOut`,
/// `yAxis.right` (after the others).
extension Inspector {
  func roundTwo(_ spec: ChartSpec, parts: ChartParts, snap: ChartSnapshot, frame: Rect) -> [(String, OrderedJSON)] {
    let style = snap.style
    var f: [(String, OrderedJSON)] = [
      ("type", .string(style.type.rawValue)),
      ("stacked", .bool(style.stacked)),
      ("percentage", .bool(style.percentage)),
      ("yScaled", .bool(style.yScaled)),
      ("zoom", spec.base.zoom.map { .string($0.day) } ?? .null),
    ]
    if let right = snap.rightRange {
      f.append(("yRanges", .object([
        ("left", .array([.number(snap.yRange.min), .number(snap.yRange.max)])),
        ("right", .array([.number(right.min), .number(right.max)])),
      ])))
    } else {
      f.append(("yRanges", .null))
    }
    if let z = spec.base.zoom, z.isPie {
      let pie = PieLayout.make(set: spec.base, index: z.index, plot: parts.plot, alpha: snap.alpha)
      f.append(("pie", .object(pie.slices.map { ($0.id, .number($0.share)) })))
      // The share labels as drawn: inside a slice, or outside with a leader line.
      let progress = presentation?.zoomProgress(spec.base, at: time) ?? 1
      let labels = pie.drawnLabels(progress: progress, selected: z.selectedSlice, plot: parts.plot, measurer: measurer)
      f.append(("pieLabels", .array(labels.map { l in
        .object([("id", .string(l.id)), ("text", .string(l.text)), ("size", .number(l.font.size)), ("frame", rect(l.frame)), ("outside", .bool(l.outside))])
      })))
    } else {
      f.append(("pie", .null))
    }
    return f
  }

  func roundTwoParts(_ spec: ChartSpec, parts: ChartParts, snap: ChartSnapshot, frame: Rect) -> [(String, Rect)] {
    ChartParts.extraParts(spec: spec, parts: parts, snap: snap, frame: frame, measurer: measurer, zoomed: spec.base.zoom != nil)
  }
}
