import CALSA
import LinuxSystem

/// An ALSA or espeak-ng call, as its failure message names it: "Failed to open ALSA PCM
/// 'default': No such file or directory". ALSA answers -errno, or its own codes above errno's
/// range, which `snd_strerror` words (kept in `reason`).
package struct AudioCall: SystemCall {
    /// The words after "Failed to".
    package var operation: String
    /// The library's own words when errno alone would not say it (espeak-ng's status, ALSA's
    /// private codes).
    package var reason: String?

    package init(operation: String, reason: String? = nil) {
        self.operation = operation
        self.reason = reason
    }

    package var phrase: String { operation }

    package func message(errno: Errno) -> String? {
        if let reason { return "Failed to \(operation): \(reason)" }
        switch errno.rawValue {
        case EBUSY: return "Failed to \(operation): \(errno) (another program holds the sound device)"
        case EACCES, EPERM: return "Failed to \(operation): \(errno) (the user needs the audio group)"
        default: return nil
        }
    }
}

/// The module's one error shape for a failed audio call.
package typealias AudioError = CallError<AudioCall>

extension AudioError {
    /// The error for an ALSA result in the -errno convention (or one of ALSA's own codes).
    static func alsa(_ operation: String, _ result: Int) -> AudioError {
        let code = Int32(truncatingIfNeeded: -result)
        if code > 0 && code < 4096 { return AudioError(AudioCall(operation: operation), code: code) }
        return AudioError(AudioCall(operation: operation, reason: String(cString: snd_strerror(Int32(truncatingIfNeeded: result)))),
                          code: EIO)
    }
}
