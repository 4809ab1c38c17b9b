import KioskSeams

/// Why `dialkiosk run` could not get an output.
public enum OutputOpenError: Error, Sendable {
    /// The choice rules found nothing suitable.
    case choice(OutputChoiceError)
    /// A card could not be found, opened, probed, mastered or set up.
    case display(DisplayError)
}

/// Scan, choose, become master, create the buffers.
public enum OutputOpener {
    /// `api`: `--kms-api`. `discover` lists the card nodes when no `device` is given (udev; tests pass their own).
    public static func open(device: String?, connector: String?, mode: ModeRequest?, bufferCount: Int = 2,
                            api: KMSAPI.Request = .auto,
                            discover: () throws(DisplayError) -> [String] = CardDiscovery.cardPaths)
        throws(OutputOpenError) -> KMSDisplay {
        let scan: CardScan
        do throws(DisplayError) { scan = try CardScan.run(device: device, discover: discover) } catch {
            throw .display(error)
        }
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
        do throws(DisplayError) {
            try chosen.card.becomeMaster()
            let display = try KMSDisplay(card: chosen.card, probed: chosen.probed, selection: selection,
                                         bufferCount: bufferCount, api: api)
            display.modeRequest = mode
            return display
        } catch {
            chosen.card.close()
            throw .display(error)
        }
    }
}
