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

/// The process environment as a dictionary (components take it as an argument so tests can
/// pass their own).
public enum ProcessEnvironment {
    public static func current() -> [String: String] {
        var result: [String: String] = [:]
        var cursor = environ
        while let entry = cursor.pointee {
            let text = String(cString: entry)
            if let eq = text.firstIndex(of: "=") {
                result[String(text[..<eq])] = String(text[text.index(after: eq)...])
            }
            cursor += 1
        }
        return result
    }
}
