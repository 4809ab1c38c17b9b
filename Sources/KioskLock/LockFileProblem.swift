import KioskReporting

/// Something wrong in or about one of the lock's files, located as the configuration's errors
/// are (`/var/lib/dialkiosk/lock-state:3: failures: expected a count, got 'x'`; a file's mode or
/// owner has no line). Bad configuration: exit 78.
public struct LockFileProblem: ReportableError, Equatable {
    public var file: String
    public var line: Int?
    public var key: String?
    public var message: String

    public init(file: String, line: Int? = nil, key: String? = nil, message: String) {
        self.file = file
        self.line = line
        self.key = key
        self.message = message
    }

    public var exitStatus: ExitStatus { .config }

    public var description: String {
        var text = file
        if let line { text += ":\(line)" }
        if let key { text += ": \(key)" }
        return text + ": " + message
    }
}
