import XCTest
final class RenderCairoTestsPlaceholder: XCTestCase {}
