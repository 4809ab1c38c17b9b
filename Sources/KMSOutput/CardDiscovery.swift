import CUdev
import LinuxSystem

/// Finds the DRM card nodes (/dev/dri/cardN, not the render nodes) through libudev, which reads
/// sysfs and so works without a running udevd.
public enum CardDiscovery {
    /// udev_enumerate over subsystem "drm", sysname "card[0-9]*": the device nodes, sorted by
    /// card number. A machine without DRM has an empty list; a udev failure is an error.
    public static func cardPaths() throws(DisplayError) -> [String] {
        guard let udev = udev_new() else { throw DisplayError(.udev("create a udev context"), errno: .current) }
        defer { udev_unref(udev) }
        guard let en = udev_enumerate_new(udev) else { throw DisplayError(.udev("enumerate devices"), errno: .current) }
        defer { udev_enumerate_unref(en) }
        udev_enumerate_add_match_subsystem(en, "drm")
        udev_enumerate_add_match_sysname(en, "card[0-9]*")
        try DisplayError.check(.udev("scan devices"), udev_enumerate_scan_devices(en))
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
