import Glibc

/// What a scan of the machine's cards found: the cards that could be opened and probed, and
/// the error of each that could not.
public struct CardScan {
    public var cards: [(card: DRMCard, probed: ProbedCard)]
    public var failures: [DisplayError]

    /// Discovers cards through udev (or only `device`), opens and probes each one. A udev
    /// failure is thrown as it is: it is not the same as a machine without cards.
    public static func run(device: String? = nil,
                           discover: () throws(DisplayError) -> [String] = CardDiscovery.cardPaths) throws(DisplayError) -> CardScan {
        var paths: [String]
        if let device { paths = [device] } else { paths = try discover() }
        var scan = CardScan(cards: [], failures: [])
        for path in paths {
            do throws(DisplayError) {
                let card = try DRMCard(path: path)
                scan.cards.append((card, try CardProbe.probe(card)))
            } catch {
                // A --device that does not exist is the same as no device.
                if device != nil && error.code == ENOENT { return scan }
                scan.failures.append(error)
            }
        }
        return scan
    }

    /// Closes every card not chosen.
    func closeAll(except keep: String? = nil) {
        for c in cards where c.card.path != keep { c.card.close() }
    }
}
