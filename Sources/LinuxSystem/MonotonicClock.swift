import Glibc

/// CLOCK_MONOTONIC, the clock of DRM flip timestamps and libinput event times.
public enum MonotonicClock {
    /// Now, in seconds.
    public static func seconds() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1_000_000_000
    }
}
