import Glibc
import Testing
@testable import KioskSeams
@testable import KMSOutput

/// Scans and opens that fail before any card is touched: no /dev/dri is needed.
@Suite struct CardScanTests {
    private static let udevFailure = DisplayError(.udev("scan devices"), code: ENOMEM)

    @Test func aUdevFailureIsNotTheSameAsNoCards() {
        #expect(throws: Self.udevFailure) { _ = try CardScan.run(discover: { () throws(DisplayError) -> [String] in throw Self.udevFailure }) }
    }

    @Test func noCardsIsAnEmptyScan() throws {
        let scan = try CardScan.run(discover: { [] })
        #expect(scan.cards.isEmpty)
        #expect(scan.failures.isEmpty)
    }

    @Test func openCarriesTheUdevErrnoInsteadOfInventingOne() {
        do {
            _ = try OutputOpener.open(device: nil, connector: nil, mode: nil,
                                      discover: { () throws(DisplayError) -> [String] in throw Self.udevFailure })
            Issue.record("opened an output without cards")
        } catch {
            guard case .display(let e) = error else {
                Issue.record("expected the display error, got \(error)")
                return
            }
            #expect(e == Self.udevFailure)
            #expect(e.description == "Failed to scan devices (udev): Cannot allocate memory")
        }
    }

    @Test func aCardThatCannotBeOpenedExplainsWhyNothingWasFound() {
        do {
            _ = try OutputOpener.open(device: nil, connector: nil, mode: nil, discover: { ["/nonexistent/card9"] })
            Issue.record("opened a card that does not exist")
        } catch {
            guard case .display(let e) = error else {
                Issue.record("expected the display error, got \(error)")
                return
            }
            #expect(e == DisplayError(.open(path: "/nonexistent/card9"), code: ENOENT))
        }
    }

    @Test func noCardsAtAllIsNoDevice() {
        do {
            _ = try OutputOpener.open(device: nil, connector: nil, mode: nil, discover: { [] })
            Issue.record("opened an output without cards")
        } catch {
            guard case .choice(.noDevice) = error else {
                Issue.record("expected noDevice, got \(error)")
                return
            }
        }
    }
}
