import Drawing

/// A line's values summarised for fast drawing and ranges: min and max over power-of-two
/// blocks of points (level k holds blocks of `base << k` points), and where the gaps (NaN
/// runs) are. Built once per line when a set is made; min/max over any index range then
/// costs O(log n + base) instead of O(n), and a window is drawn from it in
/// O(pixel columns × log n), however many points it covers.
public struct MinMaxPyramid: Sendable {
  /// Points per block of level 0 (the few points at a range's ends are read directly).
  public static let base = 32
  let values: [Double]
  /// levels[k][2m], levels[k][2m+1]: min and max of block m of level k (NaN skipped; a
  /// block of gaps only has min = +inf, max = -inf).
  let levels: [[Double]]
  /// The gaps: maximal runs of NaN, as sorted, disjoint index ranges.
  let gapStarts: [Int]
  let gapEnds: [Int]

  /// The bytes the pyramid holds besides the values (which it shares with its line): about
  /// an eighth of them, plus 16 bytes a gap.
  public var byteCount: Int { levels.reduce(0) { $0 + $1.count * 8 } + (gapStarts.count + gapEnds.count) * 8 }

  public init(_ values: [Double]) {
    self.values = values
    var starts: [Int] = [], ends: [Int] = []
    var levels: [[Double]] = []
    let b = MinMaxPyramid.base
    var level: [Double] = []
    level.reserveCapacity(2 * (values.count / b + 1))
    values.withUnsafeBufferPointer { vs in
      var inGap = false
      var lo = Double.infinity, hi = -Double.infinity
      // Block by block; `x < lo ? x : lo` is one minsd (no branch to mispredict on noisy data).
      var i = 0
      while i < vs.count {
        let blockEnd = (i / b + 1) * b
        let stop = Swift.min(vs.count, blockEnd)
        while i < stop {
          let v = vs[i]
          if v.isNaN {
            if !inGap { starts.append(i); inGap = true }
          } else {
            if inGap { ends.append(i); inGap = false }
            lo = v < lo ? v : lo
            hi = v > hi ? v : hi
          }
          i += 1
        }
        if stop == blockEnd { level.append(lo); level.append(hi); lo = .infinity; hi = -.infinity }
      }
      if inGap { ends.append(vs.count) }
    }
    // Only whole blocks: the tail is read directly.
    while level.count >= 4 {
      levels.append(level)
      var up: [Double] = []
      up.reserveCapacity(level.count / 2)
      var m = 0
      while m + 3 < level.count {
        up.append(Swift.min(level[m], level[m + 2]))
        up.append(Swift.max(level[m + 1], level[m + 3]))
        m += 4
      }
      level = up
    }
    if !level.isEmpty { levels.append(level) }
    self.levels = levels
    gapStarts = starts
    gapEnds = ends
  }

  public var count: Int { values.count }
  public var hasGaps: Bool { !gapStarts.isEmpty }

  /// Min and max of the values in `range` (gaps skipped); nil when it holds no value.
  public func minMax(_ range: Range<Int>) -> (min: Double, max: Double)? {
    var i = Swift.max(0, range.lowerBound)
    let j = Swift.min(values.count, range.upperBound)
    guard i < j else { return nil }
    var lo = Double.infinity, hi = -Double.infinity
    let b = MinMaxPyramid.base
    values.withUnsafeBufferPointer { vs in
      // Head: up to the first block boundary.
      let headEnd = Swift.min(j, (i + b - 1) / b * b)
      while i < headEnd { let v = vs[i]; if v < lo { lo = v }; if v > hi { hi = v }; i += 1 }
      // Whole blocks, the largest aligned block that fits each time.
      while i + b <= j {
        var k = 0
        while k + 1 < levels.count {
          let size = b << (k + 1)
          if i % size != 0 || i + size > j { break }
          k += 1
        }
        let m = i / (b << k)
        let lv = levels[k]
        if 2 * m + 1 >= lv.count { break }
        if lv[2 * m] < lo { lo = lv[2 * m] }
        if lv[2 * m + 1] > hi { hi = lv[2 * m + 1] }
        i += b << k
      }
      // Tail.
      while i < j { let v = vs[i]; if v < lo { lo = v }; if v > hi { hi = v }; i += 1 }
    }
    return lo <= hi ? (lo, hi) : nil
  }

