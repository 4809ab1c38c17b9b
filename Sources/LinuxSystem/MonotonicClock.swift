import Glibc

/// CLOCK_MONOTONIC now, in seconds: the clock of DRM flip timestamps, libinput event times and
/// timerfds. The program's one reader of it; decisions take the time as an argument instead.
public func monotonicNow() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1_000_000_000
}
