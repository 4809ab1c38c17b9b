import Glibc

/// What the shipped unit's sandbox answers when a network socket it forbids is asked for, in
/// words that say what to change. systemd's `RestrictAddressFamilies=` makes socket(2) fail with
/// EAFNOSUPPORT (a seccomp filter: no kernel lacks AF_INET), and `IPAddressDeny=` makes an
/// outgoing connect(2) fail with EPERM (a cgroup packet filter drops the SYN). Neither errno
/// comes from an ordinary network fault, so naming the drop-in is safe.
public enum SandboxRefusal {
    /// Where the package puts the drop-ins, and where an administrator installs one.
    public static let examples = "/usr/share/doc/dialkiosk/examples"
    public static let dropInDirectory = "/etc/systemd/system/dialkiosk.service.d"

    /// What to change after a socket call for a part that needs `dropIn` failed with `errno`;
    /// nil for an errno the sandbox does not give.
    public static func hint(errno: Int32, dropIn: String) -> String? {
        let install = "install the drop-in \(examples)/\(dropIn) as \(dropInDirectory)/\(dropIn), "
            + "then systemctl daemon-reload and restart dialkiosk"
        switch errno {
        case EAFNOSUPPORT:
            return "the unit's RestrictAddressFamilies= forbids AF_INET and AF_INET6: " + install
        case EPERM:
            return "the unit's IPAddressDeny=any refuses this address: " + install
                + " (its IPAddressAllow= names the addresses allowed)"
        default:
            return nil
        }
    }
}
