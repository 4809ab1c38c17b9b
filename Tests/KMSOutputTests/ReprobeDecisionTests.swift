import Testing
@testable import KioskSeams
@testable import KMSOutput

@Suite struct ReprobeDecisionTests {
    static let xga = ModeInfo(width: 1024, height: 768, refreshHz: 60, preferred: true)
    static let xga75 = ModeInfo(width: 1024, height: 768, refreshHz: 75)
    static let svga = ModeInfo(width: 800, height: 600, refreshHz: 60)
    static let hd = ModeInfo(width: 1920, height: 1080, refreshHz: 60, preferred: true)

    static func connector(_ modes: [ModeInfo], status: ConnectorStatus = .connected) -> ConnectorInfo {
        ConnectorInfo(id: 35, type: 15, typeIndex: 1, status: status, modes: modes, encoderIDs: [34])
    }

    @Test func goneSuspendsOnce() {
        let gone = Self.connector([], status: .disconnected)
        #expect(ReprobeDecision.decide(connector: gone, current: Self.xga, suspended: false, request: nil) == .suspend)
        #expect(ReprobeDecision.decide(connector: gone, current: Self.xga, suspended: true, request: nil) == .keep)
    }

    @Test func theSameSizeResumesWithTheSameMode() {
        let back = Self.connector([Self.xga, Self.xga75, Self.svga])
        #expect(ReprobeDecision.decide(connector: back, current: Self.xga75, suspended: true, request: nil) == .resume(modeIndex: 1))
        #expect(ReprobeDecision.decide(connector: back, current: Self.xga, suspended: false, request: nil) == .keep)
    }

    @Test func aNewPreferredSizeReModesets() {
        let bigger = Self.connector([Self.hd, Self.xga75, Self.svga])
        #expect(ReprobeDecision.decide(connector: bigger, current: Self.xga, suspended: true, request: nil) == .remodeset(modeIndex: 0))
        // Also while still plugged in (virtio-gpu changes its preferred mode without an unplug).
        #expect(ReprobeDecision.decide(connector: bigger, current: Self.xga, suspended: false, request: nil) == .remodeset(modeIndex: 0))
    }

    @Test func theConfigsModeIsHonouredWhenOffered() {
        let request = ModeRequest(width: 800, height: 600)
        let offers = Self.connector([Self.hd, Self.svga])
        #expect(ReprobeDecision.decide(connector: offers, current: Self.xga, suspended: true, request: request) == .remodeset(modeIndex: 1))
        #expect(ReprobeDecision.decide(connector: offers, current: Self.svga, suspended: true, request: request) == .resume(modeIndex: 1))
        // Not offered any more: the preferred mode rather than a dark screen.
        let lacks = Self.connector([Self.hd, Self.xga])
        #expect(ReprobeDecision.decide(connector: lacks, current: Self.svga, suspended: true, request: request) == .remodeset(modeIndex: 0))
    }
}
