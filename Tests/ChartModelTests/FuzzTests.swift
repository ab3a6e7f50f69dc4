import ChartModel
import XCTest

/// Seeded random damage to real files: the decoders must answer with a value or a
/// `DataError`, never crash or hang. Fixed seeds and counts, so a failure reproduces.
final class FuzzTests: XCTestCase {
  struct LCG {
    var state: UInt64
    mutating func next() -> UInt64 {
      state = state &* 6364136223846793005 &+ 1442695040888963407
      return state >> 33
    }
    mutating func below(_ n: Int) -> Int { Int(next() % UInt64(max(1, n))) }
  }

  func mutate(_ bytes: [UInt8], _ rng: inout LCG) -> [UInt8] {
    var b = bytes
    for _ in 0..<(1 + rng.below(4)) {
      guard !b.isEmpty else { break }
      let i = rng.below(b.count)
      switch rng.below(6) {
      case 0: b[i] = UInt8(truncatingIfNeeded: rng.next())
      case 1: b.removeSubrange(i..<min(b.count, i + 1 + rng.below(40)))
      case 2: b.insert(contentsOf: Array("[{\"\",-.9e9999nulltruefalse}]".utf8).shuffledPrefix(&rng), at: i)
      case 3: b = Array(b.prefix(i))
      case 4: b.insert(b[i], at: i)
      default:
        let tokens = Array("{}[],:\"0-e.".utf8)
        b[i] = tokens[rng.below(tokens.count)]
      }
    }
    return b
  }

  func testDamagedTelegramFilesNeverCrash() throws {
    let original = try Fixtures.bytes("round1/chart_data.json")
    var rng = LCG(state: 2019)
    var decoded = 0, rejected = 0
    for _ in 0..<1500 {
      let input = mutate(original, &rng)
      do { _ = try TelegramDecoder.decode(input, file: "f.json"); decoded += 1 } catch { rejected += 1; XCTAssertFalse(error.description.isEmpty) }
    }
    XCTAssertEqual(decoded + rejected, 1500)
    XCTAssertGreaterThan(rejected, 0)
  }

  func testDamagedCSVNeverCrashes() throws {
    let original = Array("date,Views,Shares\n2019-01-01,10,1\n2019-01-02,,2\n2019-01-03,30,3\n2019-01-04,31,\"4\"\n".utf8)
    var rng = LCG(state: 42)
    for _ in 0..<3000 {
      let input = mutate(original, &rng)
      do { _ = try CSVDecoder.decode(input, file: "f.csv") } catch { XCTAssertFalse(error.description.isEmpty) }
    }
  }

  func testRandomBytesAsJSON() {
    var rng = LCG(state: 7)
    for _ in 0..<3000 {
      let n = rng.below(64)
      let alphabet = Array("{}[],:\"0123456789-+.eEtrufalsn\\ u".utf8)
      let input = (0..<n).map { _ in alphabet[rng.below(alphabet.count)] }
      _ = try? JSONParser.parse(input)
    }
  }
}

extension Array where Element == UInt8 {
  func shuffledPrefix(_ rng: inout FuzzTests.LCG) -> [UInt8] {
    guard !isEmpty else { return [] }
    let n = 1 + rng.below(count)
    return (0..<n).map { _ in self[rng.below(count)] }
  }
}
