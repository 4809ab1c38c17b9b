/// Who is on the other end of a control connection (SO_PEERCRED and SO_PEERGROUPS).
package struct PeerCredentials: Sendable, Equatable {
    package var pid: Int32
    package var uid: UInt32
    package var gid: UInt32
    /// Supplementary groups.
    package var groups: [UInt32]

    package init(pid: Int32, uid: UInt32, gid: UInt32, groups: [UInt32]) {
        self.pid = pid
        self.uid = uid
        self.gid = gid
        self.groups = groups
    }

    /// The socket's 0660 mode already keeps others out; this is the same rule enforced again
    /// at accept, for peers that got past the file mode (CAP_DAC_OVERRIDE, a loosened chmod).
    package func isAllowed(ownerUID: UInt32, socketGroup: UInt32) -> Bool {
        uid == 0 || uid == ownerUID || gid == socketGroup || groups.contains(socketGroup)
    }
}
