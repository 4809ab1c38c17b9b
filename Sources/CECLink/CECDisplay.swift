import Glibc
import LinuxSystem

/// The display behind an HDMI output with CEC: one adapter, claimed as a playback device, and
/// the power link's decisions carried out on it. Every call returns at once (the adapter is
/// non-blocking); the loop polls `pollDescriptor` and calls `serve`, and wakes at `wakeUp`
/// for the power status's deadline.
package final class CECDisplay {
    /// The kiosk's name on the bus (the TV's source list shows it).
    package static let osdName = "DialKiosk"
    /// Messages and events taken per `serve`: bounded work per loop turn.
    static let perTurn = 32

    package let adapter: CECAdapter
    package private(set) var link: CECPowerLink
    private let log: (String) -> Void

    init(adapter: CECAdapter, physicalAddress: CECPhysicalAddress, log: @escaping (String) -> Void) {
        self.adapter = adapter
        self.link = CECPowerLink(physicalAddress: physicalAddress)
        self.log = log
    }

    /// Opens `path` (nil: the first adapter with a physical address other than 0.0.0.0 that
    /// no other program has configured or holds), becomes its only initiator and starts the
    /// claim of a playback logical address.
    package static func open(_ path: String?, devDirectory: String = "/dev",
                            log: @escaping (String) -> Void) throws(CECError) -> CECDisplay {
        let candidates = path.map { [$0] } ?? CECAdapterChoice.nodes(in: devDirectory)
        var refusals: [String] = []
        for candidate in candidates {
            do {
                let adapter = try CECAdapter(path: candidate)
                let caps = try adapter.capabilities()
                let address = try adapter.physicalAddress()
                let configured = try adapter.logicalAddresses().requested
                if let why = CECAdapterChoice.refusal(address: address, configuredByOthers: configured, capabilities: caps) {
                    refusals.append("\(candidate): \(why)")
                    continue
                }
                try adapter.becomeExclusiveInitiator()
                try adapter.claimPlayback(osdName: osdName)
                log("cec: \(candidate) (\(caps.driver) \(caps.name)), physical address \(address); claiming a playback address")
                return CECDisplay(adapter: adapter, physicalAddress: address, log: log)
            } catch {
                refusals.append("\(error)")
            }
        }
        let why = refusals.isEmpty ? "no /dev/cec* adapter" : refusals.joined(separator: "; ")
        throw CECError(.open(path ?? "\(devDirectory)/cec*: \(why)"), code: ENODEV)
    }

    package var pollDescriptor: Int32 { adapter.pollDescriptor }

    /// When the loop must call `serve` even without a message: the power status's deadline.
    package func wakeUp() -> Double? { link.wakeUp }

    /// The screen lit (`true`) or went dark: the messages that tell the TV, sent now.
    package func want(on: Bool, now: Double) -> [CECPowerLink.Report] {
        let (send, reports) = link.want(on ? .on : .off, now: now)
        return carryOut(send) + reports
    }

    /// Drains the adapter's events and messages (bounded per turn) and checks the deadline.
    package func serve(now: Double) -> [CECPowerLink.Report] {
        var reports: [CECPowerLink.Report] = []
        for _ in 0..<Self.perTurn {
            let event: CECEvent?
            do { event = try adapter.dequeueEvent() } catch {
                log("warning: cec: \(error)")
                break
            }
            guard let event else { break }
            switch event {
            case .stateChange(let address, let mask):
                if address != link.physicalAddress && address.isSource { link.physicalAddress = address }
                let claimed = Self.playbackAddress(in: mask)
                if claimed != link.logicalAddress {
                    log(claimed.map { "cec: logical address \($0) claimed (physical \(address))" }
                        ?? "cec: no logical address (physical \(address))")
                }
                let (send, more) = link.claimed(claimed, now: now)
                reports += carryOut(send) + more
            case .lostMessages(let count):
                log("warning: cec: the kernel dropped \(count) received messages")
            case .other:
                break
            }
        }
        for _ in 0..<Self.perTurn {
            let received: CECReceived?
            do { received = try adapter.receive() } catch {
                log("warning: cec: \(error)")
                break
            }
            guard let received else { break }
            if received.isTransmitResult {
                reports += link.result(sequence: received.sequence, acknowledged: received.acknowledged,
                                       replyTimedOut: received.replyTimedOut, aborted: received.featureAborted,
                                       reply: received.replyReceived ? received.message : nil, now: now)
            } else if let message = received.message {
                let (send, more) = link.received(message, now: now)
                reports += carryOut(send) + more
            }
        }
        let (send, more) = link.tick(now: now)
        return reports + carryOut(send) + more
    }

    private func carryOut(_ outgoing: [CECPowerLink.Outgoing]) -> [CECPowerLink.Report] {
        var reports: [CECPowerLink.Report] = []
        for out in outgoing {
            do {
                let sequence = try adapter.transmit(out.message, reply: out.reply, timeoutMilliseconds: out.timeoutMilliseconds)
                link.queued(out, sequence: sequence)
                log("cec: sent \(out.message)")
            } catch {
                // The kernel's refusal (ENONET: no logical address; EINVAL; ENODEV: unplugged).
                reports += link.refused(out, why: "\(error)")
            }
        }
        return reports
    }

    /// The playback logical address (4, 8, 9 or 11) in a claimed mask; nil when none.
    static func playbackAddress(in mask: UInt16) -> UInt8? {
        [4, 8, 9, 11].first { mask & (1 << $0) != 0 }.map(UInt8.init)
    }
}

