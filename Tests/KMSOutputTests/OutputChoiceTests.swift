import Testing
@testable import KioskSeams
@testable import KMSOutput

/// Cards shaped like what vkms, a laptop and a two-output desktop report.
private enum Fixtures {
    static let vga = ModeInfo(width: 1024, height: 768, refreshHz: 60, preferred: true)
    static let hd = ModeInfo(width: 1920, height: 1080, refreshHz: 60, preferred: true)
    static let hd50 = ModeInfo(width: 1920, height: 1080, refreshHz: 50)
    static let hd5994 = ModeInfo(width: 1920, height: 1080, refreshHz: 59.94)
    static let hd30 = ModeInfo(width: 1920, height: 1080, refreshHz: 30)
    static let small = ModeInfo(width: 800, height: 600, refreshHz: 75)

    static let vkms = CardInfo(
        path: "/dev/dri/card0", driver: "vkms",
        connectors: [
            ConnectorInfo(id: 35, type: 15, typeIndex: 1, status: .connected, modes: [small, vga],
                          currentEncoderID: 34, encoderIDs: [34]),
            ConnectorInfo(id: 37, type: 18, typeIndex: 1, status: .unknown, modes: [vga], encoderIDs: [36]),
        ],
        encoders: [EncoderInfo(id: 34, crtcID: 33, possibleCRTCs: 1), EncoderInfo(id: 36, crtcID: 0, possibleCRTCs: 1)],
        crtcIDs: [33])

    static let desktop = CardInfo(
        path: "/dev/dri/card1", driver: "i915",
        connectors: [
            ConnectorInfo(id: 90, type: 11, typeIndex: 1, status: .disconnected, encoderIDs: [80]),
            ConnectorInfo(id: 91, type: 11, typeIndex: 2, status: .connected,
                          modes: [hd30, hd5994, hd, hd50], encoderIDs: [81]),
            ConnectorInfo(id: 92, type: 10, typeIndex: 1, status: .connected, modes: [hd], encoderIDs: [82]),
        ],
        encoders: [EncoderInfo(id: 80, crtcID: 0, possibleCRTCs: 0b111),
                   EncoderInfo(id: 81, crtcID: 0, possibleCRTCs: 0b011),
                   EncoderInfo(id: 82, crtcID: 51, possibleCRTCs: 0b111)],
        crtcIDs: [51, 52, 53])

    static let headless = CardInfo(path: "/dev/dri/card2", driver: "simpledrm",
                                   connectors: [ConnectorInfo(id: 1, type: 1, typeIndex: 1, status: .disconnected)])
}

@Suite struct OutputChoiceTests {
    @Test func connectorNamesFollowTheKernel() throws {
        #expect(Fixtures.vkms.connectors[0].name == "Virtual-1")
        #expect(Fixtures.vkms.connectors[1].name == "Writeback-1")
        #expect(Fixtures.desktop.connectors[1].name == "HDMI-A-2")
        #expect(Fixtures.desktop.connectors[2].name == "DP-1")
        #expect(ConnectorInfo(id: 1, type: 14, typeIndex: 1, status: .connected).name == "eDP-1")
        #expect(ConnectorInfo(id: 1, type: 16, typeIndex: 2, status: .connected).name == "DSI-2")
        #expect(ConnectorInfo(id: 1, type: 99, typeIndex: 1, status: .connected).name == "Unknown-1")
    }

    @Test func firstCardWithAConnectedDisplayWins() throws {
        let r = OutputChoice.card(from: [Fixtures.headless, Fixtures.desktop, Fixtures.vkms], device: nil)
        #expect(try r.get().path == "/dev/dri/card1")
    }

    @Test func noCardsIsNoDevice() throws {
        #expect(OutputChoice.card(from: [], device: nil) == .failure(.noDevice))
        #expect(OutputChoice.card(from: [], device: "/dev/dri/card0") == .failure(.noDevice))
    }

