import CDRM
import Glibc
import LinuxSystem

/// An open DRM card node: the one owner of its file descriptor. Every method names the libdrm
/// call it wraps; `close()` is safe to call twice.
public final class DRMCard {
    public let path: String
    private let descriptor: FileDescriptor

    /// open(path, O_RDWR | O_CLOEXEC | O_NONBLOCK). Non-blocking so that reading events
    /// (drmHandleEvent's read) never stalls the poll loop.
    public init(path: String) throws(DisplayError) {
        self.path = path
        switch FileDescriptor.open(path, flags: O_RDWR | O_CLOEXEC | O_NONBLOCK) {
        case .success(let fd): descriptor = fd
        case .failure(let errno): throw DisplayError(.open(path: path), errno: errno)
        }
    }

    /// The card's descriptor, or -1 once closed.
    public var fd: Int32 { descriptor.rawValue }

    /// close(2); later calls do nothing.
    public func close() { descriptor.close() }

    /// drmGetVersion: the kernel driver's name ("vkms", "i915").
    public func driverName() throws(DisplayError) -> String {
        guard let v = drmGetVersion(fd) else { throw DisplayError(.getVersion, errno: .current) }
        defer { drmFreeVersion(v) }
        guard let name = v.pointee.name else { return "unknown" }
        return String(cString: name)
    }

    /// drmGetCap.
    public func capability(_ cap: UInt64, named name: String) throws(DisplayError) -> UInt64 {
        var value: UInt64 = 0
        try DisplayError.check(.getCap(name), drmGetCap(fd, cap, &value))
        return value
    }

    /// drmIsMaster: true while this descriptor is the card's master.
    public var isMaster: Bool { drmIsMaster(fd) != 0 }

    /// drmSetMaster, unless already master (the first opener of a free card is master at once).
    /// Fails with EBUSY when another program holds master.
    public func becomeMaster() throws(DisplayError) {
        if isMaster { return }
        try DisplayError.check(.setMaster(path: path), drmSetMaster(fd))
    }

    /// drmDropMaster.
    public func dropMaster() throws(DisplayError) {
        try DisplayError.check(.dropMaster, drmDropMaster(fd))
    }
}
