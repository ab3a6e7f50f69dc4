import Glibc

/// Where a render's time goes, printed on stderr when the environment sets
/// `CHARTSCENE_TIMING=1`: load (the script and its data), simulate (the clock, `update`),
/// build (scene → display list), paint (display list → pixels), encode (PNG or ffmpeg).
/// Stage times are CPU time of the thread doing the work (so other processes on a busy
/// machine do not inflate them), summed over threads (paint and encode run on two workers);
/// the last line gives the wall time and frames per second after loading. Off, it costs one
/// flag test.
public enum StageTiming {
  public enum Stage: Int, CaseIterable { case load, simulate, build, paint, encode }
  public static let enabled: Bool = {
    guard let v = getenv("CHARTSCENE_TIMING") else { return false }
    let s = String(cString: v)
    return !s.isEmpty && s != "0"
  }()
  nonisolated(unsafe) private static var totals = [Double](repeating: 0, count: Stage.allCases.count)
  private static let lock = Lock()

  public static func now() -> Double { Clock.monotonic() }

  /// CPU time of the calling thread.
  public static func cpuNow() -> Double { Clock.threadCPU() }

  /// Runs `body` and adds its CPU time to `stage` (when timing is on).
  @inline(__always)
  public static func measure<T, E: Error>(_ stage: Stage, _ body: () throws(E) -> T) throws(E) -> T {
    guard enabled else { return try body() }
    let t0 = cpuNow()
    defer { add(stage, cpuNow() - t0) }
    return try body()
  }

  public static func add(_ stage: Stage, _ seconds: Double) {
    lock.locked { totals[stage.rawValue] += seconds }
  }

  /// Prints the split, then `frames` frames in `wall` seconds (after loading).
  public static func report(frames: Int, wall: Double) {
    guard enabled else { return }
    let t = lock.locked { totals }
    func f(_ x: Double) -> String {
      let ms = (x * 1000).rounded()
      return String(Int(ms) / 1000) + "." + String(String(Int(ms) % 1000 + 1000).dropFirst()) + " s"
    }
    let perFrame = frames > 0 ? (t[Stage.build.rawValue] + t[Stage.paint.rawValue]) / Double(frames) * 1000 : 0
    let fps = wall > 0 ? Double(frames) / wall : 0
    printLine("timing: load \(f(t[0])), simulate \(f(t[1])), build \(f(t[2])), paint \(f(t[3])), encode \(f(t[4]))"
      + " (CPU time); draw \(String(Int((perFrame * 100).rounded()) / 100)).\(String(Int((perFrame * 100).rounded()) % 100 + 100).dropFirst()) ms/frame (build + paint)")
    printLine("timing: \(frames) frames in \(f(wall)) after loading: \(Int(fps.rounded())) frames/s")
  }

  /// A line of its own (e.g. how long a data file took to read), when timing is on.
  public static func note(_ line: @autoclosure () -> String) {
    guard enabled else { return }
    printLine(line())
  }

  private static func printLine(_ line: String) { writeStandardError(line + "\n") }
}
