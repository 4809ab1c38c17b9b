import CUdev
#if canImport(Glibc)
import Glibc
#endif

/// Finds the DRM card nodes (/dev/dri/cardN, not the render nodes) through libudev, which reads
/// sysfs and so works without a running udevd.
public enum CardDiscovery {
    /// udev_enumerate over subsystem "drm", sysname "card[0-9]*": the device nodes, sorted by
    /// card number.
    public static func cardPaths() throws -> [String] {
        guard let udev = udev_new() else { throw DisplayError.fromErrno(.udev("create a udev context")) }
        defer { udev_unref(udev) }
        guard let en = udev_enumerate_new(udev) else { throw DisplayError.fromErrno(.udev("enumerate devices")) }
        defer { udev_enumerate_unref(en) }
        udev_enumerate_add_match_subsystem(en, "drm")
        udev_enumerate_add_match_sysname(en, "card[0-9]*")
        let r = udev_enumerate_scan_devices(en)
        guard r >= 0 else { throw DisplayError(.udev("scan devices"), code: -r) }
        var paths: [String] = []
        var entry = udev_enumerate_get_list_entry(en)
        while let e = entry {
            if let syspath = udev_list_entry_get_name(e),
               let dev = udev_device_new_from_syspath(udev, syspath) {
                // Connector subdevices (card0-Virtual-1) match the glob too but have no node.
                if let node = udev_device_get_devnode(dev) { paths.append(String(cString: node)) }
                udev_device_unref(dev)
            }
            entry = udev_list_entry_get_next(e)
        }
        return paths.sorted { cardNumber($0) < cardNumber($1) }
    }

    static func cardNumber(_ path: String) -> Int {
        Int(path.reversed().prefix { $0.isNumber }.reversed().map(String.init).joined()) ?? Int.max
    }
}

/// A udev monitor for drm `change` events (hotplug). Owns its udev context and monitor.
public final class HotplugMonitor {
    private var udev: OpaquePointer?
    private var monitor: OpaquePointer?

    /// udev_monitor_new_from_netlink("udev") filtered to subsystem drm, receiving enabled.
    /// Events arrive only while udevd runs; without it the monitor simply stays quiet.
    public init() throws {
        guard let u = udev_new() else { throw DisplayError.fromErrno(.udev("create a udev context")) }
        udev = u
        guard let m = udev_monitor_new_from_netlink(u, "udev") else {
            udev_unref(u)
            udev = nil
            throw DisplayError.fromErrno(.udev("open a netlink monitor"))
        }
        monitor = m
        udev_monitor_filter_add_match_subsystem_devtype(m, "drm", nil)
        let r = udev_monitor_enable_receiving(m)
        guard r >= 0 else {
            close()
            throw DisplayError(.udev("enable the monitor"), code: -r)
        }
    }

    deinit { close() }

    /// The monitor's socket; -1 once closed.
    public var fd: Int32 { monitor.map { udev_monitor_get_fd($0) } ?? -1 }

    /// Reads every queued event; true if one was a `change` of the card at `devnode`.
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
