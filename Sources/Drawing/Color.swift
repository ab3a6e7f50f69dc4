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
