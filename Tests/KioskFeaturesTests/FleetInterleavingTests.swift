import FleetConfig
import KioskConfiguration
import Testing
@testable import KioskFeatures

/// Two bundles in flight at once, on the real bridge and state folder: the running one's
/// confirmation and the next one's icons or build must not touch each other.
extension FleetBridgeTests {
    /// Confirming N while N+1 waits for its icon confirms N, on disk too: a restart runs N.
    @Test func confirmingWhileTheNextWaitsForItsIconStoresTheConfirmedOne() throws {
        let fleet = try bridge(confirm: 60)
        guard case .take = fleet.offer(try bundle(1, ["one"]), local: KioskConfig(), now: 0) else { Issue.record("1 not taken"); return }
        fleet.built(nil, now: 1)
        #expect(fleet.firstFrameShown(now: 1))
        guard case .fetch = fleet.offer(try bundle(2, icon: Array("icon".utf8)), local: KioskConfig(), now: 2) else {
            Issue.record("2 does not wait for its icon"); return
        }
        #expect(fleet.confirm(1) == nil)
        #expect(fleet.confirmed?.serial == 1)
        let restarted = try bridge()
        #expect(restarted.active?.serial == 1, "after a restart the kiosk runs serial \(restarted.active?.serial.description ?? "none")")
        #expect(restarted.overlay(local: KioskConfig()).items.map(\.id) == ["one"])
    }

    /// N pending, N+1 fails to build: N can still be confirmed, and stays after a restart.
    @Test func aPendingBundleCanBeConfirmedAfterALaterOneFailsToBuild() throws {
        let fleet = try bridge(confirm: 60)
        _ = fleet.offer(try bundle(1, ["one"]), local: KioskConfig(), now: 0)
        fleet.built(nil, now: 1)
        _ = fleet.firstFrameShown(now: 1)
        guard case .take = fleet.offer(try bundle(2, ["two"]), local: KioskConfig(), now: 2) else { Issue.record("2 not taken"); return }
        fleet.built("an icon cannot be read", now: 3)
        #expect(fleet.pending?.bundle.serial == 1)
        #expect(fleet.confirm(1) == nil)
        #expect(!fleet.revertIfDue(now: 1000))
        #expect(try bridge().active?.serial == 1)
    }
}
