import Glibc

/// The clocks the host reads, in seconds.
public enum Clock {
  /// Monotonic wall time (not affected by changes of the system's date).
  public static func monotonic() -> Double { read(CLOCK_MONOTONIC) }
  /// CPU time of the calling thread.
  public static func threadCPU() -> Double { read(CLOCK_THREAD_CPUTIME_ID) }
  /// CPU time of the whole process (every thread).
  public static func processCPU() -> Double { read(CLOCK_PROCESS_CPUTIME_ID) }

  private static func read(_ clock: clockid_t) -> Double {
    var ts = timespec()
    clock_gettime(clock, &ts)
    return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
  }
}

/// Writes a line to stderr whole (retrying short writes), with no Foundation buffering.
public func writeStandardError(_ text: String) {
  _ = Array(text.utf8).withUnsafeBytes { writeAll(2, $0) }
}

/// Writes all of `bytes` to `fd`, retrying short and interrupted writes: 0, or the errno of
/// the write that failed.
public func writeAll(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) -> Int32 {
  guard let base = bytes.baseAddress else { return 0 }
  var off = 0
  while off < bytes.count {
    let n = Glibc.write(fd, base + off, bytes.count - off)
    if n < 0 {
      if errno == EINTR { continue }
      return errno
    }
    off += n
  }
  return 0
}
