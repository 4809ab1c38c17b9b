import Testing
@testable import FleetConfig

/// The fleet's transitions over every sequence of events up to a length: the state folder a
/// model disk holds after carrying out the effects, and what was confirmed, checked after each
/// step. Equal (state, disk, history) at equal depth have equal futures (the step is a pure
/// function), so each is explored once: every sequence is covered without walking each one.
@Suite struct FleetMachineTests {
    static let confirmSeconds = 60.0

    /// The state folder as the effects leave it: which serial each slot holds.
    struct Disk: Hashable {
        var slots: [FleetStore.Slot: UInt64] = [:]
        var highest: UInt64 = 0

        mutating func apply(_ effects: [FleetEffect]) {
            for effect in effects {
                switch effect {
                case .setHighest(let n): highest = n
                case .storeIncoming(let n): slots[.incoming] = n
                case .incomingToPending: slots[.pending] = slots.removeValue(forKey: .incoming)
                case .promotePending:
                    if let current = slots[.current] { slots[.lastGood] = current }
                    slots[.current] = slots.removeValue(forKey: .pending)
                case .remove(let slot): slots[slot] = nil
                default: break
                }
            }
        }
    }

    /// What the people did: every serial a confirmation was accepted for, in order.
    struct History: Hashable {
        var confirmations: [UInt64] = []
    }

    struct Node: Hashable {
        var state: FleetState
        var disk: Disk
        var history: History
    }

    static func events(_ state: FleetState) -> [FleetEvent] {
        var events: [FleetEvent] = [.taken(serial: state.highest + 1, missingIcons: true), .taken(serial: state.highest + 1, missingIcons: false),
                                    .iconsArrived, .iconsFailed, .built(ok: true), .built(ok: false), .firstFrame(now: 0),
                                    .firstFrameFailed, .tick(now: confirmSeconds), .restart]
        events += (1...7).map { .confirm(serial: $0) }
        return events
    }

    /// The invariants after `event` took `before` to `after`, or what broke.
    static func check(_ before: Node, _ event: FleetEvent, _ effects: [FleetEffect], _ after: Node) -> String? {
        let s = after.state, disk = after.disk
        // The folder says what the state says.
        if disk.slots[.current] != s.confirmed || disk.slots[.lastGood] != s.lastGood || disk.slots[.pending] != s.pending?.serial
            || disk.slots[.incoming] != s.incoming?.serial || disk.highest != s.highest {
            return "the state folder \(disk.slots) disagrees with the state \(s)"
        }
        // A confirmed bundle is one someone confirmed, and the last one confirmed: nothing
        // confirmed is lost, and the one before it is the last good one.
        if s.confirmed != after.history.confirmations.last { return "current is \(String(describing: s.confirmed)), the last confirmed \(after.history.confirmations)" }
        let confirmations = after.history.confirmations
        if confirmations.count >= 2 && s.lastGood != confirmations[confirmations.count - 2] {
            return "last-good is \(String(describing: s.lastGood)), confirmed before the current: \(confirmations)"
        }
        // A pending bundle can always be confirmed, whatever happened to the ones after it.
        if let pending = s.pending {
            let (confirmed, confirming) = FleetMachine.step(s, .confirm(serial: pending.serial), confirmSeconds: confirmSeconds)
            if confirmed.confirmed != pending.serial || !confirming.contains(.promotePending(pending.serial)) {
                return "pending serial \(pending.serial) cannot be confirmed: \(confirming)"
            }
        }
        // Nothing survives a restart unconfirmed, and serials only rise.
        if event == .restart && (s.pending != nil || s.incoming != nil) { return "a restart kept \(s)" }
        if s.highest < before.state.highest { return "the highest serial fell" }
        if let incoming = s.incoming, incoming.serial <= (s.pending?.serial ?? 0) { return "incoming \(incoming.serial) not above pending" }
        return nil
    }

    /// Explores every sequence of up to `depth` events from `node`; returns the first broken
    /// invariant with the events that led to it.
    static func explore(_ node: Node, depth: Int, path: [FleetEvent], seen: inout Set<Node>, visited: inout Int,
                        seenAt: inout [Node: Int]) -> String? {
        guard depth > 0 else { return nil }
        if let done = seenAt[node], done >= depth { return nil }
        seenAt[node] = depth
        for event in events(node.state) {
            visited += 1
            let (state, effects) = FleetMachine.step(node.state, event, confirmSeconds: confirmSeconds)
            var next = Node(state: state, disk: node.disk, history: node.history)
            next.disk.apply(effects)
            if case .confirm(let serial) = event, effects.contains(.promotePending(serial)) { next.history.confirmations.append(serial) }
            if case .firstFrame = event, let serial = effects.lazy.compactMap({ e -> UInt64? in
                if case .promotePending(let n) = e { return n } else { return nil } }).first {
                next.history.confirmations.append(serial)
            }
            if let broken = check(node, event, effects, next) { return broken + " after " + (path + [event]).map { "\($0)" }.joined(separator: ", ") }
            if let broken = explore(next, depth: depth - 1, path: path + [event], seen: &seen, visited: &visited, seenAt: &seenAt) {
                return broken
            }
        }
        return nil
    }

    @Test func everySequenceOfEightEventsKeepsTheInvariants() {
        var seen = Set<Node>(), seenAt: [Node: Int] = [:], visited = 0
        let start = Node(state: FleetState(), disk: Disk(), history: History())
        let broken = Self.explore(start, depth: 8, path: [], seen: &seen, visited: &visited, seenAt: &seenAt)
        #expect(broken == nil, "\(broken ?? "")")
        print("fleet machine: \(seenAt.count) distinct states, \(visited) steps taken")
        #expect(seenAt.count > 50, "\(seenAt.count) states")
    }

    /// The two interleavings that lost a confirmation, spelled out.
    @Test func confirmingWhileTheNextWaitsForItsIconConfirmsTheRunningOne() {
        var s = FleetState(), disk = Disk()
        for event in [FleetEvent.taken(serial: 1, missingIcons: false), .built(ok: true), .firstFrame(now: 0),
                      .taken(serial: 2, missingIcons: true), .confirm(serial: 1), .restart] {
            let (next, effects) = FleetMachine.step(s, event, confirmSeconds: 60)
            disk.apply(effects)
            s = next
        }
        #expect(s.confirmed == 1 && disk.slots[.current] == 1 && disk.slots[.incoming] == nil)
    }

    @Test func aLaterFailedBuildLeavesThePendingOneConfirmable() {
        var s = FleetState()
        for event in [FleetEvent.taken(serial: 1, missingIcons: false), .built(ok: true), .firstFrame(now: 0),
                      .taken(serial: 2, missingIcons: false), .built(ok: false)] {
            s = FleetMachine.step(s, event, confirmSeconds: 60).0
        }
        let (confirmed, effects) = FleetMachine.step(s, .confirm(serial: 1), confirmSeconds: 60)
        #expect(effects == [.promotePending(1), .confirmed(1)])
        #expect(confirmed.confirmed == 1)
        #expect(FleetMachine.step(confirmed, .tick(now: 1000), confirmSeconds: 60).1 == [])
    }

    @Test func aConfirmationOfTheWrongSerialSaysWhichWaits() {
        var s = FleetState()
        for event in [FleetEvent.taken(serial: 4, missingIcons: false), .built(ok: true)] { s = FleetMachine.step(s, event, confirmSeconds: 60).0 }
        #expect(FleetMachine.step(s, .confirm(serial: 3), confirmSeconds: 60).1
                == [.rejected("no configuration with serial 3 waits for confirmation (serial 4 does)")])
    }
}
