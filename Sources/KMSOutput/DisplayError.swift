import Glibc
import LinuxSystem

/// The calls KMSOutput makes, each with the phrase its failure message uses.
public enum DisplayCall: SystemCall {
    /// open(2) of a card node.
    case open(path: String)
    /// drmSetMaster.
    case setMaster(path: String)
    /// drmDropMaster.
    case dropMaster
    /// drmGetVersion.
    case getVersion
    /// drmGetCap.
    case getCap(String)
    /// drmModeGetResources.
    case getResources
    /// drmModeGetConnector.
    case getConnector(UInt32)
    /// drmModeGetCrtc.
    case getCrtc(UInt32)
    /// drmModeCreateDumbBuffer.
    case createDumbBuffer(width: Int, height: Int)
    /// drmModeAddFB2.
    case addFramebuffer
    /// drmModeMapDumbBuffer + mmap.
    case mapDumbBuffer
    /// drmModeSetCrtc.
    case setCrtc(UInt32)
    /// drmModePageFlip.
    case pageFlip(crtc: UInt32)
    /// drmHandleEvent.
    case handleEvent
    /// drmSetClientCap.
    case setClientCap(String)
    /// drmModeObjectGetProperties / drmModeGetPlaneResources / drmModeGetPlane.
    case readObject(String)
    /// drmModeCreatePropertyBlob.
    case createBlob(String)
    /// drmModeAtomicCommit with DRM_MODE_ATOMIC_TEST_ONLY of the first modeset.
    case atomicTest(connector: String, mode: String)
    /// drmModeAtomicCommit of a modeset (ALLOW_MODESET).
    case atomicModeset(crtc: UInt32)
    /// drmModeAtomicCommit of a flip (NONBLOCK | PAGE_FLIP_EVENT).
    case atomicFlip(crtc: UInt32)
    /// drmModeAtomicCommit of the CRTC's ACTIVE property (blank and wake).
    case power(crtc: UInt32, on: Bool)
    /// drmModeConnectorSetProperty of the connector's DPMS property (legacy blank and wake).
    case dpms(connector: String, on: Bool)
    /// `--kms-api atomic` on a card or output that cannot do it (the reason why).
    case kmsAPI(String)
    /// present() while the output is suspended or a flip is still pending.
    case present
    /// udev_new, udev_enumerate_*, udev_monitor_*.
    case udev(String)
    /// ioctl(KDSETMODE / VT_SETMODE / VT_RELDISP) on the console.
    case console(String)
    /// The card in use was removed (a udev `remove` event for its node).
    case cardRemoved(path: String)

    /// "set CRTC 42", the words after "Failed to".
    public var phrase: String {
        switch self {
        case .open(let path): return "open \(path)"
        case .setMaster(let path): return "become DRM master on \(path)"
        case .dropMaster: return "drop DRM master"
        case .getVersion: return "read the driver version"
        case .getCap(let cap): return "read capability \(cap)"
        case .getResources: return "read the card's resources"
        case .getConnector(let id): return "read connector \(id)"
        case .getCrtc(let id): return "read CRTC \(id)"
        case .createDumbBuffer(let w, let h): return "create a \(w)x\(h) dumb buffer"
        case .addFramebuffer: return "add a framebuffer"
        case .mapDumbBuffer: return "map a dumb buffer"
        case .setCrtc(let id): return "set CRTC \(id)"
        case .pageFlip(let id): return "queue a page flip on CRTC \(id)"
        case .handleEvent: return "read DRM events"
        case .setClientCap(let cap): return "enable \(cap)"
        case .readObject(let what): return "read \(what)"
        case .createBlob(let what): return "create a property blob for \(what)"
        case .atomicTest(let connector, let mode): return "test mode \(mode) on \(connector) (atomic TEST_ONLY)"
        case .atomicModeset(let id): return "set CRTC \(id) (atomic modeset)"
        case .atomicFlip(let id): return "queue a page flip on CRTC \(id) (atomic commit)"
        case .power(let id, let on): return "switch CRTC \(id) \(on ? "on" : "off")"
        case .dpms(let name, let on): return "set DPMS \(on ? "On" : "Off") on connector \(name)"
        case .kmsAPI(let reason): return "use atomic KMS: \(reason)"
        case .present: return "present a frame"
        case .udev(let what): return "\(what) (udev)"
        case .console(let what): return "\(what) on the console"
        case .cardRemoved(let path): return "keep using \(path): the card was removed"
        }
    }

    /// The two failures a person fixes outside the program: groups, and another DRM master.
    public func message(errno: Errno) -> String? {
        switch self {
        case .open(let path) where DisplayError(self, errno: errno).isPermissionDenied:
            return "\(path): \(errno) (is the user in group video?)"
        case .setMaster(let path) where DisplayError(self, errno: errno).isAnotherMaster:
            return "another program is DRM master on \(path) (\(errno)); stop it or switch to a free VT"
        case .kmsAPI(let reason):
            return "--kms-api atomic: \(reason); try --kms-api auto or legacy"
        default:
            return nil
        }
    }
}

/// KMSOutput's failures: which call, and the errno it left.
public typealias DisplayError = CallError<DisplayCall>

extension DisplayError {
    /// The device cannot be opened for lack of permission.
    public var isPermissionDenied: Bool {
        if case .open = call { return code == EACCES || code == EPERM }
        return false
    }

    /// Another process holds DRM master on the card.
    public var isAnotherMaster: Bool {
        if case .setMaster = call { return code == EBUSY || code == EACCES || code == EPERM || code == EINVAL }
        return false
    }
}
