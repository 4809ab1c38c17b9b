import Glibc
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
    var modified: timespec
    var changed: timespec
    /// CLOCK_REALTIME when stat ran.
    var readAt: Double

    /// The coarse clock tick file times may lag by, with room to spare.
    static let tick = 0.05

    /// stat(2) of `path`; nil when it cannot be read (the reload then reads it and says why).
    package static func of(_ path: String) -> ReloadStamp? {
        var st = stat()
        guard stat(path, &st) == 0 else { return nil }
        return ReloadStamp(device: UInt64(st.st_dev), inode: UInt64(st.st_ino), size: Int64(st.st_size),
                           modified: st.st_mtim, changed: st.st_ctim, readAt: realtimeNow())
    }

    /// Whether `self` (stat now) shows the file `settled` was read from, untouched since.
    package func matches(_ settled: ReloadStamp?) -> Bool {
        guard let settled, self == settled else { return false }
        func seconds(_ t: timespec) -> Double { Double(t.tv_sec) + Double(t.tv_nsec) / 1e9 }
        return max(seconds(settled.modified), seconds(settled.changed)) + Self.tick < settled.readAt
    }

    package static func == (a: ReloadStamp, b: ReloadStamp) -> Bool {
        a.device == b.device && a.inode == b.inode && a.size == b.size
            && a.modified.tv_sec == b.modified.tv_sec && a.modified.tv_nsec == b.modified.tv_nsec
            && a.changed.tv_sec == b.changed.tv_sec && a.changed.tv_nsec == b.changed.tv_nsec
    }
}
