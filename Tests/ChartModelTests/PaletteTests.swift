import ChartModel
import Drawing
import Foundation
import XCTest

/// The default palette (issue 21, item 13): no two of its first twelve colours closer than
/// ΔE 20 (CIEDE2000), and colours beyond twelve generated, never repeated, deterministic.
/// The colour-blind figures of docs/lua-api.md come from `testColourBlindMinimaAsDocumented`.
final class PaletteTests: XCTestCase {
  typealias Lab = (l: Double, a: Double, b: Double)

  static func linear(_ c: Double) -> Double { c <= 0.04045 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4) }

  /// CIELAB (D65) of linear RGB.
  static func lab(linear r: Double, _ g: Double, _ b: Double) -> Lab {
    let x = 0.4124564 * r + 0.3575761 * g + 0.1804375 * b
    let y = 0.2126729 * r + 0.7151522 * g + 0.0721750 * b
    let z = 0.0193339 * r + 0.1191920 * g + 0.9503041 * b
    func f(_ t: Double) -> Double { t > 216.0 / 24389 ? cbrt(t) : (24389.0 / 27 * t + 16) / 116 }
    let fx = f(x / 0.95047), fy = f(y), fz = f(z / 1.08883)
    return (116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz))
  }
  static func lab(_ c: Color) -> Lab { lab(linear: linear(c.r), linear(c.g), linear(c.b)) }

  /// CIEDE2000 (Sharma, Wu, Dalal 2005), kL = kC = kH = 1.
  static func deltaE(_ p: Lab, _ q: Lab) -> Double {
    func rad(_ d: Double) -> Double { d * .pi / 180 }
    func deg(_ r: Double) -> Double { r * 180 / .pi }
    let c1 = hypot(p.a, p.b), c2 = hypot(q.a, q.b), cb = (c1 + c2) / 2
    let g = 0.5 * (1 - sqrt(pow(cb, 7) / (pow(cb, 7) + pow(25, 7))))
    let a1 = (1 + g) * p.a, a2 = (1 + g) * q.a
    let c1p = hypot(a1, p.b), c2p = hypot(a2, q.b)
    func hue(_ a: Double, _ b: Double) -> Double {
      a == 0 && b == 0 ? 0 : { let h = deg(atan2(b, a)); return h < 0 ? h + 360 : h }()
    }
    let h1 = hue(a1, p.b), h2 = hue(a2, q.b)
    let dL = q.l - p.l, dC = c2p - c1p
    var dh = 0.0
    if c1p * c2p != 0 { dh = h2 - h1; if dh > 180 { dh -= 360 } else if dh < -180 { dh += 360 } }
    let dH = 2 * sqrt(c1p * c2p) * sin(rad(dh / 2))
    let lb = (p.l + q.l) / 2, cbp = (c1p + c2p) / 2
    var hb = h1 + h2
    if c1p * c2p != 0 {
      if abs(h1 - h2) <= 180 { hb = (h1 + h2) / 2 } else if h1 + h2 < 360 { hb = (h1 + h2 + 360) / 2 } else { hb = (h1 + h2 - 360) / 2 }
    }
    let t = 1 - 0.17 * cos(rad(hb - 30)) + 0.24 * cos(rad(2 * hb)) + 0.32 * cos(rad(3 * hb + 6)) - 0.20 * cos(rad(4 * hb - 63))
    let dTheta = 30 * exp(-pow((hb - 275) / 25, 2))
    let rc = 2 * sqrt(pow(cbp, 7) / (pow(cbp, 7) + pow(25, 7)))
    let sl = 1 + 0.015 * pow(lb - 50, 2) / sqrt(20 + pow(lb - 50, 2))
    let sc = 1 + 0.045 * cbp, sh = 1 + 0.015 * cbp * t
    let rt = -sin(rad(2 * dTheta)) * rc
    return sqrt(pow(dL / sl, 2) + pow(dC / sc, 2) + pow(dH / sh, 2) + rt * (dC / sc) * (dH / sh))
  }

  /// Machado, Oliveira, Fernandes (2009) simulation matrices, severity 1.0, on linear RGB.
  static let protanopia = [[0.152286, 1.052583, -0.204868], [0.114503, 0.786281, 0.099216], [-0.003882, -0.048116, 1.051998]]
  static let deuteranopia = [[0.367322, 0.860646, -0.227968], [0.280085, 0.672501, 0.047413], [-0.011820, 0.042940, 0.968881]]
  static let tritanopia = [[1.255528, -0.076749, -0.178779], [-0.078411, 0.930809, 0.147602], [0.004733, 0.691367, 0.303900]]

  static func simulated(_ c: Color, _ m: [[Double]]) -> Lab {
    let v = [linear(c.r), linear(c.g), linear(c.b)]
    let o = m.map { row in max(0, min(1, zip(row, v).map(*).reduce(0, +))) }
    return lab(linear: o[0], o[1], o[2])
  }

  static func minimum(_ labs: [Lab]) -> Double {
    var m = Double.infinity
    for i in labs.indices { for j in labs.indices where j > i { m = min(m, deltaE(labs[i], labs[j])) } }
    return m
  }

  func testDeltaEMatchesSharmasTable() {
    // Pairs 1, 7, 17 and 25 of Sharma et al.'s test data.
    XCTAssertEqual(Self.deltaE((50, 2.6772, -79.7751), (50, 0, -82.7485)), 2.0425, accuracy: 1e-4)
    XCTAssertEqual(Self.deltaE((50, 0, 0), (50, -1, 2)), 2.3669, accuracy: 1e-4)
    XCTAssertEqual(Self.deltaE((50, 2.5, 0), (73, 25, -18)), 27.1492, accuracy: 1e-4)
    XCTAssertEqual(Self.deltaE((60.2574, -34.0099, 36.2677), (60.4626, -34.1751, 39.4387)), 1.2644, accuracy: 1e-4)
    // The figures for the old palette.
    XCTAssertEqual(Self.deltaE(Self.lab(Color(hex: "#3DC23F")!), Self.lab(Color(hex: "#4BD964")!)), 6.38, accuracy: 0.01)
    XCTAssertEqual(Self.deltaE(Self.lab(Color(hex: "#F34C44")!), Self.lab(Color(hex: "#E65850")!)), 2.89, accuracy: 0.01)
  }

  func testFirstTwelveAreAtLeastDeltaE20Apart() {
    let twelve = (0..<12).map { Palette.color($0) }
    XCTAssertEqual(twelve, Palette.colors)
    XCTAssertGreaterThanOrEqual(Self.minimum(twelve.map(Self.lab)), 20)
  }

  func testColoursBeyondTwelveAreGeneratedNotRepeated() {
    let many = (0..<200).map { Palette.color($0) }
    XCTAssertEqual(Set(many).count, 200, "no colour repeats in 200 lines")
    XCTAssertEqual(many, (0..<200).map { Palette.color($0) }, "the same on every call")
    XCTAssertTrue(many.allSatisfy { $0.a == 1 && (0...1).contains($0.r) && (0...1).contains($0.g) && (0...1).contains($0.b) })
    // The next twelve differ from each other and from the first twelve noticeably.
    let next = (12..<24).map { Palette.color($0) }
    for c in next { XCTAssertGreaterThan(Palette.colors.map { Self.deltaE(Self.lab($0), Self.lab(c)) }.min()!, 3, "\(c)") }
  }

  func testColourBlindMinimaAsDocumented() {
    // docs/lua-api.md states these minima (contest colours kept: green, red and yellow
    // collapse for red-green colour blindness; nothing better is claimed).
    let p = Self.minimum(Palette.colors.map { Self.simulated($0, Self.protanopia) })
    let d = Self.minimum(Palette.colors.map { Self.simulated($0, Self.deuteranopia) })
    let t = Self.minimum(Palette.colors.map { Self.simulated($0, Self.tritanopia) })
    print("palette ΔE2000 minima: normal \(Self.minimum(Palette.colors.map(Self.lab))) protanopia \(p) deuteranopia \(d) tritanopia \(t)")
    XCTAssertEqual(p, 4.6, accuracy: 0.05)
    XCTAssertEqual(d, 5.0, accuracy: 0.05)
    XCTAssertEqual(t, 5.25, accuracy: 0.05)
  }
}