    @Test func cardsWithoutDisplaysSaySo() throws {
        #expect(OutputChoice.card(from: [Fixtures.headless], device: nil)
                == .failure(.noConnectedOutput(cards: ["/dev/dri/card2"])))
    }

    @Test func deviceOptionPicksThatCardEvenWithoutDisplays() throws {
        #expect(try OutputChoice.card(from: [Fixtures.vkms, Fixtures.headless], device: "/dev/dri/card2").get().driver == "simpledrm")
        #expect(OutputChoice.card(from: [Fixtures.vkms], device: "/dev/dri/card7")
                == .failure(.deviceNotFound(path: "/dev/dri/card7", found: ["/dev/dri/card0"])))
    }

    @Test func connectorOptionPicksTheCardThatHasIt() throws {
        let r = OutputChoice.card(from: [Fixtures.vkms, Fixtures.desktop], device: nil, connector: "DP-1")
        #expect(try r.get().driver == "i915")
    }

    @Test func defaultConnectorIsTheFirstConnectedDisplayNeverWriteback() throws {
        #expect(try OutputChoice.connector(on: Fixtures.vkms, named: nil).get().name == "Virtual-1")
        #expect(try OutputChoice.connector(on: Fixtures.desktop, named: nil).get().name == "HDMI-A-2")
    }

    @Test func missingConnectorListsTheConnectedOnes() throws {
        #expect(OutputChoice.connector(on: Fixtures.vkms, named: "HDMI-A-2")
                == .failure(.connectorNotFound(name: "HDMI-A-2", connected: ["Virtual-1"])))
        // Present but disconnected counts as not found.
        #expect(OutputChoice.connector(on: Fixtures.desktop, named: "HDMI-A-1")
                == .failure(.connectorNotFound(name: "HDMI-A-1", connected: ["HDMI-A-2", "DP-1"])))
        #expect(OutputChoice.connector(on: Fixtures.vkms, named: "Writeback-1")
                == .failure(.connectorNotFound(name: "Writeback-1", connected: ["Virtual-1"])))
    }

    @Test func preferredModeByDefaultEvenWhenNotFirst() throws {
        let c = Fixtures.vkms.connectors[0]
        #expect(try OutputChoice.mode(of: c, request: nil).get() == Fixtures.vga)
        let noPreferred = ConnectorInfo(id: 1, type: 1, typeIndex: 1, status: .connected, modes: [Fixtures.hd50, Fixtures.hd30])
        #expect(try OutputChoice.mode(of: noPreferred, request: nil).get() == Fixtures.hd50)
    }

    @Test func requestedSizeTakesPreferredThenFastest() throws {
        let c = Fixtures.desktop.connectors[1]
        #expect(try OutputChoice.mode(of: c, request: ModeRequest(width: 1920, height: 1080)).get() == Fixtures.hd)
        var noPref = c
        noPref.modes = [Fixtures.hd30, Fixtures.hd50, Fixtures.hd5994]
        #expect(try OutputChoice.mode(of: noPref, request: ModeRequest(width: 1920, height: 1080)).get() == Fixtures.hd5994)
    }

    @Test func requestedRateMatchesTheNearestWithinHalfAHertz() throws {
        let c = Fixtures.desktop.connectors[1]
        #expect(try OutputChoice.mode(of: c, request: ModeRequest(width: 1920, height: 1080, refreshHz: 50)).get() == Fixtures.hd50)
        #expect(try OutputChoice.mode(of: c, request: ModeRequest(width: 1920, height: 1080, refreshHz: 59.94)).get() == Fixtures.hd5994)
        #expect(try OutputChoice.mode(of: c, request: ModeRequest(width: 1920, height: 1080, refreshHz: 60)).get() == Fixtures.hd)
        let r = OutputChoice.mode(of: c, request: ModeRequest(width: 1920, height: 1080, refreshHz: 75))
        guard case .failure(.modeNotFound(_, "HDMI-A-2", let available)) = r else {
            Issue.record("expected modeNotFound, got \(r)")
            return
        }
        #expect(available == ["1920x1080@30.00", "1920x1080@59.94", "1920x1080@60.00", "1920x1080@50.00"])
    }

    @Test func crtcIsTheOneAlreadyDrivingTheConnector() throws {
        #expect(try OutputChoice.crtc(for: Fixtures.vkms.connectors[0], on: Fixtures.vkms).get() == 33)
    }

    @Test func crtcFallsBackToTheFirstFreePossibleOne() throws {
        // HDMI-A-2's encoder can use CRTCs 0 and 1; CRTC 51 (index 0) is held by DP-1's encoder.
        #expect(try OutputChoice.crtc(for: Fixtures.desktop.connectors[1], on: Fixtures.desktop).get() == 52)
        var card = Fixtures.desktop
        card.encoders[1].possibleCRTCs = 0b001
        #expect(try OutputChoice.crtc(for: card.connectors[1], on: card).get() == 51)
        card.encoders[1].possibleCRTCs = 0
        #expect(OutputChoice.crtc(for: card.connectors[1], on: card) == .failure(.noCRTC(connector: "HDMI-A-2")))
    }

    @Test func panelOrientationGivesTheDefaultRotation() throws {
        // The panel's property through the one rotation rule, with no option and no configured rotation.
        func chosen(_ option: DisplayRotation?, _ panel: PanelOrientation?) -> DisplayRotation {
            DisplayRotation.chosen(option: option, configured: .none, panel: panel?.displayRotation)
        }
        #expect(chosen(nil, nil) == .none)
        #expect(chosen(nil, .normal) == .none)
        #expect(chosen(nil, .upsideDown) == .half)
        #expect(chosen(nil, .rightSideUp) == .quarter)
        #expect(chosen(nil, .leftSideUp) == .threeQuarters)
        #expect(chosen(DisplayRotation.none, .leftSideUp) == DisplayRotation.none)
        #expect(chosen(.half, nil) == .half)
    }

    @Test func leftSideUpPutsTheLogicalTopOnTheLeftPanelEdge() throws {
        // A 800x1280 panel mounted left edge up shows a 1280x800 picture; the picture's top row
        // must land in panel column 0 (the edge at the top of the casing).
        let r = PanelOrientation.leftSideUp.displayRotation
        let size = r.logicalSize(panelWidth: 800, panelHeight: 1280)
        #expect(size.width == 1280 && size.height == 800)
        for x in [0, 640, 1279] {
            #expect(r.panelPixel(x: x, y: 0, logicalWidth: 1280, logicalHeight: 800).x == 0)
        }
        // and the picture's left end at the panel's bottom (the casing's left).
        #expect(r.panelPixel(x: 0, y: 0, logicalWidth: 1280, logicalHeight: 800).y == 1279)
    }

    @Test func wholeChoiceStopsAtTheFirstFailure() throws {
        let ok = OutputSelection.choose(from: [Fixtures.vkms], device: nil, connector: nil, mode: nil)
        #expect(try ok.get().crtcID == 33)
        #expect(try ok.get().mode.width == 1024)
        let bad = OutputSelection.choose(from: [Fixtures.vkms], device: nil, connector: "HDMI-A-2", mode: nil)
        #expect(bad == .failure(.connectorNotFound(name: "HDMI-A-2", connected: ["Virtual-1"])))
    }
}
