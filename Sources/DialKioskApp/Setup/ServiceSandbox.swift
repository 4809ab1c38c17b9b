import KioskConfiguration
import LinuxSystem

/// Paths the installed service cannot see. systemd/dialkiosk.service sets ProtectHome=yes
/// (/home, /root and /run/user appear empty) and PrivateTmp=yes (the service gets its own empty
/// /tmp and /var/tmp), so an icon or font there works in a shell and fails under the unit.
enum ServiceSandbox {
    /// Hidden directory trees and the unit setting that hides each.
    static let hidden: [(directory: String, setting: String)] = [
        ("/home", "ProtectHome=yes"), ("/root", "ProtectHome=yes"), ("/run/user", "ProtectHome=yes"),
        ("/tmp", "PrivateTmp=yes"), ("/var/tmp", "PrivateTmp=yes"),
    ]

    /// Why the service cannot read `path` ("under /home, which ProtectHome=yes hides from the
    /// service"), or nil. Checks the path as written and, when it exists, with symbolic links
    /// resolved (a link in /etc to a file in /home is hidden too).
    static func problem(_ path: String) -> String? {
        for candidate in [path, resolved(path)].compactMap({ $0 }) {
            for (directory, setting) in hidden where candidate == directory || candidate.hasPrefix(directory + "/") {
                let via = candidate == path ? "" : " (\(path) leads to \(candidate))"
                return "under \(directory)\(via), which \(setting) in dialkiosk.service hides from the service"
            }
        }
        return nil
    }

    /// One warning per configured file the service cannot see: each item's icon, in every ring,
    /// and the font files the painter opened (`fontFiles`, for the theme's font and the hub's).
    static func warnings(config: KioskConfig, fontFiles: [String]) -> [String] {
        var out: [String] = []
        for (_, indices, item) in config.menu.everyItem {
            if let path = item.iconPath, let why = problem(path) {
                out.append(ConfigItemReader.keyPath(indices) + ".icon: \(path) is \(why)")
            }
        }
        for path in Set(fontFiles).sorted() {
            if let why = problem(path) { out.append("theme.font: \(path) is \(why)") }
        }
        return out
    }

    private static func resolved(_ path: String) -> String? {
        FilePaths.resolved(path)
    }
}
