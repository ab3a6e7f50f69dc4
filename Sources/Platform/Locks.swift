import Glibc

/// A pthread mutex on the heap (its address never moves, as pthread requires; a
/// `pthread_mutex_t` stored property of a class has no such promise). `Synchronization.Mutex`
/// is a futex on Linux that ThreadSanitizer does not see, so its critical sections show as
/// races in a TSan run (docs/testing.md); this one it understands.
public final class Lock: @unchecked Sendable {
  private let mutex: UnsafeMutablePointer<pthread_mutex_t>

  public init() {
    mutex = .allocate(capacity: 1)
    pthread_mutex_init(mutex, nil)
  }

  deinit {
    pthread_mutex_destroy(mutex)
    mutex.deallocate()
  }

  public func locked<T>(_ body: () throws -> T) rethrows -> T {
    pthread_mutex_lock(mutex)
    defer { pthread_mutex_unlock(mutex) }
    return try body()
  }
}

/// A value behind a `Lock`.
public final class PosixLocked<Value>: @unchecked Sendable {
  private let lock = Lock()
  private var value: Value

  public init(_ value: Value) { self.value = value }

  public func withLock<R>(_ body: (inout Value) throws -> R) rethrows -> R {
    try lock.locked { try body(&value) }
  }
}
