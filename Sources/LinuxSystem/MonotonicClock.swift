import Glibc

/// CLOCK_MONOTONIC now, in seconds: the clock of DRM flip timestamps, libinput event times and
/// timerfds. The program's one reader of it; decisions take the time as an argument instead.
public func monotonicNow() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1_000_000_000
}

/// CLOCK_REALTIME now, in seconds since 1970: the wall clock (opening hours, file stamps,
/// screenshots' times). It jumps when the clock is set; durations use `monotonicNow`.
public func realtimeNow() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_REALTIME, &ts)
    return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1_000_000_000
}

/// CLOCK_THREAD_CPUTIME_ID now, in seconds: the calling thread's own CPU time (`--stats`'
/// longest turn apart from what other threads and processes took of the cores).
public func threadCPUNow() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts)
    return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1_000_000_000
}
