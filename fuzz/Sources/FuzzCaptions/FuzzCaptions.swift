import SceneGraph

/// SubRip and WebVTT caption files (`Captions.parse`): any bytes give cues or one error with
/// a line inside the file; accepted cues are in order, not overlapping, within the limits,
/// and the WebVTT the host writes beside a video is made from them without a trap.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzCaptions(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
  let bytes = size > 0 && data != nil ? Array(UnsafeBufferPointer(start: data, count: size)) : []
  let cues: [Caption]
  do { cues = try Captions.parse(bytes) } catch {
    let lines = bytes.reduce(1) { $0 + ($1 == 10 ? 1 : 0) }
    precondition(error.line >= 1 && error.line <= lines + 1, "error line \(error.line) outside the file's \(lines) lines")
    return 0
  }
  precondition(cues.count <= Captions.maximumCues)
  var last = 0.0
  for c in cues {
    precondition(c.from.isFinite && c.to.isFinite && c.from >= last && c.to > c.from, "cues out of order: \(c)")
    precondition(c.text.utf8.count <= Captions.maximumText)
    last = c.to
  }
  _ = Captions.webVTT(cues, offset: 0)
  return 0
}
