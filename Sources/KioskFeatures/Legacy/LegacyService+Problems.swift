/// The kiosk's optional parts: each may fail to start, or stop working, while the dial runs on.
package enum OptionalPart: String, CaseIterable, Sendable {
    /// The remote view's listeners (`remote:`).
    case remote
    /// Speech and sound cues (`accessibility:`).
    case speech
    /// The HDMI-CEC adapter (`power.cec`).
    case cec
    /// The presence sensor (`power.presence`).
    case presence
}

/// What is wrong with the optional parts now, one line per part in the parts' order:
/// `<base>/state`'s `problems` and Home Assistant's problem sensor.
package struct PartProblems: Equatable, Sendable {
    private var reasons: [OptionalPart: String] = [:]

    package init() {}

    /// Records `why` for `part` (nil: it works again); false when that was already recorded,
    /// so nothing needs telling.
    package mutating func set(_ part: OptionalPart, _ why: String?) -> Bool {
        guard reasons[part] != why else { return false }
        reasons[part] = why
        return true
    }

    package func reason(_ part: OptionalPart) -> String? { reasons[part] }

    /// "remote: ...", one per failing part.
    package var lines: [String] {
        OptionalPart.allCases.compactMap { part in reasons[part].map { "\(part.rawValue): \($0)" } }
    }
}

extension LegacyService {
    /// `part` cannot work; `why` says what to change. Logged once per new reason (`log: false`
    /// when the part logged it itself), told in `<base>/state`; the dial runs on without it.
    package func partFailed(_ part: OptionalPart, _ why: String, log: Bool = true) {
        // The part's own lines start with its log prefix ("presence: ", speech's "audio: "),
        // which the problem line already says.
        let prefix = ["\(part.rawValue): ", "audio: "].first { why.hasPrefix($0) }
        let why = prefix.map { String(why.dropFirst($0.count)) } ?? why
        guard problems.set(part, why) else { return }
        if log { logger.warning("\(part.rawValue): \(why); the dial runs on without it") }
        publishState()
    }

    /// `part` works again (a sensor plugged back in, speech that plays again).
    package func partRecovered(_ part: OptionalPart) {
        guard problems.set(part, nil) else { return }
        publishState()
    }
}
