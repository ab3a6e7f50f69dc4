/// A failure to report as one line, `error: MESSAGE`, with a non-zero exit.
public struct HostError: Error, Sendable, CustomStringConvertible, Equatable {
  public var message: String
  public init(_ message: String) {
    // One line, always.
    self.message = message.split(whereSeparator: { $0 == "\n" || $0 == "\r" }).map { $0.trimmingCharacters() }.joined(separator: " ")
  }
  public var description: String { message }
}

extension Substring {
  func trimmingCharacters() -> String {
    var s = self
    while let f = s.first, f == " " || f == "\t" { s = s.dropFirst() }
    while let l = s.last, l == " " || l == "\t" { s = s.dropLast() }
    return String(s)
  }
}
