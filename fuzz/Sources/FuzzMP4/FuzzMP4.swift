import Encoding

/// The MP4 box walker of `concat` (`MP4Boxes`): any bytes, read as a whole file, must give
/// tags or nil without a trap (issue 37: a box of 2^63 − 1 bytes overflowed an offset);
/// every box it reports lies inside what it walked.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzMP4(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
  let bytes = size > 0 && data != nil ? Array(UnsafeBufferPointer(start: data, count: size)) : []
  _ = MP4Boxes.metadataKeys(bytes: bytes)
  for box in MP4Boxes.boxes(bytes, 0..<bytes.count) {
    precondition(box.body >= 0 && box.length >= 0 && box.body + box.length <= Int64(bytes.count), "a box outside the file: \(box)")
    // One level down, as the walker reads moov's children.
    let inner = MP4Boxes.boxes(bytes, Int(box.body)..<Int(box.body + box.length))
    for b in inner { precondition(b.body >= box.body && b.body + b.length <= box.body + box.length, "a child outside its parent") }
  }
  // A reader that gives short reads must not trap either.
  _ = MP4Boxes.metadataKeys(size: Int64(bytes.count) * 2) { offset, count in
    guard offset >= 0, count >= 0, offset < Int64(bytes.count) else { return nil }
    return Array(bytes[Int(offset)..<min(bytes.count, Int(offset) + count)])
  }
  return 0
}
