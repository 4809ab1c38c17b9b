import ArgumentParser
import DialCore
import KioskSeams
import KioskRuntime

extension VirtualDisplaySpec {
    /// Parses `virtual:WxH@Hz`; the message of a bad one says what is wrong.
    init(parsing text: String) throws(ValidationError) {
        let prefix = "virtual:"
        guard text.hasPrefix(prefix) else {
            throw ValidationError("--display '\(text)' must be virtual:WxH or virtual:WxH@Hz, e.g. virtual:800x480@60")
        }
        do {
            let mode = try ModeRequest(parsing: String(text.dropFirst(prefix.count)))
            self.init(width: mode.width, height: mode.height, refreshHz: mode.refreshHz ?? 60)
        } catch {
            throw ValidationError("--display '\(text)': \(error)")
        }
    }
}
