import XCTest
final class chartsceneTestsPlaceholder: XCTestCase {}
