import ChartModel

/// The generic JSON parser. A document it accepts is re-encoded and parsed again: the two
/// values must be equal.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJSON(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
  let bytes = size > 0 && data != nil ? Array(UnsafeBufferPointer(start: data, count: size)) : []
  let value: JSONValue
  do { value = try JSONParser.parse(bytes) } catch {
    precondition(error.offset >= 0 && error.offset <= bytes.count && error.line >= 1 && error.column >= 1, "bad error place: \(error)")
    return 0
  }
  let again: JSONValue
  do { again = try JSONParser.parse(Array(encode(value).utf8)) } catch { fatalError("re-encoded value does not parse: \(error)") }
  precondition(again == value, "round trip changed the value")
  return 0
}

/// Minimal JSON writer for the round trip (numbers with Swift's shortest exact form).
func encode(_ v: JSONValue) -> String {
  switch v {
  case .null: return "null"
  case .bool(let b): return b ? "true" : "false"
  case .number(let d): return d == d.rounded() && abs(d) < 1e15 ? String(Int64(d)) : "\(d)"
  case .string(let s): return quote(s)
  case .array(let items): return "[" + items.map(encode).joined(separator: ",") + "]"
  case .object(let dict): return "{" + dict.map { quote($0.key) + ":" + encode($0.value) }.joined(separator: ",") + "}"
  }
}

func quote(_ s: String) -> String {
  var out = "\""
  for u in s.unicodeScalars {
    switch u {
    case "\"": out += "\\\""
    case "\\": out += "\\\\"
    case _ where u.value < 0x20: out += "\\u00" + (u.value < 16 ? "0" : "") + String(u.value, radix: 16)
    default: out.unicodeScalars.append(u)
    }
  }
  return out + "\""
}
