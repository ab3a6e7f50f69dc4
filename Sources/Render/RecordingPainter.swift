import Drawing

/// A text dump of a display list, for tests: one line per item, numbers rounded to 0.1 px.
/// (`RenderCairo/CairoPainter` draws display lists as pixels, SVG and PDF.)
public struct RecordingPainter {
  public init() {}

  public func dump(_ list: DisplayList) -> String {
    var out = "size \(f(list.size.width))x\(f(list.size.height)) background \(list.background.hexString)\n"
    var depth = 0
    for item in list.items {
      if case .popClip = item { depth -= 1 } else if case .popTransform = item { depth -= 1 } else if case .popGroup = item { depth -= 1 }
      out += String(repeating: "  ", count: max(0, depth)) + describe(item) + "\n"
      switch item {
      case .pushClip, .pushTransform, .pushGroup: depth += 1
      default: break
      }
    }
    return out
  }

  func describe(_ item: DisplayItem) -> String {
    switch item {
    case .path(let p, let paint):
      let what: String
      switch paint {
      case .fill(let c): what = "fill \(c.hexString)"
      case .stroke(let c, let w, _, _, _): what = "stroke \(c.hexString) \(f(w))"
      }
      return "path \(what) \(path(p))"
    case .text(let r): return "text \"\(r.text)\" \(r.font.size)/\(r.font.weight.rawValue) \(r.color.hexString) at \(f(r.origin.x)),\(f(r.origin.y)) \(r.align.rawValue)"
    case .image(let i, let r, let o): return "image \(i.pixels.width)x\(i.pixels.height) \(rect(r)) opacity \(f(o))"
    case .pushClip(let p): return "clip \(path(p))"
    case .popClip: return "end clip"
    case .pushTransform(let a): return "transform \(f(a.a)) \(f(a.b)) \(f(a.c)) \(f(a.d)) \(f(a.tx)) \(f(a.ty))"
    case .popTransform: return "end transform"
    case .pushGroup(let o): return "group opacity \(f(o))"
    case .popGroup: return "end group"
    case .shadow(let r, let radius, let blur, let c): return "shadow \(rect(r)) r\(f(radius)) blur \(f(blur)) \(c.hexString)"
    case .layer(let l): return "layer \(rect(l.bounds)) turn \(f(l.angle)) \(l.axis.rawValue) (\(l.items.count) items)"
    case .cached(_, let b, let items): return "cached \(rect(b)) (\(items.count) items)"
    }
  }

  func path(_ p: Path) -> String {
    if p.elements.count > 8 { return "(\(p.elements.count) elements)" }
    return p.elements.map { e -> String in
      switch e {
      case .move(let q): "M\(f(q.x)),\(f(q.y))"
      case .line(let q): "L\(f(q.x)),\(f(q.y))"
      case .curve(_, _, let q): "C…\(f(q.x)),\(f(q.y))"
      case .circle(let c, let r): "O\(f(c.x)),\(f(c.y)) r\(f(r))"
      case .rect(let r, let radius): "R\(rect(r))" + (radius > 0 ? " r\(f(radius))" : "")
      case .close: "Z"
      }
    }.joined(separator: " ")
  }

  func rect(_ r: Rect) -> String { "\(f(r.x)),\(f(r.y)),\(f(r.width)),\(f(r.height))" }
  func f(_ v: Double) -> String {
    let r = (v * 10).rounded() / 10
    return r == r.rounded() && abs(r) < 1e15 ? String(Int64(r)) : String(r)
  }
}
