import ChartModel
import Drawing

/// The `--inspect` keys of round-two charts (after `indicator`): `type`, `stacked`,
/// `percentage`, `yScaled`, `zoom`, `yRanges`, `pie`; and the parts `poster`, `zoomOut`,
/// `yAxis.right` (after the others).
extension Inspector {
  func roundTwo(_ spec: ChartSpec, parts: ChartParts, snap: ChartSnapshot, frame: Rect, key: String) -> [(String, OrderedJSON)] {
    let style = snap.style
    var f: [(String, OrderedJSON)] = [
      ("type", .string(style.type.rawValue)),
      ("stacked", .bool(style.stacked)),
      ("percentage", .bool(style.percentage)),
      ("yScaled", .bool(style.yScaled)),
      ("zoom", .null),
    ]
    if let right = snap.rightRange {
      f.append(("yRanges", .object([
        ("left", .array([.number(snap.yRange.min), .number(snap.yRange.max)])),
        ("right", .array([.number(right.min), .number(right.max)])),
      ])))
    } else {
      f.append(("yRanges", .null))
    }
    f.append(("pie", .null))
    return f
  }

  func roundTwoParts(_ spec: ChartSpec, parts: ChartParts, snap: ChartSnapshot, frame: Rect, key: String) -> [(String, Rect)] {
    ChartParts.extraParts(spec: spec, parts: parts, snap: snap, frame: frame, measurer: measurer, zoomed: false)
  }
}
