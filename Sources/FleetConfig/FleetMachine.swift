/// Which pushed bundle is where, as serials: the state folder's slots and the kiosk's wait for
/// a confirmation. `FleetMachine.step` is the one place it changes; the bridge carries out the
/// effects (files, builds, fetches) and keeps each serial's bytes.
package struct FleetState: Hashable, Sendable {
    package enum Phase: Hashable, Sendable {
        /// Waiting for icon blobs it names that the state folder does not have.
        case fetching
        /// Being built (icons, painter) off the loop.
        case building
    }

    /// `current.bundle`: the confirmed bundle that runs (nil: the local file).
    package var confirmed: UInt64?
    /// `last-good.bundle`: the one confirmed before it.
    package var lastGood: UInt64?
    /// `pending.bundle`: built and running, not confirmed; its deadline is nil until its first
    /// frame is on the glass (the wait counts from there).
    package var pending: (serial: UInt64, deadline: Double?)? {
        get { pendingSerial.map { ($0, pendingDeadline) } }
        set { (pendingSerial, pendingDeadline) = (newValue?.serial, newValue?.deadline) }
    }
    /// `incoming.bundle`: taken, not built yet. Kept apart from `pending` so that neither
    /// confirming the running one nor this one failing touches the other.
    package var incoming: (serial: UInt64, phase: Phase)? {
        get { incomingSerial.map { ($0, incomingPhase ?? .building) } }
        set { (incomingSerial, incomingPhase) = (newValue?.serial, newValue?.phase) }
    }
    /// `highest-serial`: bundles up to it are refused.
    package var highest: UInt64

    private var pendingSerial: UInt64?
    private var pendingDeadline: Double?
    private var incomingSerial: UInt64?
    private var incomingPhase: Phase?

    package init(confirmed: UInt64? = nil, lastGood: UInt64? = nil, highest: UInt64 = 0) {
        self.confirmed = confirmed
        self.lastGood = lastGood
        self.highest = highest
    }
}

/// What happens to the fleet's state.
package enum FleetEvent: Hashable, Sendable {
    /// A bundle passed every check of `FleetAcceptance` but the serial's; `missingIcons`: it
    /// names icon blobs the state folder does not have.
    case taken(serial: UInt64, missingIcons: Bool)
    /// The last icon blob the incoming bundle waited for came.
    case iconsArrived
    /// An icon blob came with other bytes, too large, or not within the wait.
    case iconsFailed
    /// The incoming bundle's build ended.
    case built(ok: Bool)
    /// The pending bundle's first frame is on the glass at `now`.
    case firstFrame(now: Double)
    /// The first frame of the bundle being built or just swapped in failed.
    case firstFrameFailed
    /// Someone confirmed `serial` (control socket, MQTT, or confirm_seconds 0 at its first frame).
    case confirm(serial: UInt64)
    /// The clock reached `now`: a pending bundle past its deadline is reverted.
    case tick(now: Double)
    /// The kiosk started again (after a stop, a crash or a power cut).
    case restart
}

/// What the bridge must do, in order.
package enum FleetEffect: Hashable, Sendable {
    /// Write `highest-serial` (before the bundle: killed after this, it counts as taken).
    case setHighest(UInt64)
    /// Write the bundle's bytes as `incoming.bundle`.
    case storeIncoming(UInt64)
    /// Ask for the icon blobs it names.
    case fetchIcons(UInt64)
    /// Build its configuration (like a reload) and report `built`.
    case build(UInt64)
    /// `incoming.bundle` becomes `pending.bundle` (rename), over a pending one it replaces.
    case incomingToPending(replacing: UInt64?)
    /// The confirmed bundle's bytes become `last-good.bundle`, `pending.bundle` becomes
    /// `current.bundle` (rename).
    case promotePending(UInt64)
    case remove(FleetStore.Slot)
    /// Put the confirmed configuration (or the local file) back on the glass.
    case runConfirmed
    /// The bundle is refused (the reason is the caller's: it knows what failed).
    case refused(UInt64)
    /// `pending` was reverted: not confirmed within confirm_seconds.
    case reverted(UInt64)
    case confirmed(UInt64)
    /// The event does not apply now: why, in words (a confirmation of the wrong serial).
    case rejected(String)
    /// A bundle came while another is being taken: it waits until that one is done.
    case queue(UInt64)
}

