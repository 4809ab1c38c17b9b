import Testing
@testable import KioskSeams
@testable import KMSOutput

/// A card like vkms at boot: its one CRTC (33) drives Virtual-1 through encoder 34 at the
/// console's mode; HDMI-A-1 is connected too but routed nowhere, and can only use CRTC 33.
private enum Boot {
    static let vga = ModeInfo(width: 1024, height: 768, refreshHz: 60, preferred: true)
    static let small = ModeInfo(width: 800, height: 600, refreshHz: 75)
    static let card = CardInfo(
        path: "/dev/dri/card0", driver: "vkms",
        connectors: [
            ConnectorInfo(id: 35, type: 15, typeIndex: 1, status: .connected, modes: [small, vga],
                          currentEncoderID: 34, encoderIDs: [34]),
            ConnectorInfo(id: 37, type: 11, typeIndex: 1, status: .connected, modes: [vga], encoderIDs: [36]),
        ],
        encoders: [EncoderInfo(id: 34, crtcID: 33, possibleCRTCs: 1), EncoderInfo(id: 36, crtcID: 0, possibleCRTCs: 1)],
        crtcIDs: [33])

    /// Timings that differ per mode, as the kernel's do (the decision compares these, not names).
    static func timing(_ m: ModeInfo) -> ModeTiming {
        let w = UInt16(m.width), h = UInt16(m.height)
        return ModeTiming(clock: UInt32(Double(m.width + 320) * Double(m.height + 38) * m.refreshHz / 1000),
                          horizontal: [w, w + 24, w + 160, w + 320, 0], vertical: [h, h + 3, h + 9, h + 38, 0])
    }

    /// The console's state: CRTC 33 lit at 1024x768 on whatever is routed to it.
    static func console(lit: Bool = true, mode: ModeInfo? = vga) -> RunningCrtc {
        RunningCrtc(lit: lit, mode: mode.map(timing), modeSummary: mode?.summary,
                    connectors: RunningCrtc.connectors(routedTo: 33, on: card))
    }

    /// The decision for what `run` would choose with `--connector` and `display.mode`.
    static func decide(running: RunningCrtc, connector: String? = nil, mode: ModeRequest? = nil) throws -> FirstFrame {
        let s = try OutputSelection.choose(from: [card], device: nil, connector: connector, mode: mode).get()
        return FirstFrame.decide(running: running, connector: s.connector.name, mode: timing(s.mode), modeSummary: s.mode.summary)
    }
}

@Suite struct FirstFrameTests {
    @Test func sameConnectorAndModeIsAFlipOntoTheRunningMode() throws {
        let way = try Boot.decide(running: Boot.console())
        #expect(way == .flipOntoRunningMode)
        #expect(FirstFrame.flipOntoRunningMode.description == "first frame: flip onto the running mode")
    }

    @Test func anInactiveCrtcNeedsAModeset() throws {
        // Switched off (ACTIVE 0 or DPMS Off) with its mode still set, or no mode at all.
        let off = try Boot.decide(running: Boot.console(lit: false))
        let noMode = try Boot.decide(running: Boot.console(lit: true, mode: nil))
        #expect(off == .modeset(because: .crtcOff))
        #expect(noMode == .modeset(because: .crtcOff))
        #expect(FirstFrame.modeset(because: .crtcOff).description == "first frame: modeset, because the CRTC is off")
    }

    @Test func aCrtcOnAnotherConnectorNeedsAModeset() {
        var running = Boot.console()
        running.connectors = ["HDMI-A-1"]
        let way = FirstFrame.decide(running: running, connector: "Virtual-1", mode: Boot.timing(Boot.vga), modeSummary: "1024x768@60.00")
        #expect(way == .modeset(because: .otherConnector(running: ["HDMI-A-1"], chosen: "Virtual-1")))
        // Cloned onto two connectors: ours is not the only one it shows.
        running.connectors = ["Virtual-1", "HDMI-A-1"]
        #expect(FirstFrame.decide(running: running, connector: "Virtual-1", mode: Boot.timing(Boot.vga),
                                  modeSummary: "1024x768@60.00") != .flipOntoRunningMode)
    }

    @Test func anotherRunningModeNeedsAModeset() {
        // Same size, other timings (a 59.94 Hz mode where 60 is chosen) count as another mode.
        let running = RunningCrtc(lit: true, mode: Boot.timing(ModeInfo(width: 1024, height: 768, refreshHz: 59.94)),
                                  modeSummary: "1024x768@59.94", connectors: ["Virtual-1"])
        let way = FirstFrame.decide(running: running, connector: "Virtual-1", mode: Boot.timing(Boot.vga), modeSummary: "1024x768@60.00")
        #expect(way == .modeset(because: .otherMode(running: "1024x768@59.94", chosen: "1024x768@60.00")))
        #expect(way.description == "first frame: modeset, because the CRTC runs 1024x768@59.94, not 1024x768@60.00")
    }

    @Test func aConfiguredModeThatDiffersWinsOverTheRunningOne() throws {
        let way = try Boot.decide(running: Boot.console(), mode: ModeRequest(width: 800, height: 600))
        #expect(way == .modeset(because: .otherMode(running: "1024x768@60.00", chosen: "800x600@75.00")))
        // Asking for the mode that runs changes nothing.
        let same = try Boot.decide(running: Boot.console(), mode: ModeRequest(width: 1024, height: 768))
        #expect(same == .flipOntoRunningMode)
    }

    @Test func aConfiguredConnectorThatDiffersWinsOverTheRunningOne() throws {
        // HDMI-A-1 can only use CRTC 33, which shows Virtual-1.
        let way = try Boot.decide(running: Boot.console(), connector: "HDMI-A-1")
        #expect(way == .modeset(because: .otherConnector(running: ["Virtual-1"], chosen: "HDMI-A-1")))
        #expect(way.description == "first frame: modeset, because the CRTC drives Virtual-1, not HDMI-A-1")
        let same = try Boot.decide(running: Boot.console(), connector: "Virtual-1")
        #expect(same == .flipOntoRunningMode)
    }

    @Test func routedConnectorsComeFromEachConnectorsCurrentEncoder() {
        #expect(RunningCrtc.connectors(routedTo: 33, on: Boot.card) == ["Virtual-1"])
        #expect(RunningCrtc.connectors(routedTo: 99, on: Boot.card) == [])
    }
}
