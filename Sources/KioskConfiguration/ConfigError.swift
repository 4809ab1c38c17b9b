import DialCore
import KioskReporting

/// A configuration problem, located: `config.yaml:14: items[3].color: expected #RRGGBB, got 'blu'`.
package struct ConfigError: ReportableError, Equatable {
    /// Why the configuration could not be used.
    package enum Kind: Sendable, Equatable {
        /// The file exists but says something wrong (exit 78, systemd does not restart).
        case invalid
        /// The file does not exist or cannot be read (exit 66).
        case unreadable
    }

    package var kind: Kind
    /// The file as the user named it.
    package var file: String
    /// 1-based line of the offending value or key; nil when the problem has no single place.
    package var line: Int?
    /// Where in the document, as `section.key` or `items[3].color`; nil for the whole file.
    package var key: String?
    package var message: String

    package init(kind: Kind = .invalid, file: String, line: Int?, key: String?, message: String) {
        self.kind = kind
        self.file = file
        self.line = line
        self.key = key
        self.message = message
    }

    package var exitStatus: ExitStatus {
        switch kind {
        case .invalid: return .config
        case .unreadable: return .noInput
        }
    }

    package var description: String {
        var text = file
        if let line { text += ":\(line)" }
        if let key { text += ": \(key)" }
        return text + ": " + message.oneLine()
    }
}
