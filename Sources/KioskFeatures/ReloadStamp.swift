import LinuxSystem

/// What identifies a configuration file's contents without reading it: device, inode, size,
/// modification and change times, and when it was read. A reload of a file whose stamp equals
/// the last one read is not parsed again, provided the file's times were older than that read
/// by more than the file system's coarse clock tick (as git's racy-index rule): a rewrite in
/// the same tick as the read could otherwise keep every field equal.
package struct ReloadStamp: Equatable, Sendable {
    var device: UInt64
    var inode: UInt64
    var size: Int64
    /// Modification and change times: seconds and nanoseconds.
    var modified: (seconds: Int64, nanoseconds: Int64)
    var changed: (seconds: Int64, nanoseconds: Int64)
    /// CLOCK_REALTIME when stat ran.
    var readAt: Double

    /// The coarse clock tick file times may lag by, with room to spare.
    static let tick = 0.05

    /// stat(2) of `path`; nil when it cannot be read (the reload then reads it and says why).
    package static func of(_ path: String) -> ReloadStamp? {
        guard case .success(let st) = FileStatus.of(path) else { return nil }
        return ReloadStamp(device: st.device, inode: st.inode, size: st.size,
                           modified: (st.modifiedSeconds, st.modifiedNanoseconds),
                           changed: (st.changedSeconds, st.changedNanoseconds), readAt: realtimeNow())
    }

    /// Whether `self` (stat now) shows the file `settled` was read from, untouched since.
    package func matches(_ settled: ReloadStamp?) -> Bool {
        guard let settled, self == settled else { return false }
        func seconds(_ t: (seconds: Int64, nanoseconds: Int64)) -> Double { Double(t.seconds) + Double(t.nanoseconds) / 1e9 }
        return max(seconds(settled.modified), seconds(settled.changed)) + Self.tick < settled.readAt
    }

    package static func == (a: ReloadStamp, b: ReloadStamp) -> Bool {
        a.device == b.device && a.inode == b.inode && a.size == b.size
            && a.modified == b.modified && a.changed == b.changed
    }
}
