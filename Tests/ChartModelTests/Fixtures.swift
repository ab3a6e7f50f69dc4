import ChartModel
import XCTest

/// The Telegram contest data, copied into Tests/Fixtures/telegram.
enum Fixtures {
  static let root: String = {
    var parts = "\(#filePath)".split(separator: "/").map(String.init)
    parts.removeLast(2)  // ChartModelTests/Fixtures.swift
    return "/" + parts.joined(separator: "/") + "/Fixtures/telegram"
  }()

  static func bytes(_ relative: String) throws -> [UInt8] { try FileReader.read(root + "/" + relative) }

  static func sets(_ relative: String) throws -> [ChartSet] {
    try TelegramDecoder.decode(bytes(relative), file: relative)
  }

  static var round1: [ChartSet] { get throws { try sets("round1/chart_data.json") } }
}

extension Array where Element == UInt8 {
  init(_ s: String) { self = Array(s.utf8) }
}
