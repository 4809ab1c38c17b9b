import KioskReporting

/// Something wrong in or about one of the lock's files, located as the configuration's errors
/// are (`/var/lib/dialkiosk/lock-state:3: failures: expected a count, got 'x'`; a file's mode or
/// owner has no line). Bad configuration: exit 78.
package struct LockFileProblem: ReportableError, Equatable {
    package var file: String
    package var line: Int?
    package var key: String?
    package var message: String

    package init(file: String, line: Int? = nil, key: String? = nil, message: String) {
        self.file = file
        self.line = line
        self.key = key
        self.message = message
    }

    package var exitStatus: ExitStatus { .config }

    package var description: String {
        var text = file
        if let line { text += ":\(line)" }
        if let key { text += ": \(key)" }
        return text + ": " + message
    }
}
