#if canImport(Glibc)
import Glibc
#endif

/// A failed system call, in the project's one error shape: "Failed to bind control socket
/// /run/dialkiosk.sock: Address already in use".
public struct SystemCallError: ReportableError, Equatable {
    /// What was being done, worded to follow "Failed to".
    public var operation: String
    public var errno: Int32
    public var exitStatus: ExitStatus

    public init(_ operation: String, errno: Int32, status: ExitStatus = .failure) {
        self.operation = operation
        self.errno = errno
        self.exitStatus = status
    }

    public var description: String { "Failed to \(operation): \(String(cString: strerror(errno)))" }
}
