import Glibc

/// Who this process runs as, and the group database (getgrnam(3)).
public enum Accounts {
    /// getuid(2): the real user id.
    public static var userID: UInt32 { getuid() }

    /// The id of group `name` (a number is taken as the id itself); nil when there is none.
    public static func groupID(_ name: String) -> UInt32? {
        if let number = UInt32(name) { return number }
        guard let entry = getgrnam(name) else { return nil }
        return entry.pointee.gr_gid
    }
}
