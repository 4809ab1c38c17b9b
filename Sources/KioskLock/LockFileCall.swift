import LinuxSystem

/// The calls the lock's files are made with, as their failure messages name them.
package enum LockFileCall: SystemCall {
    case open(String)
    case write(String)
    case fsync(String)
    case rename(String, String)
    case stat(String)
    case chown(String)
    case chmod(String)
    case read(String)

    package var phrase: String {
        switch self {
        case .open(let p): "open \(p)"
        case .write(let p): "write \(p)"
        case .fsync(let p): "fsync \(p)"
        case .rename(let a, let b): "rename \(a) to \(b)"
        case .stat(let p): "stat \(p)"
        case .chown(let p): "chown \(p)"
        case .chmod(let p): "chmod \(p)"
        case .read(let p): "read \(p)"
        }
    }
}

/// A failed call on one of the lock's files: the call and its errno.
package typealias LockFileError = CallError<LockFileCall>
