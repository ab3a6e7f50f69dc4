import ChartModel
import Drawing
import FuzzSupport

/// The CSV decoder; every set it accepts is then laid out and drawn. The delimiter is the
/// one a user would pass for the file: ';' or a tab when the first line has one and no ','.
/// Odd-sized inputs also get a name and a colour list.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzCSV(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
  let bytes = size > 0 && data != nil ? Array(UnsafeBufferPointer(start: data, count: size)) : []
  var options = CSVDecoder.Options()
  let header = bytes.prefix { $0 != 10 && $0 != 13 }
  if !header.contains(UInt8(ascii: ",")) {
    if header.contains(UInt8(ascii: ";")) { options.delimiter = UInt8(ascii: ";") } else if header.contains(9) { options.delimiter = 9 }
  }
  if size % 2 == 1 {
    options.name = "fuzz"
    options.colors = [Color(hex: "#102030")].compactMap { $0 }
  }
  guard let set = try? CSVDecoder.decode(bytes, file: "fuzz.csv", options: options) else { return 0 }
  RenderModel.exercise(set)
  return 0
}
