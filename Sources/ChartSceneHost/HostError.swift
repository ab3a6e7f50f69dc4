/// A failure to report as one line, `error: MESSAGE`, with a non-zero exit.
public struct HostError: Error, Sendable, CustomStringConvertible, Equatable {
  public var message: String
  public init(_ message: String) {
    // One line, always: line breaks and other control characters (from a script's
    // `error` or a data file) are shown escaped.
    self.message = OneLine.escape(message)
  }
  public var description: String { message }
  /// A wrong command line (exit status 64) rather than a failure of the run (1).
  public var isUsage = false
  public static func usage(_ message: String) -> HostError {
    var e = HostError(message)
    e.isUsage = true
    return e
  }
}