/// Which adapter `power.cec: true` takes, as rules on what was probed.
package enum CECAdapterChoice {
    /// /dev/cec0, /dev/cec1, ... in number order.
    package static func nodes(in directory: String) -> [String] {
        guard let dir = opendir(directory) else { return [] }
        defer { closedir(dir) }
        var numbers: [Int] = []
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if name.hasPrefix("cec"), let n = Int(name.dropFirst(3)) { numbers.append(n) }
        }
        return numbers.sorted().map { "\(directory)/cec\($0)" }
    }

    /// Why an adapter is not the kiosk's (nil: it is): the TV's own adapter (0.0.0.0), an output
    /// with nothing plugged in (f.f.f.f), one another program configured, or one that cannot send.
    package static func refusal(address: CECPhysicalAddress, configuredByOthers: Int, capabilities: CECCapabilities) -> String? {
        if !capabilities.canTransmit { return "cannot transmit" }
        if address.rawValue == 0 { return "physical address 0.0.0.0 (a TV's own adapter)" }
        if address == .invalid { return "no physical address (nothing connected)" }
        if configuredByOthers > 0 { return "another program configured its logical addresses" }
        return nil
    }
}

/// What `list-outputs` says of the CEC adapters: each one's node, physical address and the
/// DRM connector it belongs to (where the driver tells).
package struct CECAdapterListing: Sendable, Equatable {
    package var path: String
    package var name: String
    package var physicalAddress: CECPhysicalAddress
    /// The DRM card number (cardN) and connector id; nil when the driver does not say.
    package var card: UInt32?
    package var connectorID: UInt32?

    package init(path: String, name: String, physicalAddress: CECPhysicalAddress, card: UInt32?, connectorID: UInt32?) {
        self.path = path
        self.name = name
        self.physicalAddress = physicalAddress
        self.card = card
        self.connectorID = connectorID
    }

    /// Every /dev/cecN that opens, probed without claiming anything.
    package static func probe(devDirectory: String = "/dev") -> [CECAdapterListing] {
        CECAdapterChoice.nodes(in: devDirectory).compactMap { path in
            guard let adapter = try? CECAdapter(path: path) else { return nil }
            defer { adapter.close() }
            guard let caps = try? adapter.capabilities() else { return nil }
            let address = (try? adapter.physicalAddress()) ?? .invalid
            let drm = caps.hasConnectorInfo ? (try? adapter.drmConnector()) ?? nil : nil
            return CECAdapterListing(path: path, name: caps.name, physicalAddress: address,
                                     card: drm?.card, connectorID: drm?.connectorID)
        }
    }
}