  /// The first gap index at or after i (count when none), and whether i itself is in a gap
  /// (then the returned index is where that gap ends).
  func gap(after i: Int) -> (index: Int, inGap: Bool) {
    var lo = 0, hi = gapEnds.count
    while lo < hi { let m = (lo + hi) / 2; if gapEnds[m] <= i { lo = m + 1 } else { hi = m } }
    guard lo < gapStarts.count else { return (values.count, false) }
    return gapStarts[lo] <= i ? (gapEnds[lo], true) : (gapStarts[lo], false)
  }

  /// The polylines of `indices` in pixel space with at most four vertices per pixel column
  /// (first, min, max, last: the M4 rule), split at gaps: the same columns as
  /// `Decimation.polylines` with the same first, last, min and max in each, found from the
  /// pyramid. Costs O(columns × log n). `xToPixel` must not decrease as x grows.
  public func polylines(xs: [Double], indices: Range<Int>,
                        xToPixel: (Double) -> Double, yToPixel: (Double) -> Double) -> [[Point]] {
    var out: [[Point]] = []
    var current: [Point] = []
    let end = Swift.min(indices.upperBound, values.count, xs.count)
    var i = Swift.max(0, indices.lowerBound)
    var lastCount = 1
    xs.withUnsafeBufferPointer { xs in
      func column(_ k: Int) -> Double { xToPixel(xs[k]).rounded(.down) }
      // Room for four vertices a column (no copies while the polyline grows).
      if i < end {
        let span = abs(column(end - 1) - column(i))
        if span.isFinite { current.reserveCapacity(Swift.min(end - i, 4 * Int(Swift.min(span, 1e6)) + 8)) }
      }
      while i < end {
        // A gap ends the polyline.
        var segEnd = end
        if hasGaps {
          let g = gap(after: i)
          if g.inGap {
            if !current.isEmpty { out.append(current); current = [] }
            i = g.index
            continue
          }
          segEnd = Swift.min(end, g.index)
        }
        while i < segEnd {
          let col = column(i)
          // The end of this column: first a guess (as many points as the last column had),
          // then gallop and bisect from it on the same test the brute force uses.
          let guess = Swift.min(segEnd, i + Swift.max(1, lastCount))
          var lo: Int, hi: Int
          if guess - 1 > i && column(guess - 1) != col {
            lo = i + 1; hi = guess - 1
          } else {
            lo = guess
            var step = 1
            hi = lo
            while hi < segEnd && column(hi) == col { lo = hi + 1; hi = Swift.min(segEnd, hi + step); step *= 2 }
            hi = Swift.min(hi, segEnd)
          }
          while lo < hi { let m = (lo + hi) / 2; if column(m) == col { lo = m + 1 } else { hi = m } }
          let j = lo
          lastCount = j - i
          let first = values[i], last = values[j - 1]
          let (mn, mx) = j - i > 2 ? (minMax(i..<j) ?? (first, first)) : (Swift.min(first, last), Swift.max(first, last))
          current.append(Point(col, yToPixel(first)))
          // Min then max, or max then min: whichever path from first to last is shorter
          // (the column is one vertical span either way).
          let lowFirst = (first - mn) + (mx - last) <= (mx - first) + (last - mn)
          let a = lowFirst ? mn : mx, b2 = lowFirst ? mx : mn
          var prev = first
          if a != prev { current.append(Point(col, yToPixel(a))); prev = a }
          if b2 != prev { current.append(Point(col, yToPixel(b2))); prev = b2 }
          if last != prev { current.append(Point(col, yToPixel(last))) }
          i = j
        }
      }
    }
    if !current.isEmpty { out.append(current) }
    return out
  }
}
