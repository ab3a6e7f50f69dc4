import CFrames
import Glibc
import Platform

/// An MP4 of one H.264 video track, written from the Annex B access units x264 gives (one a
/// frame), without ffmpeg: what `ffmpeg -f h264 -i - -c copy -movflags +faststart` made of
/// the same stream, less a process (~75 ms of CPU to start, W6's 4%; every MP4 the tests
/// make). The samples go to a temporary file as they come (memory does not grow with the
/// frame count); `finish` writes `ftyp`, `moov` (before the data: plays while it downloads),
/// then the samples, into a second temporary file that is renamed over the output.
///
/// The layout is ISO/IEC 14496-12 and -15 as ffmpeg writes it: one chunk of all samples,
/// the parameter sets in `avcC` (not in the samples), a sync-sample table of the IDR frames,
/// every frame lasting `timescale / fps` ticks, the time scale the frame rate doubled to at
/// least 10000 (ffmpeg's choice: 15360 at 30 fps), and the metadata as `mdta` keys (what
/// ffmpeg's `use_metadata_tags` writes; ffprobe shows them as the container's tags).
final class MP4Writer {
  struct Failure: Error { var reason: String }

  let width: Int, height: Int, fps: Int
  let metadata: [(String, String)]
  /// The samples, one after another (each NAL unit after its 4-byte length).
  let data: String
  var dataFD: Int32
  var dataBytes: UInt64 = 0
  var sizes: [UInt32] = []
  /// 1-based numbers of the IDR samples.
  var syncSamples: [UInt32] = []
  var sps: [UInt8]? = nil, pps: [UInt8]? = nil
  var sample: [UInt8] = []

  init(beside path: String, width: Int, height: Int, fps: Int, metadata: [(String, String)]) throws(Failure) {
    self.width = width
    self.height = height
    self.fps = fps
    self.metadata = metadata
    switch TempFiles.beside(path) {
    case .success(let made): (data, dataFD) = made
    case .failure(let e): throw Failure(reason: e.reason)
    }
  }

  /// One frame: its NAL units, each after a start code (00 00 01 or 00 00 00 01).
  func append(annexB bytes: UnsafeRawBufferPointer) throws(Failure) {
    sample.removeAll(keepingCapacity: true)
    var idr = false
    MP4Writer.units(bytes) { nal in
      switch nal[0] & 0x1f {
      case 7: if sps == nil { sps = Array(nal) }
      case 8: if pps == nil { pps = Array(nal) }
      case 9: break  // access unit delimiter
      default:
        if nal[0] & 0x1f == 5 { idr = true }
        let n = UInt32(nal.count)
        sample += [UInt8(n >> 24), UInt8(n >> 16 & 0xff), UInt8(n >> 8 & 0xff), UInt8(n & 0xff)]
        sample += nal
      }
    }
    guard !sample.isEmpty else { return }
    let rc = sample.withUnsafeBytes { writeAll(dataFD, $0) }
    if rc != 0 { throw Failure(reason: String(cString: strerror(rc))) }
    sizes.append(UInt32(sample.count))
    dataBytes += UInt64(sample.count)
    if idr { syncSamples.append(UInt32(sizes.count)) }
  }

  /// Calls `body` with each NAL unit of an Annex B stream (without its start code and the
  /// zero bytes before the next one).
  static func units(_ b: UnsafeRawBufferPointer, _ body: (UnsafeRawBufferPointer) -> Void) {
    let n = b.count
    var starts: [Int] = []
    var i = 0
    while i + 2 < n {
      if b[i + 2] > 1 { i += 3; continue }
      if b[i] == 0 && b[i + 1] == 0 && b[i + 2] == 1 { starts.append(i + 3); i += 3 } else { i += 1 }
    }
    for (k, s) in starts.enumerated() {
      var e = k + 1 < starts.count ? starts[k + 1] - 3 : n
      while e > s && b[e - 1] == 0 { e -= 1 }
      if e > s { body(UnsafeRawBufferPointer(rebasing: b[s..<e])) }
    }
  }

  /// Whether a frame was given (an MP4 needs its parameter sets).
  var isEmpty: Bool { sizes.isEmpty || sps == nil || pps == nil }

