import XCTest
final class ChartModelTestsPlaceholder: XCTestCase {}
