import Platform
import ArgumentParser
import ChartSceneHost
import Dispatch
import Glibc
import Synchronization

/// `chartscene batch JOBS`: many renders in one process, on every core.
struct BatchCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "batch",
    abstract: "Render many jobs in one process: one job per line of JOBS, written as 'SCRIPT [--arg K=V ...] [OPTIONS] -o OUT'.",
    discussion: "Blank lines and lines starting with # are skipped; quote words with ' or \". A failed job prints one error: line (JOBS:LINE: message) and the others go on; the exit status is 1 when any failed. See docs/scale.md.")

  @Argument(help: "The jobs file ('-': standard input).", completion: .file())
  var jobs: String

  @Option(help: "Render only the I-th of N balanced parts of the jobs (I from 1; 'auto' or 'auto/N': from a Slurm job array or a Kubernetes Indexed Job).")
  var shard: String?

  @Option(name: .shortAndLong, help: "Jobs rendered at once (default: the number of cores).")
  var threads: Int?

  func validate() throws {
    if let shard, case .failure(let e) = Shard.resolve(shard) { throw ValidationError(e.message) }
    if let threads, threads < 1 || threads > 256 { throw ValidationError("bad --threads \(threads) (1 to 256)") }
  }

  func run() throws {
    TempFiles.removeOnSignals()
    Watchdog.start()
    let file = try BatchFile(path: jobs)
    let mine = shard.flatMap { try? Shard.resolve($0).get() }.map { file.jobs[$0.range(of: file.jobs.count)] } ?? file.jobs[...]
    let name = jobs == "-" ? "(stdin)" : jobs
    let runner = BatchRunner(file: name, jobs: Array(mine))
    let cores = Int(sysconf(Int32(_SC_NPROCESSORS_ONLN)))
    let failed = runner.run(threads: threads ?? max(1, cores))
    if failed > 0 { Glibc.exit(1) }
  }
}

/// Runs the jobs on a few threads; each job has its own session (scripts never share a Lua
/// state), while the process keeps its fonts, fontconfig and code warm.
final class BatchRunner: Sendable {
  let file: String
  let jobs: [BatchFile.Job]
  struct State { var next = 0, done = 0, failed = 0, lastDraw = 0.0 }
  private let state = Mutex(State())
  private let bar: Bool
  private let start = StageTiming.now()

  init(file: String, jobs: [BatchFile.Job]) {
    self.file = file
    self.jobs = jobs
    bar = isatty(2) != 0
  }

  /// The number of failed jobs.
  func run(threads: Int) -> Int {
    // Two jobs writing one file would race: the later line fails before anything runs.
    var owner: [String: Int] = [:]
    var duplicate = Set<Int>()
    for job in jobs {
      guard case .success(let words) = job.words, let out = BatchRunner.output(words) else { continue }
      let key = AssetLocator.canonicalOutput(out)
      if let first = owner[key] {
        report(job, "-o '\(out)' is also the output of line \(first)")
        duplicate.insert(job.line)
      } else {
        owner[key] = job.line
      }
    }
    let group = DispatchGroup()
    let skip = duplicate
    for _ in 0..<max(1, min(threads, jobs.count)) {
      DispatchQueue.global().async(group: group) { [self] in
        while let job = take() {
          if skip.contains(job.line) { finish(nil); continue }
          finish(render(job).map { (job, $0) })
        }
      }
    }
    group.wait()
    if bar && !jobs.isEmpty { draw(force: true); Session.printError("") }
    return state.withLock { $0.failed }
  }

  private func take() -> BatchFile.Job? {
    state.withLock { s in
      guard s.next < jobs.count else { return nil }
      s.next += 1
      return jobs[s.next - 1]
    }
  }

  /// The value of `-o`/`--output` in a job's words.
  static func output(_ words: [String]) -> String? {
    var it = words.makeIterator()
    var out: String? = nil
    while let w = it.next() {
      if w == "-o" || w == "--output" { out = it.next() } else if w.hasPrefix("--output=") { out = String(w.dropFirst(9)) }
    }
    return out
  }

  /// Renders one job; the error message when it failed.
  func render(_ job: BatchFile.Job) -> String? {
    let words: [String]
    switch job.words {
    case .failure(let e): return e.message
    case .success(let w): words = w
    }
    guard !words.isEmpty else { return "empty job" }
    let command: Render
    do {
      command = try Render.parse(words)
    } catch {
      return Render.message(for: error).split(separator: "\n").joined(separator: " ")
    }
    if command.live || command.watch || command.inspect || command.record != nil {
      return "a batch job renders a file: --live, --watch, --inspect and --record are not allowed"
    }
    guard command.output != nil else { return "a batch job needs -o OUT" }
    if command.output == "-" || command.script == "-" { return "a batch job reads its script from a file and writes a file: '-' (standard input or output) is not allowed" }
    do {
      try command.once(files: nil, progress: false)
      return nil
    } catch let e as HostError {
      return e.message
    } catch {
      return "\(error)"
    }
  }

  private func report(_ job: BatchFile.Job, _ message: String) {
    state.withLock { s in
      s.failed += 1
      // The progress bar's line is cleared by our own escape, written raw: printError escapes
      // control characters (a job's message may hold a script's text).
      if bar { _ = "\r\u{1B}[K".withCString { Glibc.write(2, $0, strlen($0)) } }
      Session.printError("error: \(file):\(job.line): \(message)")
    }
  }

  private func finish(_ failure: (BatchFile.Job, String)?) {
    if let (job, message) = failure { report(job, message) }
    state.withLock { $0.done += 1 }
    if bar { draw(force: false) }
  }

  private func draw(force: Bool) {
    state.withLock { s in
      let t = StageTiming.now()
      if !force && t - s.lastDraw < 0.1 && s.done < jobs.count { return }
      s.lastDraw = t
      let done = s.done, failed = s.failed
      let total = jobs.count
      let rate = Double(done) / max(1e-6, t - start)
      let eta = Double(total - done) / max(1e-6, rate)
      let width = 24
      let filled = total > 0 ? width * done / total : width
      let text = "\r" + String(repeating: "█", count: filled) + String(repeating: "░", count: width - filled)
        + " \(done)/\(total) jobs  \(Int(rate.rounded())) jobs/s  ETA \(Int(eta.rounded(.up))) s"
        + (failed > 0 ? "  \(failed) failed" : "") + " "
      _ = text.withCString { Glibc.write(2, $0, strlen($0)) }
    }
  }
}
