/// What the kiosk asks of the display behind a CEC link, as a pure state machine on plain data
/// with time as an argument: the screen's wish (on, off), the adapter's logical address, the
/// results of transmits (by the kernel's sequence number) and the messages received go in; the
/// messages to send and the reports (failed, followed, the TV's own Standby) come out.
///
/// On: Image View On to the TV and Active Source to all, then Give Device Power Status.
/// Off: Standby to the TV, then Give Device Power Status. A transmit the TV does not
/// acknowledge, or no matching status within `answerSeconds` is a failure, reported once per
/// reason until the TV follows again. A TV takes a moment to change state (it reports `on`
/// just after Standby, then `turning to standby`), so a status that does not match yet is asked
/// for again every `askAgainSeconds` until the deadline.
package struct CECPowerLink: Sendable {
    /// How long the TV has to report its power status after a wish.
    package static let answerSeconds = 5.0
    /// How soon a power status that does not match the wish yet is asked for again.
    package static let askAgainSeconds = 1.0

    /// What the kiosk wants of the display.
    package enum Wish: Sendable, Equatable { case on, off }

    /// A message to transmit; `reply`: the opcode the kernel waits for (its answer comes with
    /// the transmit's result), with `timeoutMilliseconds`.
    package struct Outgoing: Sendable, Equatable {
        package var message: CECMessage
        package var reply: UInt8?
        package var timeoutMilliseconds: UInt32
    }

    /// What the link has to tell.
    package enum Report: Sendable, Equatable {
        /// The TV did not follow: why (a few words, stable per reason, for the log and the event).
        case failed(String)
        /// The TV reported the status the wish asked for (after a failure: it recovered).
        case followed(CECPowerStatus)
        /// The TV (or the remote through it) sent Standby: the TV is going dark on its own.
        case standbyFromTV
    }

    /// The adapter's physical address (Active Source carries it).
    package var physicalAddress: CECPhysicalAddress
    /// The claimed logical address; nil until the kernel configured it.
    package private(set) var logicalAddress: UInt8?
    /// The last wish (sent, or waiting for the logical address).
    package private(set) var wish: Wish?
    /// The wish waits to be sent (no logical address yet).
    private var unsent = false
    /// What each transmit in flight was, by sequence number.
    private var inFlight: [UInt32: UInt8] = [:]
    /// The power status must be reported by then (the loop's clock).
    package private(set) var answerDeadline: Double?
    /// When to ask for the power status again (the last one did not match yet).
    package private(set) var askAgainAt: Double?
    /// The last power status that did not match the wish (for the deadline's message).
    private var lastMismatch: CECPowerStatus?
    /// This wish's round failed already: one failure per round.
    private var roundFailed = false
    /// The failure reported last; the same reason is not reported again until the TV follows.
    package private(set) var failure: String?
    /// The TV put itself in standby (its Standby came): an off wish needs no message.
    private var tvAsleep = false

    package init(physicalAddress: CECPhysicalAddress) {
        self.physicalAddress = physicalAddress
    }

    /// The kernel claimed `address` (nil: the claim is gone, e.g. the cable was pulled). A wish
    /// that waited is sent now; after a new claim the last wish is sent again.
    package mutating func claimed(_ address: UInt8?, now: Double) -> (send: [Outgoing], reports: [Report]) {
        let before = logicalAddress
        logicalAddress = address
        guard address != nil, address != before else { return ([], []) }
        guard let wish else { return ([], []) }
        return sendWish(wish, now: now)
    }

    /// The screen's wish: the messages it takes (none while the address is not claimed yet, or
    /// when the wish is what was last sent).
    package mutating func want(_ wish: Wish, now: Double) -> (send: [Outgoing], reports: [Report]) {
        guard wish != self.wish || unsent else { return ([], []) }
        self.wish = wish
        if wish == .off && tvAsleep { return ([], []) }
        guard logicalAddress != nil else {
            unsent = true
            return ([], [])
        }
        return sendWish(wish, now: now)
    }

    private mutating func sendWish(_ wish: Wish, now: Double) -> (send: [Outgoing], reports: [Report]) {
        guard let from = logicalAddress else { return ([], []) }
        unsent = false
        inFlight = [:]
        tvAsleep = false
        roundFailed = false
        lastMismatch = nil
        askAgainAt = nil
        var out: [Outgoing] = []
        switch wish {
        case .on:
            out.append(Outgoing(message: CECMessage(from: from, to: CECMessage.tv, opcode: CECOpcode.imageViewOn.rawValue),
                                reply: nil, timeoutMilliseconds: 0))
            out.append(Outgoing(message: CECMessage(from: from, to: CECMessage.broadcast, opcode: CECOpcode.activeSource.rawValue,
                                                    operands: physicalAddress.bytes),
                                reply: nil, timeoutMilliseconds: 0))
        case .off:
            out.append(Outgoing(message: CECMessage(from: from, to: CECMessage.tv, opcode: CECOpcode.standby.rawValue),
                                reply: nil, timeoutMilliseconds: 0))
        }
        out.append(askStatus(from: from))
        answerDeadline = now + Self.answerSeconds
        return (out, [])
    }

    private func askStatus(from: UInt8) -> Outgoing {
        Outgoing(message: CECMessage(from: from, to: CECMessage.tv, opcode: CECOpcode.giveDevicePowerStatus.rawValue),
                 reply: CECOpcode.reportPowerStatus.rawValue, timeoutMilliseconds: UInt32(Self.answerSeconds * 1000))
    }

    /// When the loop must call `tick`: the deadline, or the time to ask again.
    package var wakeUp: Double? {
        switch (askAgainAt, answerDeadline) {
        case (let a?, let d?): return min(a, d)
        case (let a, let d): return a ?? d
        }
    }

    /// The kernel took `outgoing` for transmission as `sequence`.
    package mutating func queued(_ outgoing: Outgoing, sequence: UInt32) {
        if let opcode = outgoing.message.opcode { inFlight[sequence] = opcode }
    }

    /// The kernel refused to transmit `outgoing` (`why`: its error): a failure now.
    package mutating func refused(_ outgoing: Outgoing, why: String) -> [Report] {
        let name = outgoing.message.opcode.map { CECOpcode(rawValue: $0).map { "\($0)" } ?? "message" } ?? "poll"
        return fail("\(name) could not be sent (\(why))")
    }

    /// A transmit's result came back (`txStatus`, `rxStatus`: the kernel's bits; `reply`: the
    /// message the kernel waited for, when the transmit asked for one and it came).
    package mutating func result(sequence: UInt32, acknowledged: Bool, replyTimedOut: Bool, aborted: Bool,
                                reply: CECMessage?, now: Double) -> [Report] {
        guard let opcode = inFlight.removeValue(forKey: sequence) else { return [] }
        let name = CECOpcode(rawValue: opcode).map { "\($0)" } ?? "message"
        guard acknowledged else {
            return fail("\(name) was not acknowledged (no TV answers at logical address 0)")
        }
        guard opcode == CECOpcode.giveDevicePowerStatus.rawValue else { return [] }
        if aborted { return fail("the TV refused Give Device Power Status (Feature Abort)") }
        if replyTimedOut { return timedOut() }
        guard let reply, let status = reply.operands.first.flatMap(CECPowerStatus.init(rawValue:)),
              reply.opcode == CECOpcode.reportPowerStatus.rawValue else { return [] }
        return report(status, now: now)
    }

    /// The answer deadline passed without a matching power status (a failure), or it is time to
    /// ask again.
    package mutating func tick(now: Double) -> (send: [Outgoing], reports: [Report]) {
        if let deadline = answerDeadline, now >= deadline { return ([], timedOut()) }
        guard let at = askAgainAt, now >= at, let from = logicalAddress, answerDeadline != nil else { return ([], []) }
        askAgainAt = nil
        return ([askStatus(from: from)], [])
    }

    private mutating func timedOut() -> [Report] {
        guard let wish else { return [] }
        let seconds = Int(Self.answerSeconds)
        if let status = lastMismatch {
            return fail("the TV still reports \(status) \(seconds) s after \(wish == .on ? "Image View On" : "Standby")")
        }
        return fail("no power status from the TV within \(seconds) s")
    }

    /// A message received from the bus: the TV's power status, its Standby, a question to us.
    /// Returns the answer to send (Report Power Status to a Give Device Power Status).
    package mutating func received(_ message: CECMessage, now: Double) -> (send: [Outgoing], reports: [Report]) {
        guard let opcode = message.opcode.flatMap(CECOpcode.init(rawValue:)) else { return ([], []) }
        switch opcode {
        case .reportPowerStatus where message.initiator == CECMessage.tv:
            guard let status = message.operands.first.flatMap(CECPowerStatus.init(rawValue:)) else { return ([], []) }
            return ([], report(status, now: now))
        case .standby where message.initiator == CECMessage.tv || message.isBroadcast:
            tvAsleep = true
            answerDeadline = nil
            askAgainAt = nil
            return ([], [.standbyFromTV])
        case .giveDevicePowerStatus where !message.isBroadcast:
            guard let from = logicalAddress else { return ([], []) }
            let mine: CECPowerStatus = wish == .off ? .standby : .on
            let answer = CECMessage(from: from, to: message.initiator, opcode: CECOpcode.reportPowerStatus.rawValue,
                                    operands: [mine.rawValue])
            return ([Outgoing(message: answer, reply: nil, timeoutMilliseconds: 0)], [])
        default:
            return ([], [])
        }
    }

    private mutating func report(_ status: CECPowerStatus, now: Double) -> [Report] {
        guard let wish, answerDeadline != nil else { return [] }
        guard status.isOn == (wish == .on) else {
            // Not there yet: ask again (the deadline still holds).
            lastMismatch = status
            askAgainAt = now + Self.askAgainSeconds
            return []
        }
        answerDeadline = nil
        askAgainAt = nil
        lastMismatch = nil
        failure = nil
        return [.followed(status)]
    }

    private mutating func fail(_ why: String) -> [Report] {
        answerDeadline = nil
        askAgainAt = nil
        guard !roundFailed else { return [] }
        roundFailed = true
        guard why != failure else { return [] }
        failure = why
        return [.failed(why)]
    }
}
