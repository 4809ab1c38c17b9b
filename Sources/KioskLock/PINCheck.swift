import DialCore
import FleetConfig
import LinuxSystem

/// A PIN entry checked against the PIN file's hash. Argon2id is slow on purpose (a fraction of a
/// second and 64 MiB), so the frame loop never runs it: `start` puts it on a `ThreadJob`, whose
/// hang-up the loop's poll sees like any other descriptor, and the verdict comes back as a value.
/// The lock counts the try on the disk (`LockLedger.begin`) before it starts the check.
package enum PINCheck {
    /// What a check found.
    package enum Outcome: Sendable, Equatable {
        case right
        case wrong
        /// libsodium could not be loaded, or the hash could not be computed (memory).
        case failed(String)
    }

    /// The check itself, on the calling thread: slow.
    package static func check(_ entry: PINEntry, against file: PINFile) -> Outcome {
        do {
            return try entry.withASCII { (ascii: [UInt8]) throws(FleetError) -> Outcome in
                try Sodium.passwordMatches(ascii, hash: file.hash) ? .right : .wrong
            }
        } catch {
            return .failed(error.description)
        }
    }

    /// The check on a thread of its own (nice 10: the dial keeps its frames meanwhile); poll
    /// the job's descriptor and take its `finished(in:)` value.
    package static func start(_ entry: PINEntry, against file: PINFile) throws(ThreadJobError) -> ThreadJob<Outcome> {
        try ThreadJob.start("PIN check", nice: 10) { check(entry, against: file) }
    }

    /// A new PIN file's contents for `pin` (ASCII digits, already checked by `PINRules`).
    package static func make(_ pin: PINEntry) throws(FleetError) -> PINFile {
        let hash = try pin.withASCII { (ascii: [UInt8]) throws(FleetError) -> String in try Sodium.passwordHash(ascii) }
        return PINFile(digits: pin.count, hash: hash)
    }
}
