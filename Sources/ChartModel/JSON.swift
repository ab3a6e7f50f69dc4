/// A parsed JSON value. The parser is small and exact about where input goes wrong
/// (byte offset, line and column), which is what a user needs to fix a data file.
public enum JSONValue: Sendable, Equatable {
  case null
  case bool(Bool)
  case number(Double)
  case string(String)
  case array([JSONValue])
  case object([String: JSONValue])

  public var typeName: String {
    switch self {
    case .null: "null"
    case .bool: "boolean"
    case .number: "number"
    case .string: "string"
    case .array: "array"
    case .object: "object"
    }
  }
}

/// A JSON syntax error at a byte offset.
public struct JSONSyntaxError: Error, Sendable, Equatable {
  public var message: String
  public var offset: Int
  public var line: Int
  public var column: Int
  public var description: String { "invalid JSON at byte \(offset) (line \(line), column \(column)): \(message)" }
}

/// Parses JSON text (RFC 8259) into a `JSONValue`.
public struct JSONParser {
  private let bytes: [UInt8]
  private var i = 0
  private var depth = 0
  private static let maxDepth = 512

  public static func parse(_ bytes: [UInt8]) throws(JSONSyntaxError) -> JSONValue {
    var p = JSONParser(bytes: bytes)
    p.skipSpace()
    let v = try p.value()
    p.skipSpace()
    if p.i < bytes.count { throw p.error("unexpected '\(p.charName(bytes[p.i]))' after the end of the document") }
    return v
  }

  private init(bytes: [UInt8]) { self.bytes = bytes }

  private func error(_ message: String, at offset: Int? = nil) -> JSONSyntaxError {
    let at = min(offset ?? i, bytes.count)
    var line = 1, col = 1
    var k = 0
    while k < at { if bytes[k] == 10 { line += 1; col = 1 } else { col += 1 }; k += 1 }
    return JSONSyntaxError(message: message, offset: at, line: line, column: col)
  }

  private func charName(_ b: UInt8) -> String {
    b >= 32 && b < 127 ? String(UnicodeScalar(b)) : "\\u{\(String(b, radix: 16))}"
  }

  private mutating func skipSpace() {
    while i < bytes.count, bytes[i] == 32 || bytes[i] == 9 || bytes[i] == 10 || bytes[i] == 13 { i += 1 }
  }

  private mutating func value() throws(JSONSyntaxError) -> JSONValue {
    guard i < bytes.count else { throw error("unexpected end of file") }
    switch bytes[i] {
    case UInt8(ascii: "{"): return try object()
    case UInt8(ascii: "["): return try array()
    case UInt8(ascii: "\""): return .string(try string())
    case UInt8(ascii: "t"): try literal("true"); return .bool(true)
    case UInt8(ascii: "f"): try literal("false"); return .bool(false)
    case UInt8(ascii: "n"): try literal("null"); return .null
    case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try number())
    case let b: throw error("unexpected '\(charName(b))'")
    }
  }

  private mutating func literal(_ word: StaticString) throws(JSONSyntaxError) {
    let w = word.withUTF8Buffer { Array($0) }
    if i + w.count <= bytes.count, Array(bytes[i..<i + w.count]) == w { i += w.count; return }
    throw error("invalid literal (expected '\(word)')")
  }

  private mutating func enter() throws(JSONSyntaxError) {
    depth += 1
    if depth > JSONParser.maxDepth { throw error("nesting deeper than \(JSONParser.maxDepth) levels") }
  }

  private mutating func object() throws(JSONSyntaxError) -> JSONValue {
    var dict: [String: JSONValue] = [:]
    try members(close: "}", in: "an object") { p throws(JSONSyntaxError) in
      guard p.i < p.bytes.count else { throw p.error("unexpected end of file in an object") }
      guard p.bytes[p.i] == UInt8(ascii: "\"") else { throw p.error("expected a string key") }
      let key = try p.string()
      p.skipSpace()
      guard p.i < p.bytes.count, p.bytes[p.i] == UInt8(ascii: ":") else { throw p.error("expected ':' after a key") }
      p.i += 1
      p.skipSpace()
      dict[key] = try p.value()
    }
    return .object(dict)
  }

  private mutating func array() throws(JSONSyntaxError) -> JSONValue {
    var items: [JSONValue] = []
    try members(close: "]", in: "an array") { p throws(JSONSyntaxError) in items.append(try p.value()) }
    return .array(items)
  }

  /// The members of the object or array whose opening bracket is at `i`, each read by
  /// `member` (from its first non-space byte), up to and past the `close` bracket.
  private mutating func members(close: UnicodeScalar, in what: String, _ member: (inout JSONParser) throws(JSONSyntaxError) -> Void) throws(JSONSyntaxError) {
    try enter(); defer { depth -= 1 }
    let end = UInt8(ascii: close)
    i += 1
    skipSpace()
    if i < bytes.count, bytes[i] == end { i += 1; return }
    while true {
      skipSpace()
      try member(&self)
      skipSpace()
      guard i < bytes.count else { throw error("unexpected end of file in \(what)") }
      if bytes[i] == UInt8(ascii: ",") { i += 1; continue }
      if bytes[i] == end { i += 1; return }
      throw error("expected ',' or '\(Character(close))' in \(what)")
    }
  }

  private mutating func number() throws(JSONSyntaxError) -> Double {
    let start = i
    if bytes[i] == UInt8(ascii: "-") { i += 1 }
    func digits(_ p: inout JSONParser) -> Int {
      let s = p.i
      while p.i < p.bytes.count, p.bytes[p.i] >= 48, p.bytes[p.i] <= 57 { p.i += 1 }
      return p.i - s
    }
    guard digits(&self) > 0 else { throw error("invalid number", at: start) }
    var isInteger = true
    if i < bytes.count, bytes[i] == UInt8(ascii: ".") {
      isInteger = false
      i += 1
      guard digits(&self) > 0 else { throw error("invalid number", at: start) }
    }
    if i < bytes.count, bytes[i] == UInt8(ascii: "e") || bytes[i] == UInt8(ascii: "E") {
      isInteger = false
      i += 1
      if i < bytes.count, bytes[i] == UInt8(ascii: "+") || bytes[i] == UInt8(ascii: "-") { i += 1 }
      guard digits(&self) > 0 else { throw error("invalid number", at: start) }
    }
    // Fast path for plain integers (timestamps and counts are most of the contest data).
    if isInteger && i - start <= 15 {
      var v = 0
      var k = start
      let neg = bytes[k] == UInt8(ascii: "-")
      if neg { k += 1 }
      while k < i { v = v * 10 + Int(bytes[k] - 48); k += 1 }
      return Double(neg ? -v : v)
    }
    let text = String(decoding: bytes[start..<i], as: UTF8.self)
    guard let d = Double(text), d.isFinite else { throw error("number out of range", at: start) }
    return d
  }

  private mutating func string() throws(JSONSyntaxError) -> String {
    let open = i
    i += 1
    var out: [UInt8] = []
    do throws(JSONString.Problem) { try JSONString.read(bytes, &i, into: &out) } catch {
      switch error {
      case .unterminated: throw self.error("unterminated string", at: open)
      case .control: throw self.error("control character in a string")
      case .badEscape(let e): throw self.error("invalid escape '\\\(charName(e))'")
      case .badUnicode: throw self.error(i + 4 > bytes.count ? "unexpected end of file in a \\u escape" : "invalid \\u escape")
      }
    }
    return String(decoding: out, as: UTF8.self)
  }
}