/// The fleet's transitions: a pure function of the state and one event.
package enum FleetMachine {
    package static func step(_ state: FleetState, _ event: FleetEvent, confirmSeconds: Double) -> (FleetState, [FleetEffect]) {
        var s = state
        switch event {
        case .taken(let serial, let missingIcons):
            if s.incoming != nil { return (s, [.queue(serial)]) }
            guard serial > s.highest else { return (s, [.rejected("serial \(serial) is not above \(s.highest), the highest taken")]) }
            s.highest = serial
            s.incoming = (serial, missingIcons ? .fetching : .building)
            return (s, [.setHighest(serial), .storeIncoming(serial), missingIcons ? .fetchIcons(serial) : .build(serial)])

        case .iconsArrived:
            guard let incoming = s.incoming, incoming.phase == .fetching else { return (s, []) }
            s.incoming = (incoming.serial, .building)
            return (s, [.build(incoming.serial)])

        case .iconsFailed:
            guard let incoming = s.incoming, incoming.phase == .fetching else { return (s, []) }
            s.incoming = nil
            return (s, [.remove(.incoming), .refused(incoming.serial)])

        case .built(let ok):
            guard let incoming = s.incoming, incoming.phase == .building else { return (s, []) }
            s.incoming = nil
            // A failure leaves a pending bundle as it was: still running, still confirmable.
            guard ok else { return (s, [.remove(.incoming), .refused(incoming.serial)]) }
            let replaced = s.pending?.serial
            s.pending = (incoming.serial, nil)
            return (s, [.incomingToPending(replacing: replaced)])

        case .firstFrame(let now):
            guard let pending = s.pending, pending.deadline == nil else { return (s, []) }
            s.pending = (pending.serial, now + confirmSeconds)
            if confirmSeconds == 0 { return step(s, .confirm(serial: pending.serial), confirmSeconds: confirmSeconds) }
            return (s, [])

        case .firstFrameFailed:
            if let incoming = s.incoming, incoming.phase == .building {
                s.incoming = nil
                return (s, [.remove(.incoming), .refused(incoming.serial)])
            }
            guard let pending = s.pending, pending.deadline == nil else { return (s, []) }
            s.pending = nil
            return (s, [.remove(.pending), .refused(pending.serial), .runConfirmed])

        case .confirm(let serial):
            if let pending = s.pending, pending.serial == serial {
                if let confirmed = s.confirmed { s.lastGood = confirmed }
                s.confirmed = serial
                s.pending = nil
                return (s, [.promotePending(serial), .confirmed(serial)])
            }
            if s.confirmed == serial && s.pending == nil { return (s, []) }
            if let incoming = s.incoming, incoming.serial == serial {
                return (s, [.rejected("serial \(serial) is not running yet (" + (incoming.phase == .fetching ? "its icons" : "it")
                                      + " still \(incoming.phase == .fetching ? "come" : "builds")); confirm it once it shows")])
            }
            return (s, [.rejected("no configuration with serial \(serial) waits for confirmation"
                                  + (s.pending.map { " (serial \($0.serial) does)" } ?? ""))])

        case .tick(let now):
            guard let pending = s.pending, let deadline = pending.deadline, now >= deadline else { return (s, []) }
            s.pending = nil
            return (s, [.remove(.pending), .reverted(pending.serial), .runConfirmed])

        case .restart:
            // Neither a pending nor an incoming bundle survives a stop: nobody confirmed them.
            var effects: [FleetEffect] = []
            if s.pending != nil { effects.append(.remove(.pending)) }
            if s.incoming != nil { effects.append(.remove(.incoming)) }
            s.pending = nil
            s.incoming = nil
            return (s, effects)
        }
    }
}
