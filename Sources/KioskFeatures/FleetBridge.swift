import FleetConfig
import KioskConfiguration
import KioskReporting

/// The kiosk's side of fleet configuration (the `fleet:` section): which pushed bundle runs,
/// which one waits for its confirmation and until when, the highest serial taken, and what
/// `<base>/config/state` says. Plain state changed by the service on the loop; the checks are
/// `FleetAcceptance`'s, the files `FleetStore`'s.
package final class FleetBridge {
    package enum Status: String, Sendable {
        case pending, confirmed, reverted, refused
    }

    package let settings: FleetSettings
    package let store: FleetStore
    package let clientID: String
    private let keys: [MinisignPublicKey]
    private let logger: JournalLogger
    /// Which serial is where (the state folder's slots, the confirmation's deadline); changed
    /// only by `FleetMachine.step`, whose effects `run` carries out.
    package private(set) var state: FleetState
    /// The bytes and checked content of each serial the state names.
    private var held: [UInt64: Held] = [:]
    private struct Held {
        var bytes: [UInt8]
        var bundle: ConfigBundle
        var accepted: FleetAcceptance.Accepted?
    }
    /// The icon blobs the incoming bundle still waits for, and until when.
    private var missing: [String] = []
    private var fetchDeadline: Double = 0
    /// The latest bundle that came while another was being taken; offered when that one is done.
    package private(set) var queued: [UInt8]?
    /// False when the stored serial was unreadable (then every bundle is refused until
    /// `config reset` and a restart: a replay is worse than none).
    private let serialReadable: Bool
    /// What `<base>/config/state` reports about the last bundle offered.
    package private(set) var lastStatus: Status?
    package private(set) var offered: UInt64?
    package private(set) var reason: String?

    package init(settings: FleetSettings, store: FleetStore, clientID: String, keys: [MinisignPublicKey],
                 startup: FleetStartup, logger: JournalLogger) {
        self.settings = settings
        self.store = store
        self.clientID = clientID
        self.keys = keys
        self.logger = logger
        var highest: UInt64 = 0
        do { highest = try store.highestSerial() } catch { logger.error("fleet: \(error)") }
        serialReadable = (try? store.highestSerial()) != nil
        state = FleetState(confirmed: startup.bundle?.serial, highest: highest)
        if let bundle = startup.bundle { held[bundle.serial] = Held(bytes: bundle.encoded, bundle: bundle, accepted: nil) }
        if let dropped = startup.droppedPending {
            lastStatus = .reverted
            offered = dropped
            reason = "the kiosk stopped before serial \(dropped) was confirmed"
        } else if let bundle = startup.bundle {
            lastStatus = .confirmed
            offered = bundle.serial
        }
    }

    /// The confirmed pushed bundle that runs (nil: the local file's configuration).
    package var confirmed: ConfigBundle? { state.confirmed.flatMap { held[$0]?.bundle } }
    /// Running but not confirmed: reverted at `deadline` unless confirmed. The deadline is
    /// nil until the new menu's first frame is on the glass (the wait counts from there).
    package var pending: (bundle: ConfigBundle, deadline: Double?)? {
        state.pending.flatMap { p in held[p.serial].map { ($0.bundle, p.deadline) } }
    }
    /// Taken and being built (icons, painter) off the loop; stored as `incoming.bundle`.
    package var building: ConfigBundle? {
        state.incoming.flatMap { $0.phase == .building ? held[$0.serial]?.bundle : nil }
    }
    /// Taken and stored as `incoming.bundle`, waiting until `deadline` for the icon blobs it
    /// names that the state folder does not have (`missing`, SHA-256 in hex).
    package var fetching: (accepted: FleetAcceptance.Accepted, missing: [String], deadline: Double)? {
        guard let incoming = state.incoming, incoming.phase == .fetching, let accepted = held[incoming.serial]?.accepted else { return nil }
        return (accepted, missing, fetchDeadline)
    }
    /// Bundles up to this serial are refused; nil when the stored serial was unreadable.
    package var highest: UInt64? { serialReadable ? state.highest : nil }

    /// The bundle whose configuration runs now (or is about to, once built).
    package var active: ConfigBundle? { building ?? pending?.bundle ?? confirmed }

    /// `event` through `FleetMachine.step`, its effects on the state folder carried out in
    /// order; the state moves on only when they all were (a file that cannot be written
    /// leaves it as it was). Returns the effects for the caller's reports.
    @discardableResult
    private func run(_ event: FleetEvent) throws(FleetError) -> [FleetEffect] {
        let (next, effects) = FleetMachine.step(state, event, confirmSeconds: settings.confirmSeconds)
        for effect in effects {
            switch effect {
            case .setHighest(let serial): try store.setHighestSerial(serial)
            case .storeIncoming(let serial):
                guard let bytes = held[serial]?.bytes else { throw FleetError("serial \(serial): its bytes are gone") }
                try store.store(bytes, in: .incoming)
            case .incomingToPending: try store.incomingToPending()
            case .promotePending: try store.promotePending(confirmedBytes: state.confirmed.flatMap { held[$0]?.bytes })
            case .remove(let slot): try store.remove(slot)
            case .fetchIcons, .build, .runConfirmed, .refused, .reverted, .confirmed, .rejected, .queue: break
            }
        }
        state = next
        let kept = Set([next.confirmed, next.pending?.serial, next.incoming?.serial].compactMap { $0 })
        held = held.filter { kept.contains($0.key) }
        return effects
    }

    /// The running configuration for a freshly read local file: the active bundle's sections
    /// over it (the local file when none, or when the bundle no longer fits the local file).
    package func overlay(local: KioskConfig) -> KioskConfig {
        guard let active else { return local }
        switch FleetAcceptance.content(active, local: local, allowCommands: settings.allowCommands, blobDirectory: store.blobDirectory) {
        case .success(let config): return config
        case .failure(let refusal):
            logger.warning("fleet: serial \(active.serial) does not fit the local file any more (\(refusal)); running the local file")
            return local
        }
    }

    /// What became of a bundle offered.
    package enum Offer {
        /// Taken and stored as pending: build and swap in this configuration (the local
        /// sections already merged in), then call `built`.
        case take(KioskConfig, serial: UInt64)
        /// Refused; the state changed (report it).
        case refused
        /// Nothing to report (the running bundle seen again, or queued behind a build).
        case ignored
        /// Taken and stored as pending; fetch these icon blobs (SHA-256 in hex) and hand each
        /// to `blobArrived`.
        case fetch([String])
    }

    /// A bundle arrived (`<base>/set/config` or the fleet topic; `bytes` not yet decoded).
    package func offer(_ bytes: [UInt8], local: KioskConfig, now: Double = 0) -> Offer {
        if state.incoming != nil {
            queued = bytes
            return .ignored
        }
        guard let highest else { return refuse(nil, "the stored highest serial is unreadable; run 'dialkiosk config reset'") }
        // The running or pending bundle retained on the broker comes back at every connect.
        if let b = try? ConfigBundle.parse(bytes).get(), b.serial == active?.serial, b.encoded == active?.encoded { return .ignored }
        let decided = FleetAcceptance.decide(bytes, trustedKeys: keys, highestSerial: highest, clientID: clientID,
                                             local: local, allowCommands: settings.allowCommands,
                                             blobDirectory: store.blobDirectory)
        switch decided {
        case .failure(let refusal):
            return refuse((try? ConfigBundle.parse(bytes).get())?.serial, refusal.description)
        case .success(let accepted):
            let serial = accepted.bundle.serial
            let missing = accepted.blobs.filter { !store.hasBlob($0) }
            held[serial] = Held(bytes: bytes, bundle: accepted.bundle, accepted: accepted)
            do {
                // The serial first: killed after this, the bundle counts as taken (and dropped).
                try run(.taken(serial: serial, missingIcons: !missing.isEmpty))
            } catch {
                held[serial] = nil
                return refuse(serial, "cannot store it: \(error)")
            }
            offered = serial
            if !missing.isEmpty {
                (self.missing, fetchDeadline) = (missing, now + settings.blobWaitSeconds)
                logger.info("fleet: serial \(serial) taken; waiting for \(missing.count) icon blob\(missing.count == 1 ? "" : "s")")
                return .fetch(missing)
            }
            logger.info("fleet: serial \(serial) taken; building it")
            return .take(accepted.config, serial: serial)
        }
    }

    /// An icon blob of `length` bytes came (`payload` nil: over its bound, never copied).
    /// Checked against its name, kept in the state folder; the last one missing makes the
    /// bundle `take`n. A blob with the wrong bytes refuses the bundle at once.
    package func blobArrived(_ sha256: String, payload: [UInt8]?, length: Int? = nil) -> Offer {
        guard let fetch = fetching, let index = missing.firstIndex(of: sha256) else { return .ignored }
        guard let payload, payload.count <= ConfigBundle.maxBlobBytes else {
            let bytes = payload?.count ?? length ?? ConfigBundle.maxBlobBytes + 1
            return failFetch(FleetRefusal.blobTooLarge(sha256: sha256, bytes: bytes).description)
        }
        let got = (try? Sodium.sha256Hex(payload)) ?? "unknown (libsodium)"
        guard got == sha256 else { return failFetch(FleetRefusal.blobHash(expected: sha256, got: got).description) }
        do { try store.storeBlob(payload, sha256: sha256) } catch {
            return failFetch("cannot store blob sha256:\(sha256): \(error)")
        }
        missing.remove(at: index)
        guard missing.isEmpty else { return .ignored }
        try? run(.iconsArrived)
        logger.info("fleet: serial \(fetch.accepted.bundle.serial): its icon blobs came; building it")
        return .take(fetch.accepted.config, serial: fetch.accepted.bundle.serial)
    }

    /// The blobs did not all come in time: the bundle is refused (true).
    package func blobsOverdue(now: Double) -> Bool {
        guard fetching != nil, now >= fetchDeadline else { return false }
        _ = failFetch(FleetRefusal.blobsMissing(missing, seconds: settings.blobWaitSeconds).description)
        return true
    }

    private func failFetch(_ why: String) -> Offer {
        guard let fetch = fetching else { return .ignored }
        missing = []
        if (try? run(.iconsFailed)) == nil { logger.error("fleet: cannot remove \(store.path(.incoming))") }
        return refuse(fetch.accepted.bundle.serial, why)
    }

    /// The build of `building` ended: it runs now and waits for its first frame (then
    /// `firstFrameShown` starts the confirmation's wait), or it failed and is refused; a
    /// pending bundle stays as it was either way until this one runs.
    package func built(_ failure: String?, now: Double) {
        guard let bundle = building else { return }
        if let failure {
            if (try? run(.built(ok: false))) == nil { logger.error("fleet: cannot remove \(store.path(.incoming))") }
            _ = refuse(bundle.serial, FleetRefusal.build(failure).description)
            return
        }
        let replaced = state.pending?.serial
        do { try run(.built(ok: true)) } catch {
            _ = try? run(.built(ok: false))
            _ = refuse(bundle.serial, "cannot store it: \(error)")
            return
        }
        if let replaced { logger.info("fleet: serial \(replaced) was replaced by \(bundle.serial) before its confirmation") }
        (lastStatus, offered, reason) = (.pending, bundle.serial, nil)
    }

    /// The pending configuration's first frame is on the glass at `now`: the wait for its
    /// confirmation starts (confirmed at once when confirm_seconds is 0). False when no pushed
    /// configuration waited for its first frame.
    package func firstFrameShown(now: Double) -> Bool {
        guard let pending = state.pending, pending.deadline == nil else { return false }
        do {
            if try run(.firstFrame(now: now)).contains(.confirmed(pending.serial)) { noteConfirmed(pending.serial) }
        } catch {
            logger.error("fleet: cannot store the confirmation of serial \(pending.serial): \(error)")
        }
        return true
    }

    /// The first frame of the configuration being built or just swapped in failed: it is
    /// refused at once (true: the caller puts the confirmed one back); false when no pushed
    /// configuration waited for its first frame.
    package func firstFrameFailed(_ why: String) -> Bool {
        let effects: [FleetEffect]
        do { effects = try run(.firstFrameFailed) } catch {
            logger.error("fleet: \(error)")
            return false
        }
        for case .refused(let serial) in effects {
            _ = refuse(serial, FleetRefusal.firstFrame(why).description)
            return true
        }
        return false
    }

    /// `confirm N`: the pending bundle N becomes the confirmed one. nil, or why not.
    package func confirm(_ serial: UInt64) -> String? {
        let effects: [FleetEffect]
        do { effects = try run(.confirm(serial: serial)) } catch {
            return "cannot store the confirmation: \(error)"
        }
        for case .rejected(let why) in effects { return why }
        if effects.contains(.confirmed(serial)) { noteConfirmed(serial) }
        return nil
    }

    private func noteConfirmed(_ serial: UInt64) {
        (lastStatus, offered, reason) = (.confirmed, serial, nil)
        logger.info("fleet: serial \(serial) confirmed")
    }

    /// When the pending bundle is reverted unless confirmed, or the incoming one's icons are overdue.
    package var nextDeadline: Double? {
        [state.pending?.deadline, fetching.map { _ in fetchDeadline }].compactMap { $0 }.min()
    }

    /// The deadline passed: the pending bundle goes (the caller reloads the confirmed one).
    package func revertIfDue(now: Double) -> Bool {
        let effects: [FleetEffect]
        do { effects = try run(.tick(now: now)) } catch {
            logger.error("fleet: \(error)")
            return false
        }
        for case .reverted(let serial) in effects {
            (lastStatus, offered, reason) = (.reverted, serial, "not confirmed within \(FleetBridge.seconds(settings.confirmSeconds)) s")
            logger.warning("fleet: serial \(serial) was not confirmed in time; back to "
                           + (confirmed.map { "serial \($0.serial)" } ?? "the local file"))
            return true
        }
        return false
    }

    /// Takes the bundle that waited for a build to end.
    package func takeQueued() -> [UInt8]? {
        defer { queued = nil }
        return queued
    }

    /// A bundle the broker link did not copy: it was over the bound.
    package func refuseOversized(bytes: Int) -> Offer {
        refuse(nil, FleetRefusal.tooLarge(bytes: bytes, limit: ConfigBundle.maxBytes).description)
    }

    private func refuse(_ serial: UInt64?, _ why: String) -> Offer {
        (lastStatus, offered, reason) = (.refused, serial, why)
        // Anyone on the broker can send bundles at will: a refusal for the same reason as the
        // last is counted, not logged; the next different one says how many there were.
        let line = "fleet: bundle\(serial.map { " serial \($0)" } ?? "") refused: \(why); the running configuration stays"
        if why == lastRefusal.why {
            lastRefusal.repeats += 1
        } else {
            let repeats = lastRefusal.repeats
            logger.warning(line + (repeats > 0 ? " (the previous refusal came \(repeats) more times)" : ""))
            lastRefusal = (why, 0)
        }
        return .refused
    }

    private var lastRefusal: (why: String?, repeats: Int) = (nil, 0)

    // MARK: reporting

    /// The retained `<base>/config/state`.
    package var stateLine: EventLine {
        let running = pending?.bundle ?? confirmed
        let sha = running.flatMap { try? Sodium.sha256Hex($0.config) }
        return EventLine([
            ("serial", running.map { .int(Int($0.serial)) } ?? .null),
            ("sha256", sha.map { .string($0) } ?? .null),
            ("status", lastStatus.map { .string($0.rawValue) } ?? .null),
            ("offered", offered.map { .int(Int($0)) } ?? .null),
            ("reason", reason.map { .string($0) } ?? .null),
            ("source", .string(running == nil ? "local" : "fleet")),
        ])
    }

    /// The `config` event line of the last change.
    package func eventLine(now: Double) -> EventLine {
        EventLine([
            ("t", .number(now)), ("event", .event(.config)),
            ("serial", offered.map { .int(Int($0)) } ?? .null),
            ("status", lastStatus.map { .string($0.rawValue) } ?? .null),
            ("reason", reason.map { .string($0) } ?? .null),
        ])
    }

    static func seconds(_ s: Double) -> String { s.rounded() == s ? String(Int(s)) : String(s) }
}
