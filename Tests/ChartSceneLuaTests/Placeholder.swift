import XCTest
final class ChartSceneLuaTestsPlaceholder: XCTestCase {}
