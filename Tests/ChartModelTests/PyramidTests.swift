import Drawing
import XCTest

@testable import ChartModel

/// The min/max pyramid against brute force: ranges, and the drawn columns of random windows.
final class PyramidTests: XCTestCase {
  /// A deterministic generator (xorshift), so a failure can be replayed.
  struct Rng {
    var s: UInt64
    mutating func next() -> UInt64 { s ^= s << 13; s ^= s >> 7; s ^= s << 17; return s }
    mutating func unit() -> Double { Double(next() >> 11) / Double(1 << 53) }
    mutating func int(_ n: Int) -> Int { Int(next() % UInt64(n)) }
  }

  /// A random walk with optional gaps (single NaNs and runs) and uneven x steps.
  func makeSet(_ n: Int, gaps: Bool, rng: inout Rng) -> ChartSet {
    var xs: [Double] = [], ys: [Double] = []
    var x = 1_500_000_000_000.0, y = 0.0
    for _ in 0..<n {
      x += 1000 + Double(rng.int(3)) * 500
      y += rng.unit() - 0.5
      xs.append(x)
      ys.append(y)
    }
    if gaps {
      for _ in 0..<max(1, n / 500) {
        let at = rng.int(n), len = rng.int(3) == 0 ? 1 + rng.int(200) : 1
        for k in at..<min(n, at + len) { ys[k] = .nan }
      }
    }
    return ChartSet(name: "t", xs: xs, lines: [Line(id: "y0", name: "Y", color: Color(hex: "#3DC23F")!, values: ys)])
  }

  func bruteRange(_ vs: [Double], _ r: Range<Int>) -> (Double, Double)? {
    var lo = Double.infinity, hi = -Double.infinity
    for i in r where i < vs.count { let v = vs[i]; if v < lo { lo = v }; if v > hi { hi = v } }
    return lo <= hi ? (lo, hi) : nil
  }

  func testMinMaxMatchesBruteForce() {
    var rng = Rng(s: 0x9E37_79B9_7F4A_7C15)
    for n in [0, 1, 31, 32, 33, 100, 1000, 4097, 70_000] {
      let set = makeSet(n, gaps: n > 50, rng: &rng)
      let p = set.pyramids[0], vs = set.lines[0].values
      for _ in 0..<300 {
        let a = n > 0 ? rng.int(n + 1) : 0, b = n > 0 ? a + rng.int(n + 1 - a) : 0
        let got = p.minMax(a..<b), want = bruteRange(vs, a..<b)
        XCTAssertEqual(got?.min, want?.0, "n=\(n) \(a)..<\(b)")
        XCTAssertEqual(got?.max, want?.1, "n=\(n) \(a)..<\(b)")
      }
    }
  }

  /// Each polyline as its columns: (x, first, min, max, last) of the consecutive vertices
  /// with the same x. The pyramid may order min and max differently inside a column (it
  /// is one vertical span either way), nothing else.
  func envelope(_ pls: [[Point]]) -> [[[Double]]] {
    pls.map { pl in
      var cols: [[Double]] = []
      for p in pl {
        if let last = cols.last, last[0] == p.x {
          cols[cols.count - 1] = [p.x, last[1], min(last[2], p.y), max(last[3], p.y), p.y]
        } else {
          cols.append([p.x, p.y, p.y, p.y, p.y])
        }
      }
      return cols
    }
  }

  func testDrawnColumnsMatchBruteForceOnRandomWindows() {
    var rng = Rng(s: 42)
    for (n, gaps) in [(20_000, false), (20_000, true), (300_000, true), (300_000, false)] {
      let set = makeSet(n, gaps: gaps, rng: &rng)
      let line = set.lines[0]
      for trial in 0..<60 {
        var lo = rng.unit(), hi = rng.unit()
        if trial % 3 == 0 { hi = lo + (rng.unit() * 0.02) }  // deep zooms
        if hi < lo { swap(&lo, &hi) }
        let w = ChartSet.clampedWindow(lo, hi, minimumWidth: set.minimumWindowWidth)
        let idx = set.drawIndices(in: w)
        let width = [320.0, 1248.0, 3840.0][trial % 3]
        let tLo = set.time(atFraction: w.lo), tHi = set.time(atFraction: w.hi)
        let xOf = { (t: Double) -> Double in 16 + (t - tLo) / (tHi - tLo) * width }
        let yOf = { (v: Double) -> Double in 600 - (v + 50) * 3 }
        let fast = set.pyramids[0].polylines(xs: set.xs, indices: idx, xToPixel: xOf, yToPixel: yOf)
        // The brute force decimates only above its limit: compare with it forced on.
        let brute = Decimation.polylines(xs: set.xs, ys: line.values, indices: idx, xToPixel: xOf, yToPixel: yOf, forceColumns: true)
        XCTAssertEqual(envelope(fast), envelope(brute), "n=\(n) gaps=\(gaps) window \(w.lo)...\(w.hi) width \(width)")
        // What the chart draws: every point up to the limit, then never more than four
        // vertices per column (and per piece between gaps).
        let drawn = set.polylines(for: line, indices: idx, xToPixel: xOf, yToPixel: yOf)
        let vertices = drawn.reduce(0) { $0 + $1.count }
        if idx.count > Decimation.exactLimit {
          XCTAssertLessThanOrEqual(vertices, 4 * (Int(width) + 3) + 4 * drawn.count)
        } else {
          XCTAssertLessThanOrEqual(vertices, idx.count)
        }
        // dataRange over the window, from the pyramid, against a scan.
        let inside = set.indices(in: w)
        let r = set.dataRange(in: w)
        let want = bruteRange(line.values, inside.isEmpty ? idx : inside)
        XCTAssertEqual(r?.min, want?.0)
        XCTAssertEqual(r?.max, want?.1)
      }
    }
  }

  /// The whole-axis mini-map: columns of a million points.
  func testMinimapOfAMillionPoints() {
    var rng = Rng(s: 7)
    let set = makeSet(1_000_000, gaps: true, rng: &rng)
    let xOf = { (t: Double) -> Double in 16 + (t - set.firstMs) / set.spanMs * 1248 }
    let yOf = { (v: Double) -> Double in 700 - v }
    let fast = set.polylines(for: set.lines[0], indices: 0..<set.count, xToPixel: xOf, yToPixel: yOf)
    let brute = Decimation.polylines(xs: set.xs, ys: set.lines[0].values, indices: 0..<set.count, xToPixel: xOf, yToPixel: yOf)
    XCTAssertEqual(envelope(fast), envelope(brute))
    XCTAssertLessThan(fast.reduce(0) { $0 + $1.count }, 4 * 1250 + 4 * fast.count)
  }

  func testIndicatorLookupIsNearest() {
    var rng = Rng(s: 3)
    let set = makeSet(10_000, gaps: false, rng: &rng)
    for _ in 0..<200 {
      let f = rng.unit()
      let t = set.time(atFraction: f)
      let i = set.values(atFraction: f)!.index
      let best = set.xs.indices.min { abs(set.xs[$0] - t) < abs(set.xs[$1] - t) }!
      XCTAssertEqual(abs(set.xs[i] - t), abs(set.xs[best] - t))
    }
  }
}
