import XCTest
final class SceneGraphTestsPlaceholder: XCTestCase {}