  /// Writes the MP4 under a temporary name beside `path` and renames it over `path`.
  func finish(to path: String) throws(Failure) {
    defer { discard() }
    guard let sps, pps != nil, sps.count >= 4, !sizes.isEmpty else { throw Failure(reason: "x264 gave no frame") }
    let ftyp = MP4Writer.box("ftyp", Array("isom".utf8) + MP4Writer.u32(512) + Array("isomiso2avc1mp41".utf8))
    // The data starts after ftyp, moov and the mdat header (16 bytes where it is 4 GiB or more).
    let large = dataBytes + 8 > UInt64(UInt32.max)
    let header = large ? 16 : 8
    var moov = movie(chunkOffset: 0)
    moov = movie(chunkOffset: UInt64(ftyp.count + moov.count + header))
    let mdat: [UInt8] = large ? MP4Writer.u32(1) + Array("mdat".utf8) + MP4Writer.u64(dataBytes + 16)
                              : MP4Writer.u32(UInt32(dataBytes + 8)) + Array("mdat".utf8)
    let out: (name: String, fd: Int32)
    switch TempFiles.beside(path) {
    case .success(let made): out = made
    case .failure(let e): throw Failure(reason: e.reason)
    }
    var failure: Int32 = (ftyp + moov + mdat).withUnsafeBytes { writeAll(out.fd, $0) }
    if failure == 0 { failure = cframes_copy_file(dataFD, out.fd, dataBytes) }
    if close(out.fd) != 0 && failure == 0 { failure = errno }
    if failure != 0 {
      TempFiles.discard(out.name)
      throw Failure(reason: String(cString: strerror(failure)))
    }
    if let reason = TempFiles.commit(out.name, to: path) { throw Failure(reason: reason) }
  }

  /// Removes the samples' file (after `finish`, or instead of it).
  func discard() {
    if dataFD >= 0 { close(dataFD); dataFD = -1 }
    TempFiles.discard(data)
  }

  // MARK: boxes

  var timescale: Int {
    var t = fps
    while t < 10000 { t *= 2 }
    return t
  }

  func movie(chunkOffset: UInt64) -> [UInt8] {
    let n = sizes.count, delta = timescale / fps
    let mediaDuration = UInt64(n * delta)
    let movieDuration = UInt64((n * 1000 + fps / 2) / fps)
    let unity: [UInt8] = [0x00010000, 0, 0, 0, 0x00010000, 0, 0, 0, 0x40000000].flatMap { MP4Writer.u32(UInt32($0)) }
    typealias M = MP4Writer
    let mvhd = M.full("mvhd", M.u32(0) + M.u32(0) + M.u32(1000) + M.u32(UInt32(clamping: movieDuration))
      + M.u32(0x00010000) + M.u16(0x0100) + [UInt8](repeating: 0, count: 10) + unity + [UInt8](repeating: 0, count: 24) + M.u32(2))
    let tkhd = M.full("tkhd", flags: 3, M.u32(0) + M.u32(0) + M.u32(1) + M.u32(0) + M.u32(UInt32(clamping: movieDuration))
      + [UInt8](repeating: 0, count: 8) + M.u16(0) + M.u16(0) + M.u16(0) + M.u16(0) + unity
      + M.u32(UInt32(width) << 16) + M.u32(UInt32(height) << 16))
    let elst = M.full("elst", M.u32(1) + M.u32(UInt32(clamping: movieDuration)) + M.u32(0) + M.u32(0x00010000))
    let mdhd = M.full("mdhd", M.u32(0) + M.u32(0) + M.u32(UInt32(timescale)) + M.u32(UInt32(clamping: mediaDuration)) + M.u16(0x55c4) + M.u16(0))
    let hdlr = M.full("hdlr", M.u32(0) + Array("vide".utf8) + [UInt8](repeating: 0, count: 12) + Array("VideoHandler".utf8) + [0])
    let vmhd = M.full("vmhd", flags: 1, [UInt8](repeating: 0, count: 8))
    let dinf = M.box("dinf", M.full("dref", M.u32(1) + M.full("url ", flags: 1, [])))
    var avcC: [UInt8] = [1, sps![1], sps![2], sps![3], 0xff, 0xe1] + M.u16(UInt16(sps!.count)) + sps! + [1] + M.u16(UInt16(pps!.count)) + pps!
    // High profiles carry the chroma format and bit depths (x264 here: 4:2:0, 8 bits).
    if [100, 110, 122, 144].contains(sps![1]) { avcC += [0xfc | 1, 0xf8, 0xf8, 0] }
    let compressor = [UInt8](repeating: 0, count: 32)
    let avc1 = M.box("avc1", [UInt8](repeating: 0, count: 6) + M.u16(1) + [UInt8](repeating: 0, count: 16)
      + M.u16(UInt16(width)) + M.u16(UInt16(height)) + M.u32(0x00480000) + M.u32(0x00480000) + M.u32(0) + M.u16(1)
      + compressor + M.u16(0x0018) + M.u16(0xffff) + M.box("avcC", avcC))
    let stsd = M.full("stsd", M.u32(1) + avc1)
    let stts = M.full("stts", M.u32(1) + M.u32(UInt32(n)) + M.u32(UInt32(delta)))
    let stss = M.full("stss", M.u32(UInt32(syncSamples.count)) + syncSamples.flatMap(M.u32))
    let stsc = M.full("stsc", M.u32(1) + M.u32(1) + M.u32(UInt32(n)) + M.u32(1))
    let stsz = M.full("stsz", M.u32(0) + M.u32(UInt32(n)) + sizes.flatMap(M.u32))
    let stco = chunkOffset > UInt64(UInt32.max) ? M.full("co64", M.u32(1) + M.u64(chunkOffset)) : M.full("stco", M.u32(1) + M.u32(UInt32(chunkOffset)))
    let stbl = M.box("stbl", stsd + stts + stss + stsc + stsz + stco)
    let minf = M.box("minf", vmhd + dinf + stbl)
    let mdia = M.box("mdia", mdhd + hdlr + minf)
    let trak = M.box("trak", tkhd + M.box("edts", elst) + mdia)
    return M.box("moov", mvhd + trak + meta())
  }

