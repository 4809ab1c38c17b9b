import CUdev
import KioskSeams
import Glibc
import LinuxSystem
import UdevLink

/// A udev monitor for drm `change` events (hotplug), on the shared owner of the udev context
/// and monitor (`UdevMonitor`).
public final class HotplugMonitor {
    private let udev: UdevMonitor

    /// udev_monitor_new_from_netlink("udev") filtered to subsystem drm, receiving enabled.
    /// Events arrive only while udevd runs; without it the monitor simply stays quiet.
    public init() throws(DisplayError) {
        do throws(UdevMonitor.SetupError) {
            udev = try UdevMonitor(subsystem: "drm")
        } catch {
            let what: String
            switch error.step {
            case .context: what = "create a udev context"
            case .monitor: what = "open a netlink monitor"
            case .receiving: what = "enable the monitor"
            }
            throw DisplayError(.udev(what), errno: error.errno)
        }
    }

    /// The monitor's socket; -1 once closed.
    public var fd: Int32 { udev.fileDescriptor }

    /// Reads every queued event: whether the card at `devnode` was removed or changed.
    public func drainChanges(devnode: String) -> CardNews {
        guard let m = udev.monitor else { return .nothing }
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
    public func close() { udev.close() }
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
