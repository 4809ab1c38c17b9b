import CUdev
import Glibc
import LinuxSystem
import UdevLink

/// What udev reported about an evdev node since the last look.
enum EvdevNews: Sendable, Equatable {
    /// Added, or changed (a new `ID_SEAT`): decide again.
    case present(EvdevNode)
    /// Removed: the node named is gone.
    case removed(devnode: String)
}

/// The one owner of a udev context and a monitor of the input subsystem
/// (udev_new, udev_monitor_new_from_netlink "udev"): the evdev nodes present now
/// (udev_enumerate) and the ones added and removed later, each copied into an `EvdevNode`.
/// The monitor hears devices only once udevd has run its rules on them (their seat and
/// permissions set), as libinput's own monitor does. Teardown in reverse order, safe twice.
final class EvdevUdev {
    private let udev: UdevMonitor

    /// Opens the context and, when `monitoring`, starts the monitor before anything is
    /// enumerated, so a device that appears in between is heard of rather than missed.
    init(monitoring: Bool = true) throws(InputSystemError) {
        do throws(UdevMonitor.SetupError) {
            udev = try UdevMonitor(subsystem: monitoring ? "input" : nil)
        } catch {
            let what: String
            switch error.step {
            case .context: what = "create a udev context (udev_new)"
            case .monitor: what = "open a udev monitor (udev_monitor_new_from_netlink)"
            case .receiving: what = "enable the udev monitor (udev_monitor_enable_receiving)"
            }
            throw InputSystemError(InputCall(operation: what), errno: error.errno)
        }
    }

    /// The monitor's socket (non-blocking), readable when udev has news; -1 once closed.
    var fileDescriptor: Int32 { udev.fileDescriptor }

    /// Every initialized `eventN` node of the input subsystem now (udev_enumerate).
    func present() -> [EvdevNode] {
        guard let context = udev.context, let en = udev_enumerate_new(context) else { return [] }
        defer { udev_enumerate_unref(en) }
        udev_enumerate_add_match_subsystem(en, "input")
        udev_enumerate_add_match_sysname(en, "event[0-9]*")
        udev_enumerate_add_match_is_initialized(en)
        guard udev_enumerate_scan_devices(en) >= 0 else { return [] }
        var nodes: [EvdevNode] = []
        var entry = udev_enumerate_get_list_entry(en)
        while let e = entry {
            if let syspath = udev_list_entry_get_name(e), let device = udev_device_new_from_syspath(context, syspath) {
                if let node = Self.copy(device) { nodes.append(node) }
                udev_device_unref(device)
            }
            entry = udev_list_entry_get_next(e)
        }
        return nodes
    }

    /// Everything the monitor has queued about `eventN` nodes (udev_monitor_receive_device).
    func news() -> [EvdevNews] {
        guard let monitor = udev.monitor else { return [] }
        var out: [EvdevNews] = []
        while let device = udev_monitor_receive_device(monitor) {
            defer { udev_device_unref(device) }
            let action = udev_device_get_action(device).map { String(cString: $0) }
            if action == "remove" {
                if let node = udev_device_get_devnode(device), Self.isEvdev(device) {
                    out.append(.removed(devnode: String(cString: node)))
                }
            } else if action == "add" || action == "change", let node = Self.copy(device) {
                out.append(.present(node))
            }
        }
        return out
    }

    private static func isEvdev(_ device: OpaquePointer) -> Bool {
        udev_device_get_sysname(device).map { String(cString: $0).hasPrefix("event") } ?? false
    }

    /// The node's description; nil for what is not an `eventN` node with a device node.
    private static func copy(_ device: OpaquePointer) -> EvdevNode? {
        guard isEvdev(device), let sysname = udev_device_get_sysname(device),
              let devnode = udev_device_get_devnode(device) else { return nil }
        func property(_ key: String) -> String? { udev_device_get_property_value(device, key).map { String(cString: $0) } }
        // The axes and the name are attributes of the parent inputN device (owned by `device`).
        let parent = udev_device_get_parent_with_subsystem_devtype(device, "input", nil)
        func attribute(_ key: String) -> String? { parent.flatMap { udev_device_get_sysattr_value($0, key) }.map { String(cString: $0) } }
        return EvdevNode(devnode: String(cString: devnode), sysname: String(cString: sysname), name: attribute("name") ?? "",
                         seat: property("ID_SEAT"), relativeAxes: attribute("capabilities/rel"),
                         ignored: property("LIBINPUT_IGNORE_DEVICE").map { $0 != "0" } ?? false)
    }

    /// Releases the monitor, then the context; safe to call twice.
    func close() { udev.close() }
}