  /// The metadata as `mdta` keys (none: no box).
  func meta() -> [UInt8] {
    guard !metadata.isEmpty else { return [] }
    typealias M = MP4Writer
    let hdlr = M.full("hdlr", M.u32(0) + Array("mdta".utf8) + [UInt8](repeating: 0, count: 12) + [0])
    let keys = M.full("keys", M.u32(UInt32(metadata.count)) + metadata.flatMap { M.box("mdta", Array($0.0.utf8)) })
    var items: [UInt8] = []
    for (k, (_, value)) in metadata.enumerated() {
      items += M.box(index: UInt32(k + 1), M.box("data", M.u32(1) + M.u32(0) + Array(value.utf8)))
    }
    return M.full("meta", hdlr + keys + M.box("ilst", items))
  }

  static func u16(_ v: UInt16) -> [UInt8] { [UInt8(v >> 8), UInt8(v & 0xff)] }
  static func u32(_ v: UInt32) -> [UInt8] { [UInt8(v >> 24), UInt8(v >> 16 & 0xff), UInt8(v >> 8 & 0xff), UInt8(v & 0xff)] }
  static func u64(_ v: UInt64) -> [UInt8] { u32(UInt32(v >> 32)) + u32(UInt32(v & 0xffff_ffff)) }
  static func box(_ type: String, _ body: [UInt8]) -> [UInt8] { u32(UInt32(body.count + 8)) + Array(type.utf8) + body }
  static func box(index: UInt32, _ body: [UInt8]) -> [UInt8] { u32(UInt32(body.count + 8)) + u32(index) + body }
  /// A full box: version 0 and `flags` before the body.
  static func full(_ type: String, flags: UInt32 = 0, _ body: [UInt8]) -> [UInt8] { box(type, u32(flags) + body) }
}

extension MP4Writer {
  /// The `mdta` keys of an MP4's `moov/meta` (what `MP4Writer` writes) or `moov/udta/meta`
  /// (ffmpeg with `use_metadata_tags`) and their UTF-8 values, read without ffprobe; nil when the file
  /// is no MP4 this can walk or holds no such keys (ffprobe says why then).
  static func metadataKeys(_ path: String) -> [String: String]? {
    let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
    guard fd >= 0 else { return nil }
    defer { close(fd) }
    var st = stat()
    guard fstat(fd, &st) == 0, (st.st_mode & S_IFMT) == S_IFREG else { return nil }
    return MP4Boxes.metadataKeys(size: Int64(st.st_size)) { offset, count in
      guard count >= 0, count <= 1 << 24 else { return nil }
      var b = [UInt8](repeating: 0, count: count)
      let n = b.withUnsafeMutableBytes { pread(fd, $0.baseAddress, count, off_t(offset)) }
      return n == count ? b : nil
    }
  }
}
