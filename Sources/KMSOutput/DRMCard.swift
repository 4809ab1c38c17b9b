import CDRM
#if canImport(Glibc)
import Glibc
#endif

/// An open DRM card node: the one owner of its file descriptor. Every method names the libdrm
/// call it wraps; `close()` is safe to call twice.
public final class DRMCard {
    public let path: String
    /// The card's descriptor, or -1 once closed.
    public private(set) var fd: Int32

    /// open(path, O_RDWR | O_CLOEXEC | O_NONBLOCK). Non-blocking so that reading events
    /// (drmHandleEvent's read) never stalls the poll loop.
    public init(path: String) throws {
        self.path = path
        let fd = Glibc.open(path, O_RDWR | O_CLOEXEC | O_NONBLOCK)
        guard fd >= 0 else { throw DisplayError.fromErrno(.open(path: path)) }
        self.fd = fd
    }

    deinit { close() }

    /// close(2); later calls do nothing.
    public func close() {
        guard fd >= 0 else { return }
        _ = Glibc.close(fd)
        fd = -1
    }

    /// drmGetVersion: the kernel driver's name ("vkms", "i915").
    public func driverName() throws -> String {
        guard let v = drmGetVersion(fd) else { throw DisplayError.fromErrno(.getVersion) }
        defer { drmFreeVersion(v) }
        guard let name = v.pointee.name else { return "unknown" }
        return String(cString: name)
    }

    /// drmGetCap.
    public func capability(_ cap: UInt64, named name: String) throws -> UInt64 {
        var value: UInt64 = 0
        let r = drmGetCap(fd, cap, &value)
        guard r == 0 else { throw DisplayError.fromResult(.getCap(name), r) }
        return value
    }

    /// drmIsMaster: true while this descriptor is the card's master.
    public var isMaster: Bool { drmIsMaster(fd) != 0 }

    /// drmSetMaster, unless already master (the first opener of a free card is master at once).
    /// Fails with EBUSY when another program holds master.
    public func becomeMaster() throws {
        if isMaster { return }
        let r = drmSetMaster(fd)
        guard r == 0 else { throw DisplayError.fromResult(.setMaster(path: path), r) }
    }

    /// drmDropMaster.
    public func dropMaster() throws {
        let r = drmDropMaster(fd)
        guard r == 0 else { throw DisplayError.fromResult(.dropMaster, r) }
    }
}
