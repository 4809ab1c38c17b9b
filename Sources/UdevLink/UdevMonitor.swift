import CUdev
import LinuxSystem

/// The one owner of a udev context (udev_new) and, when asked, a netlink monitor of one
/// subsystem (udev_monitor_new_from_netlink "udev", receiving enabled). KMSOutput watches the
/// drm subsystem with it and TouchInput the input subsystem; each reads its own events and
/// says a failure in its own error's words. The monitor hears a device only once udevd has
/// run its rules on it (seat and permissions set); without udevd it stays quiet.
/// Teardown in reverse order (monitor, then context), safe to call twice.
package final class UdevMonitor {
    /// The step of the set-up that failed.
    package enum Step: Sendable, Equatable {
        /// udev_new
        case context
        /// udev_monitor_new_from_netlink
        case monitor
        /// udev_monitor_enable_receiving
        case receiving
    }

    /// A failed set-up step with the errno it left.
    package struct SetupError: Error, Sendable {
        package let step: Step
        package let errno: Errno
    }

    /// The udev context, for enumerating devices; nil once closed.
    package private(set) var context: OpaquePointer?
    /// The monitor; nil without one or once closed.
    package private(set) var monitor: OpaquePointer?

    /// Opens the context and, when `subsystem` is given, a monitor of it, started before the
    /// caller enumerates anything, so a device that appears in between is heard of.
    package init(subsystem: String?) throws(SetupError) {
        guard let u = udev_new() else { throw SetupError(step: .context, errno: .current) }
        context = u
        guard let subsystem else { return }
        guard let m = udev_monitor_new_from_netlink(u, "udev") else {
            let failure = SetupError(step: .monitor, errno: .current)
            close()
            throw failure
        }
        monitor = m
        udev_monitor_filter_add_match_subsystem_devtype(m, subsystem, nil)
        let enabled = udev_monitor_enable_receiving(m)
        guard enabled >= 0 else {
            close()
            throw SetupError(step: .receiving, errno: Errno(negatedResult: enabled))
        }
    }

    deinit { close() }

    /// The monitor's socket (non-blocking), readable when udev has news; -1 without a monitor.
    package var fileDescriptor: Int32 { monitor.map { udev_monitor_get_fd($0) } ?? -1 }

    /// Releases the monitor, then the context; safe to call twice.
    package func close() {
        if let m = monitor { udev_monitor_unref(m) }
        monitor = nil
        if let u = context { udev_unref(u) }
        context = nil
    }
}
