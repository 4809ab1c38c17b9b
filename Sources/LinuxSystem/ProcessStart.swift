import Glibc

/// When this process started, on CLOCK_MONOTONIC (the clock of flip events), for "time from
/// process start to the first frame".
///
/// The kernel's own record is used, not a clock read in main(): /proc/self/stat's starttime is
/// taken when the process is created (systemd's fork), so the figure includes exec, the dynamic
/// loader and the Swift runtime's start, which a reading in main() would miss. starttime counts
/// clock ticks (sysconf(_SC_CLK_TCK), 100 per second on Linux: 10 ms resolution) on the boot
/// clock (CLOCK_BOOTTIME, which also runs during suspend), so it is moved onto CLOCK_MONOTONIC by
/// the two clocks' current difference.
public enum ProcessStart {
    /// The start on CLOCK_MONOTONIC in seconds, or nil when /proc/self/stat cannot be read.
    public static func monotonic() -> Double? {
        guard let line = readStat(), let ticks = startTicks(statLine: line) else { return nil }
        let hz = Double(sysconf(Int32(_SC_CLK_TCK)))
        guard hz > 0 else { return nil }
        return onMonotonic(ticks: ticks, ticksPerSecond: hz, bootNow: clockSeconds(CLOCK_BOOTTIME),
                           monotonicNow: clockSeconds(CLOCK_MONOTONIC))
    }

    /// `ticks` after boot, as a CLOCK_MONOTONIC time, given both clocks read now.
    public static func onMonotonic(ticks: UInt64, ticksPerSecond: Double, bootNow: Double, monotonicNow: Double) -> Double {
        Double(ticks) / ticksPerSecond - (bootNow - monotonicNow)
    }

    /// Field 22 (starttime) of a /proc/PID/stat line. The second field, the command name in
    /// parentheses, may itself hold spaces and parentheses, so counting starts after the last
    /// ')': field 3 is the first one after it.
    public static func startTicks(statLine: String) -> UInt64? {
        guard let close = statLine.lastIndex(of: ")") else { return nil }
        let fields = statLine[statLine.index(after: close)...].split(separator: " ", omittingEmptySubsequences: true)
        // fields[0] is field 3 (state), so field 22 is fields[19].
        guard fields.count > 19 else { return nil }
        return UInt64(fields[19])
    }

    private static func clockSeconds(_ clock: clockid_t) -> Double {
        var ts = timespec()
        clock_gettime(clock, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1_000_000_000
    }

    private static func readStat() -> String? {
        guard let file = try? FileDescriptor.open("/proc/self/stat", flags: O_RDONLY | O_CLOEXEC).get() else { return nil }
        defer { file.close() }
        var bytes = [UInt8](repeating: 0, count: 1024)
        guard let n = try? bytes.withUnsafeMutableBytes({ file.read(into: $0) }).get(), n > 0 else { return nil }
        return String(decoding: bytes[0..<n], as: UTF8.self)
    }
}
