import ChartModel
import FuzzSupport

/// The Telegram contest decoder (round 1 arrays, round 2 overview and day files); every set
/// it accepts is then laid out and drawn.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTelegram(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
  let bytes = size > 0 && data != nil ? Array(UnsafeBufferPointer(start: data, count: size)) : []
  guard let sets = try? TelegramDecoder.decode(bytes, file: "fuzz.json") else { return 0 }
  for set in sets { RenderModel.exercise(set) }
  return 0
}
