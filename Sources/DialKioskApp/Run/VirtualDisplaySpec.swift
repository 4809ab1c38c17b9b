import ArgumentParser
import DialCore
import KioskSeams

/// `run --display`: `virtual:WxH@Hz` (the rate optional, 60 by default), a display with no
/// device whose flips a timer on CLOCK_MONOTONIC paces at that rate. Without the option `run`
/// drives a DRM card.
struct VirtualDisplaySpec: Equatable, CustomStringConvertible {
    var width: Int
    var height: Int
    var refreshHz: Double

    var description: String { "virtual:\(width)x\(height)@\(fixed(refreshHz, 3, trimmed: true))" }
}

// In an extension, so the memberwise initialiser stays synthesised.
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
