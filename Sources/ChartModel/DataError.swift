/// A problem with a data file or inline data, with the place it was found.
public struct DataError: Error, Sendable, Equatable, CustomStringConvertible {
  /// The file (as the user named it), or nil for inline data.
  public var file: String?
  /// Where in the input: a JSON path (`[0].columns[1][17]`), a CSV row, or a byte offset.
  public var place: String?
  public var message: String
  public init(file: String? = nil, place: String? = nil, _ message: String) {
    self.file = file; self.place = place; self.message = message
  }
  public var description: String {
    var s = ""
    if let file { s += "\(file): " }
    if let place { s += "\(place): " }
    return s + message
  }
}
