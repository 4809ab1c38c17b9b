import KioskSeams
import LinuxSystem

/// `run --stats`: the longest loop turn since start, by the monotonic clock and by the loop
/// thread's own CPU time. The wall figure is what input and flips waited; the CPU figure is
/// the loop's own work in it, apart from what other threads and processes took of the cores.
package struct TurnStats {
    package private(set) var longest = 0.0
    package private(set) var longestCPU = 0.0

    package init() {}

    /// Both clocks now.
    package static func read() -> (wall: Double, cpu: Double) {
        (monotonicNow(), threadCPUNow())
    }

    /// A turn that began at `start` (from `read`) ends now.
    package mutating func turnEnded(since start: (wall: Double, cpu: Double)) {
        let end = Self.read()
        longest = max(longest, end.wall - start.wall)
        longestCPU = max(longestCPU, end.cpu - start.cpu)
    }

    /// `stats: longest turn 12.34 ms, 5.67 ms of the loop thread's CPU`.
    package var line: String {
        "stats: longest turn \(fixed(longest * 1000, 2)) ms, \(fixed(longestCPU * 1000, 2)) ms of the loop thread's CPU"
    }
}
