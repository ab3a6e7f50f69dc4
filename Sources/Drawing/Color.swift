import Glibc

/// A straight (not premultiplied) RGBA colour with components in 0...1.
public struct Color: Sendable, Equatable, Hashable {
  public var r: Double, g: Double, b: Double, a: Double
  public init(r: Double, g: Double, b: Double, a: Double = 1) { self.r = r; self.g = g; self.b = b; self.a = a }

  /// Parses `#RGB`, `#RRGGBB` or `#RRGGBBAA` (either case). Returns nil for anything else.
  public init?(hex: String) {
    var s = Substring(hex)
    guard s.first == "#" else { return nil }
    s = s.dropFirst()
    var digits: [Double] = []
    for ch in s {
      guard let v = ch.hexDigitValue else { return nil }
      digits.append(Double(v))
    }
    switch digits.count {
    case 3: self.init(r: digits[0] / 15, g: digits[1] / 15, b: digits[2] / 15)
    case 6, 8:
      func byte(_ i: Int) -> Double { (digits[i] * 16 + digits[i + 1]) / 255 }
      self.init(r: byte(0), g: byte(2), b: byte(4), a: digits.count == 8 ? byte(6) : 1)
    default: return nil
    }
  }

  public func withAlpha(_ alpha: Double) -> Color { Color(r: r, g: g, b: b, a: alpha) }
  public func multipliedAlpha(_ f: Double) -> Color { Color(r: r, g: g, b: b, a: a * f) }

  /// `#RRGGBB` or `#RRGGBBAA` when not opaque.
  public var hexString: String {
    func hx(_ v: Double) -> String {
      let n = Int((max(0, min(1, v)) * 255).rounded())
      let s = String(n, radix: 16, uppercase: true)
      return n < 16 ? "0" + s : s
    }
    return "#" + hx(r) + hx(g) + hx(b) + (a < 1 ? hx(a) : "")
  }

  public static let black = Color(r: 0, g: 0, b: 0)
  public static let white = Color(r: 1, g: 1, b: 1)
  public static let clear = Color(r: 0, g: 0, b: 0, a: 0)
}

extension Color {
  /// WCAG 2 relative luminance of the colour (its alpha ignored).
  public var luminance: Double {
    func lin(_ c: Double) -> Double { let c = max(0, min(1, c)); return c <= 0.03928 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4) }
    return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b)
  }

  /// WCAG 2 contrast ratio of two opaque colours, 1 to 21.
  public static func contrast(_ a: Color, _ b: Color) -> Double {
    let la = a.luminance, lb = b.luminance
    return (max(la, lb) + 0.05) / (min(la, lb) + 0.05)
  }

  /// This colour painted with its alpha over the opaque colour `under`.
  public func over(_ under: Color) -> Color {
    let k = max(0, min(1, a))
    return Color(r: r * k + under.r * (1 - k), g: g * k + under.g * (1 - k), b: b * k + under.b * (1 - k), a: 1)
  }

  /// The colour itself when it reads at `ratio` or more on `surface` (WCAG AA for text:
  /// 4.5), else the least mix towards black or white (whichever reaches it) that does: a
  /// line's colour kept recognisable for the labels of its axis.
  public func readable(on surface: Color, ratio: Double = 4.5) -> Color {
    let base = withAlpha(1), bg = surface.withAlpha(1)
    if Color.contrast(base, bg) >= ratio { return base }
    let towards = bg.luminance > 0.18 ? Color.black : Color.white
    func mix(_ k: Double) -> Color {
      Color(r: base.r + (towards.r - base.r) * k, g: base.g + (towards.g - base.g) * k, b: base.b + (towards.b - base.b) * k)
    }
    var lo = 0.0, hi = 1.0
    for _ in 0..<24 {
      let m = (lo + hi) / 2
      if Color.contrast(mix(m), bg) >= ratio { hi = m } else { lo = m }
    }
    return mix(hi)
  }
}
