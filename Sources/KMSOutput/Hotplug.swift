import CUdev
import KioskSeams
import Glibc
import LinuxSystem

/// A udev monitor for drm `change` events (hotplug). Owns its udev context and monitor.
public final class HotplugMonitor {
    private var udev: OpaquePointer?
    private var monitor: OpaquePointer?

    /// udev_monitor_new_from_netlink("udev") filtered to subsystem drm, receiving enabled.
    /// Events arrive only while udevd runs; without it the monitor simply stays quiet.
    public init() throws(DisplayError) {
        guard let u = udev_new() else { throw DisplayError(.udev("create a udev context"), errno: .current) }
        udev = u
        guard let m = udev_monitor_new_from_netlink(u, "udev") else {
            let failure = DisplayError(.udev("open a netlink monitor"), errno: .current)
            close()
            throw failure
        }
        monitor = m
        udev_monitor_filter_add_match_subsystem_devtype(m, "drm", nil)
        let enabled = udev_monitor_enable_receiving(m)
        guard enabled >= 0 else {
            close()
            throw DisplayError(.udev("enable the monitor"), errno: Errno(negatedResult: enabled))
        }
    }

    deinit { close() }

    /// The monitor's socket; -1 once closed.
    public var fd: Int32 { monitor.map { udev_monitor_get_fd($0) } ?? -1 }

    /// Reads every queued event: whether the card at `devnode` was removed or changed.
    public func drainChanges(devnode: String) -> CardNews {
        guard let m = monitor else { return .nothing }
        var news = CardNews.nothing
        while let dev = udev_monitor_receive_device(m) {
            let action = udev_device_get_action(dev).map { String(cString: $0) }
            let node = udev_device_get_devnode(dev).map { String(cString: $0) }
            if action == "remove" && node == devnode {
                news = .removed
            } else if action == "change" && (node == nil || node == devnode) && news == .nothing {
                news = .changed
            }
            udev_device_unref(dev)
        }
        return news
    }

    /// Releases the monitor and the context, in that order; safe to call twice.
    public func close() {
        if let m = monitor { udev_monitor_unref(m) }
        monitor = nil
        if let u = udev { udev_unref(u) }
        udev = nil
    }
}

/// What udev reported about the card in use since the last look.
public enum CardNews: Sendable, Equatable {
    case nothing
    /// A connector changed: re-probe.
    case changed
    /// The card itself went away (unplugged, unbound, PCI removed).
    case removed
}

/// Watches udev for `change` events of the display's card and re-probes it: the hotplug side
/// of the display, polled as its own descriptor.
public final class HotplugWatcher: DisplayEventSource {
    private let monitor: HotplugMonitor
    private unowned let display: KMSDisplay

    public init(display: KMSDisplay) throws(DisplayError) {
        self.display = display
        monitor = try HotplugMonitor()
    }

    public var pollDescriptor: Int32 { monitor.fd }

    public func drainDisplayEvents() throws -> [DisplayEvent] {
        let path = display.selection.card.path
        switch monitor.drainChanges(devnode: path) {
        case .nothing: return []
        case .changed: return try display.reprobe()
        case .removed:
            // The descriptor will never answer again: leave (status 69) so the service manager
            // starts us afresh and we find whatever card comes back.
            throw DisplayError(.cardRemoved(path: path), code: ENODEV)
        }
    }

    public func close() { monitor.close() }
}
