import DialCore
#if canImport(Glibc)
import Glibc
#endif

/// What a scan of the machine's cards found: the cards that could be opened and probed, and
/// the error of each that could not.
public struct CardScan {
    public var cards: [(card: DRMCard, probed: ProbedCard)]
    public var failures: [DisplayError]

    /// Discovers cards through udev (or only `device`), opens and probes each one.
    public static func run(device: String? = nil) throws -> CardScan {
        var paths: [String]
        if let device {
            paths = [device]
        } else {
            paths = (try? CardDiscovery.cardPaths()) ?? []
        }
        var scan = CardScan(cards: [], failures: [])
        for path in paths {
            do {
                let card = try DRMCard(path: path)
                scan.cards.append((card, try CardProbe.probe(card)))
            } catch let e as DisplayError {
                // A --device that does not exist is the same as no device.
                if device != nil && e.code == ENOENT { return scan }
                scan.failures.append(e)
            }
        }
        return scan
    }

    /// Closes every card not chosen.
    func closeAll(except keep: String? = nil) {
        for c in cards where c.card.path != keep { c.card.close() }
    }
}

/// Why `dialkiosk run` could not get an output.
public enum OutputOpenError: Error, Sendable {
    /// The choice rules found nothing suitable.
    case choice(OutputChoiceError)
    /// A card could not be opened, probed, mastered or set up.
    case display(DisplayError)
}

/// Scan, choose, become master, create the buffers.
public enum OutputOpener {
    public static func open(device: String?, connector: String?, mode: ModeRequest?,
                            bufferCount: Int = 2) throws(OutputOpenError) -> KMSDisplay {
        let scan: CardScan
        do { scan = try CardScan.run(device: device) } catch let e as DisplayError {
            throw .display(e)
        } catch { throw .display(DisplayError(.udev("scan devices"), code: EIO)) }
        let infos = scan.cards.map(\.probed.info)
        let selection: OutputSelection
        switch OutputSelection.choose(from: infos, device: device, connector: connector, mode: mode) {
        case .success(let s): selection = s
        case .failure(let e):
            scan.closeAll()
            // A card we could not open explains "nothing found" better than the rule does.
            if let first = scan.failures.first {
                switch e {
                case .noDevice, .noConnectedOutput, .deviceNotFound: throw .display(first)
                default: break
                }
            }
            throw .choice(e)
        }
        scan.closeAll(except: selection.card.path)
        guard let chosen = scan.cards.first(where: { $0.card.path == selection.card.path }) else {
            throw .choice(.noDevice)
        }
        do {
            try chosen.card.becomeMaster()
            return try KMSDisplay(card: chosen.card, probed: chosen.probed, selection: selection,
                                  bufferCount: bufferCount)
        } catch let e as DisplayError {
            chosen.card.close()
            throw .display(e)
        } catch {
            chosen.card.close()
            throw .display(DisplayError(.present, code: EIO))
        }
    }
}

/// Watches udev for `change` events of the display's card and re-probes it: the hotplug side
/// of the display, polled as its own descriptor.
public final class HotplugWatcher: DisplayEventSource {
    private let monitor: HotplugMonitor
    private unowned let display: KMSDisplay

    public init(display: KMSDisplay) throws {
        self.display = display
        monitor = try HotplugMonitor()
    }

    public var pollDescriptor: Int32 { monitor.fd }

    public func drainDisplayEvents() throws -> [DisplayEvent] {
        let path = display.selection.card.path
        switch monitor.drainChanges(devnode: path) {
        case .nothing: return []
        case .changed: return try display.reprobe()
        case .removed:
            // The descriptor will never answer again: leave (status 69) so the service manager
            // starts us afresh and we find whatever card comes back.
            throw DisplayError(.cardRemoved(path: path), code: ENODEV)
        }
    }

    public func close() { monitor.close() }
}
