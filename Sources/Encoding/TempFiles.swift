import Glibc
import Platform
import Synchronization

/// The temporary files of outputs being written (see `AtomicOutput`) and the encoders
/// writing them, so that a process that must stop at once (Ctrl-C, a script stuck past its
/// time limit) ends those and removes the files first, leaving no half-written file.
public enum TempFiles {
  private static let paths = PosixLocked<Set<String>>([])
  private static let children = PosixLocked<Set<pid_t>>([])

  /// Runs `spawn` (which returns posix_spawn's result and the child) and registers the
  /// child, under the lock `removeAll` takes. A child writing a registered file could
  /// create it again after it was removed, so `removeAll` stops children first.
  public static func spawnChild(_ spawn: () -> (Int32, pid_t)) -> (Int32, pid_t) {
    children.withLock { set in
      let (rc, pid) = spawn()
      if rc == 0 { set.insert(pid) }
      return (rc, pid)
    }
  }
  /// Starts `args[0]` (found on PATH) with `args`, registered as a child (see `spawnChild`)
  /// and with no blocked signals (our threads block Ctrl-C; see `removeOnSignals`). Its
  /// standard input is `input` or /dev/null, its output `output` or /dev/null, its errors
  /// `errors`; `closing` are descriptors the child must not keep (the other ends of pipes).
  /// Returns posix_spawn's result (0 or an errno) and the child.
  public static func spawn(_ args: [String], input: Int32? = nil, output: Int32? = nil, errors: Int32, closing: [Int32] = []) -> (Int32, pid_t) {
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    if let input { posix_spawn_file_actions_adddup2(&actions, input, 0) } else { posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0) }
    for fd in closing { posix_spawn_file_actions_addclose(&actions, fd) }
    if let output { posix_spawn_file_actions_adddup2(&actions, output, 1) } else { posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0) }
    posix_spawn_file_actions_adddup2(&actions, errors, 2)
    var attr = posix_spawnattr_t()
    posix_spawnattr_init(&attr)
    defer { posix_spawnattr_destroy(&attr) }
    var none = sigset_t()
    sigemptyset(&none)
    posix_spawnattr_setsigmask(&attr, &none)
    posix_spawnattr_setflags(&attr, Int16(POSIX_SPAWN_SETSIGMASK))
    var cargs = args.map { strdup($0) } + [nil]
    defer { for a in cargs { free(a) } }
    var child: pid_t = 0
    return spawnChild { (posix_spawnp(&child, args[0], &actions, &attr, &cargs, environ), child) }
  }

  public static func unregister(child: pid_t) { _ = children.withLock { $0.remove(child) } }

  /// mkstemp(template), registered under the same lock that `removeAll` takes, so no file
  /// is ever made and missed. Once the process is stopping no file is made at all (nil,
  /// errno EINTR): a worker starting a frame after `removeAll` emptied the set would leave
  /// an empty `.chartscene-XXXXXX` behind.
  public static func create(_ template: inout [CChar]) -> Int32? {
    paths.withLock { set -> Int32? in
      if stopping.load(ordering: .acquiring) { errno = EINTR; return nil }
      let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
      guard fd >= 0 else { return nil }
      set.insert(String(cString: template.map { UInt8(bitPattern: $0) }))
      return fd
    }
  }

  /// rename(from, to) under the lock `removeAll` takes: once the process is stopping, the
  /// file is removed instead (a worker finishing a frame must not make a file that
  /// `removeAll` has already removed). With `registering`, `to` is registered once renamed
  /// (the frames of a sequence until every one is in place). Returns rename's result.
  public static func rename(_ from: String, _ to: String, registering: Bool = false) -> Int32 {
    paths.withLock { set -> Int32 in
      if stopping.load(ordering: .acquiring) {
        unlink(from)
        errno = EINTR
        return -1
      }
      let rc = Glibc.rename(from, to)
      if rc == 0 {
        set.remove(from)
        if registering { set.insert(to) }
      }
      return rc
    }
  }

  /// A new empty file beside `path` (`.chartscene-XXXXXX` in its folder), registered: its
  /// name and an open descriptor, or why it could not be made.
  public static func beside(_ path: String) -> Result<(name: String, fd: Int32), TempFileError> {
    var template = Array((Paths.directory(of: path) + "/.chartscene-XXXXXX").utf8CString)
    guard let fd = create(&template) else { return .failure(TempFileError(reason: String(cString: strerror(errno)))) }
    return .success((String(cString: template.map { UInt8(bitPattern: $0) }), fd))
  }

  /// Puts a finished temporary file in place of `path` (readable by all, renamed over it);
  /// on failure it is removed and the reason returned. Either way it is no longer registered.
  public static func commit(_ temp: String, to path: String) -> String? {
    defer { unregister(temp) }
    if chmod(temp, 0o644) != 0 || rename(temp, path) != 0 {
      let reason = String(cString: strerror(errno))
      unlink(temp)
      return reason
    }
    return nil
  }

  /// Removes a temporary file that will not be used and forgets it.
  public static func discard(_ temp: String) {
    unlink(temp)
    unregister(temp)
  }

  public struct TempFileError: Error { public var reason: String }

  public static func register(_ path: String) { _ = paths.withLock { $0.insert(path) } }
  public static func unregister(_ path: String) { _ = paths.withLock { $0.remove(path) } }

  private static let stopping = Atomic<Bool>(false)

  /// Parks the calling thread for good when the process is being stopped (a signal, the
  /// watchdog): what failed then is an effect of the stop (ffmpeg killed under a writer
  /// gives "Broken pipe"), and the stopping thread is about to exit with its own status.
  public static func waitIfStopping() {
    guard stopping.load(ordering: .acquiring) else { return }
    while true { pause() }
  }

  /// Stops the registered children and removes every registered file (for exiting).
  public static func removeAll() {
    stopping.store(true, ordering: .releasing)
    children.withLock { set in
      for pid in set {
        kill(pid, SIGKILL)
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
      }
      set = []
    }
    paths.withLock { set in
      for p in set { unlink(p) }
      set = []
    }
  }

  static let stopSignals = [SIGINT, SIGTERM, SIGHUP]

  /// From now on SIGINT, SIGTERM and SIGHUP remove the temporary files and exit with
  /// 128+signal. Call it before any other thread starts: the signals are blocked in every
  /// thread and taken by one thread of their own, outside signal-handler context.
  public static func removeOnSignals() {
    var set = sigset_t()
    sigemptyset(&set)
    for s in stopSignals { sigaddset(&set, s) }
    pthread_sigmask(SIG_BLOCK, &set, nil)
    var thread = pthread_t()
    let rc = pthread_create(&thread, nil, { _ in
      var set = sigset_t()
      sigemptyset(&set)
      for s in TempFiles.stopSignals { sigaddset(&set, s) }
      var sig: Int32 = 0
      while sigwait(&set, &sig) != 0 {}
      TempFiles.removeAll()
      _exit(128 + sig)
    }, nil)
    // No thread to take them: leave the signals to their default action (the process ends;
    // temporary files may stay) rather than blocked and ignored.
    if rc != 0 { pthread_sigmask(SIG_UNBLOCK, &set, nil) }
  }
}
