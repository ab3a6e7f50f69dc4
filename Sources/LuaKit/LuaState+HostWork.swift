import CLuaShim

extension LuaState {
  /// Runs `work` — the host's own work inside a Swift function the script called, such as
  /// reading a data file — outside the script's time limit: the running call's deadline is
  /// lifted while it runs and moved on by the time it took. Host work stays bounded by
  /// `--max-memory` (what it may hold) and by the whole run's CPU budget
  /// (`--max-total-time`), which the watchdog keeps counting. A call already past its
  /// deadline stays stopped.
  public func outsideTimeLimit<T, E: Error>(_ work: () throws(E) -> T) throws(E) -> T {
    let left = cs_pausedeadline(L)
    defer { cs_resumedeadline(L, left) }
    return try work()
  }
}
