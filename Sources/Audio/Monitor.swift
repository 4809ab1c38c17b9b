import Glibc

/// A pthread mutex with its condition variable: the worker sleeps on it, the loop only holds
/// it for the moment it takes to hand over a job or read the worker's reports.
final class Monitor: @unchecked Sendable {
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)

    init() {
        pthread_mutex_init(mutex, nil)
        pthread_cond_init(condition, nil)
    }

    deinit {
        pthread_cond_destroy(condition)
        pthread_mutex_destroy(mutex)
        condition.deallocate()
        mutex.deallocate()
    }

    func lock() { pthread_mutex_lock(mutex) }
    func unlock() { pthread_mutex_unlock(mutex) }
    /// Sleeps until `signal` (the lock held before and after).
    func wait() { pthread_cond_wait(condition, mutex) }
    func signal() { pthread_cond_broadcast(condition) }
    /// Sleeps until `signal` or `seconds` have passed (the lock held before and after);
    /// false when the time ran out.
    func wait(seconds: Double) -> Bool {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        let total = Double(now.tv_sec) + Double(now.tv_nsec) / 1e9 + seconds
        var deadline = timespec(tv_sec: Int(total), tv_nsec: Int((total - total.rounded(.down)) * 1e9))
        return pthread_cond_timedwait(condition, mutex, &deadline) == 0
    }

    func withLock<T>(_ body: () throws -> T) rethrows -> T {
        lock()
        defer { unlock() }
        return try body()
    }
}
