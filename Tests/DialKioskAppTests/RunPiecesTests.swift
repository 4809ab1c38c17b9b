import Testing
import CECLink
import Glibc
import DialCore
import KMSOutput
@testable import KioskSeams
@testable import DialKioskApp
@testable import KioskRuntime
@testable import KioskLoop
import KioskTestSupport

@Suite struct RunPiecesTests {
    @Test func statsReportOncePerSecondOfFrameClock() {
        var s = FrameStats()
        var lines: [String] = []
        for i in 0...120 {
            if let l = s.frameShown(at: Double(i) / 60, paintSeconds: 0.002) { lines.append(l) }
        }
        #expect(lines == ["stats: 60.0 flips/s, paint 2.00 ms avg, 2.00 ms max, longest turn 0.00 ms, longest flip gap 16.67 ms, latency none",
                          "stats: 60.0 flips/s, paint 2.00 ms avg, 2.00 ms max, longest turn 0.00 ms, longest flip gap 16.67 ms, latency none"])
        #expect(s.totalFlips == 121)
        let idle = s.wentIdle(at: 2.5)
        #expect(idle.hasSuffix("stats: idle at 2.500 s after 121 flips, 0 flips/s until input, latency none"))
        #expect(s.flipsSinceIdle == 0)
    }

    @Test func aStallShowsAsTheLongestTurnAndFlipGapNotOnlyAsALowerRate() {
        var s = FrameStats()
        var lines: [String] = []
        // 60 Hz, but one turn took 180 ms and the flips around it stood 200 ms apart.
        var t = 0.0
        for i in 0..<70 {
            t += i == 30 ? 0.2 : 1.0 / 60
            if i == 30 { s.turnTook(0.18) } else { s.turnTook(0.001) }
            if let l = s.frameShown(at: t, paintSeconds: 0.002) { lines.append(l) }
        }
        #expect(lines.first?.contains("longest turn 180.00 ms, longest flip gap 200.00 ms, ") == true)
        // After a rest the gap across it is no stall; the run's figures keep the worst.
        _ = s.wentIdle(at: t + 0.05)
        _ = s.frameShown(at: t + 10, paintSeconds: 0.002)
        _ = s.frameShown(at: t + 10 + 1.0 / 60, paintSeconds: 0.002)
        #expect(s.longestFlipGap < 0.21 && s.longestFlipGap > 0.19)
        #expect(s.sinceStart.hasPrefix("stats: since start 72 flips, longest turn 180.00 ms, longest flip gap 200.00 ms, "))
    }

    @Test func statsGiveInputToFlipLatencyInMillisecondsAndPeriods() {
        var s = FrameStats(refreshPeriod: 0.02)
        var lines: [String] = []
        // 50 Hz; every other frame shows a sample taken 10 ms (half a period) or 30 ms before
        // its flip; the frames between show no new input and count for nothing.
        for i in 0...50 {
            let t = Double(i) * 0.02
            let input: Double? = i % 2 == 1 ? t - (i % 4 == 1 ? 0.010 : 0.030) : nil
            if let l = s.frameShown(at: t, paintSeconds: 0.001, inputTime: input) { lines.append(l) }
        }
        #expect(lines == ["stats: 50.0 flips/s, paint 1.00 ms avg, 1.00 ms max, longest turn 0.00 ms, longest flip gap 20.00 ms, "
                          + "latency p50=10.00 p95=30.00 max=30.00 ms (0.50/1.50/1.50 periods, 25 frames)"])
        // One more frame after the window, 40 ms late; the idle line covers the whole stretch.
        // Two flips 20 ms apart are 50 a second (each stands for its period), however late the
        // rest is noticed.
        _ = s.frameShown(at: 1.02, paintSeconds: 0.001, inputTime: 0.98)
        let idle = s.wentIdle(at: 1.1).split(separator: "\n").map(String.init)
        #expect(idle.first == "stats: 50.0 flips/s, paint 1.00 ms avg, 1.00 ms max, longest turn 0.00 ms, longest flip gap 20.00 ms, "
                + "latency p50=40.00 p95=40.00 max=40.00 ms (2.00/2.00/2.00 periods, 1 frames)")
        #expect(idle.last == "stats: idle at 1.100 s after 52 flips, 0 flips/s until input, "
                + "latency p50=10.00 p95=30.00 max=40.00 ms (0.50/1.50/2.00 periods, 26 frames)")
        // The next stretch starts empty; the run's total keeps every frame.
        #expect(s.wentIdle(at: 2).hasSuffix("latency none"))
        _ = s.frameShown(at: 3.02, paintSeconds: 0.001, inputTime: 3.0)
        #expect(s.wentIdle(at: 3.1).hasSuffix("latency p50=20.00 p95=20.00 max=20.00 ms (1.00/1.00/1.00 periods, 1 frames)"))
        #expect(s.sinceStart == "stats: since start 53 flips, longest turn 0.00 ms, longest flip gap 20.00 ms, "
                + "latency p50=20.00 p95=30.00 max=40.00 ms (1.00/1.50/2.00 periods, 27 frames)")
    }

    @Test func demoFlingMovesAlongTheRingAtTheAskedSpeed() {
        let g = DialGeometry(center: Point(x: 100, y: 100), ringRadius: 50, itemRadius: 10, hubRadius: 20)
        let events = DemoFling.events(geometry: g, radPerSecond: 10, endTime: 5)
        let touches = events.compactMap { e -> TouchEvent? in if case .touch(let t) = e { return t } else { return nil } }
        #expect(touches.first?.phase == .down)
        #expect(touches.last?.phase == .frame && touches.last?.time == 5)
        #expect(zip(touches, touches.dropFirst()).allSatisfy { $0.time <= $1.time })
        let moves = touches.filter { $0.phase != .frame }
        let a0 = Double.atan2(y: moves.first!.y - 100, x: moves.first!.x - 100)
        let a1 = Double.atan2(y: moves.last!.y - 100, x: moves.last!.x - 100)
        #expect(abs((a1 - a0) / (moves.last!.time - moves.first!.time) - 10) < 1e-9)
        for m in moves {
            #expect(abs(((m.x - 100) * (m.x - 100) + (m.y - 100) * (m.y - 100)).squareRoot() - 50) < 1e-9)
        }
    }

    @Test func displayErrorsCarryTheirExitStatuses() {
        #expect(DisplayError(.open(path: "/dev/dri/card0"), code: EACCES).exitStatus == .permissionDenied)
        #expect(DisplayError(.setMaster(path: "/dev/dri/card0"), code: EBUSY).exitStatus == .deviceBusy)
        #expect(DisplayError(.open(path: "/dev/dri/card9"), code: ENOENT).exitStatus == .noDevice)
        #expect(DisplayError(.setCrtc(3), code: EINVAL).exitStatus == .osError)
        #expect(OutputChoiceError.noDevice.exitStatus == .noDevice)
        #expect(OutputChoiceError.noDevice.description.hasPrefix("no DRM device found"))
        #expect(OutputChoiceError.noDevice.description.contains("dialkiosk simulate"))
        let wrong = OutputChoiceError.connectorNotFound(name: "HDMI-A-2", connected: ["Virtual-1"])
        #expect(wrong.exitStatus == .outputNotFound)
        #expect(wrong.description == "connector HDMI-A-2 not found; connected: Virtual-1")
        #expect(OutputOpenError.choice(wrong).exitStatus == .outputNotFound)
    }

    @Test func listingMarksThePreferredModeAndSkipsCRTCForDisconnected() {
        let card = CardInfo(path: "/dev/dri/card0", driver: "vkms", connectors: [
            ConnectorInfo(id: 36, type: 15, typeIndex: 1, status: .connected, widthMM: 300, heightMM: 200,
                          modes: [ModeInfo(width: 1024, height: 768, refreshHz: 60, preferred: true),
                                  ModeInfo(width: 800, height: 600, refreshHz: 60.3167)],
                          currentEncoderID: 34, encoderIDs: [34], panelOrientation: .rightSideUp),
            ConnectorInfo(id: 37, type: 11, typeIndex: 1, status: .disconnected, encoderIDs: [34]),
        ], encoders: [EncoderInfo(id: 34, crtcID: 35, possibleCRTCs: 1)], crtcIDs: [35])
        #expect(OutputListing.describe(card) == """
            /dev/dri/card0: driver vkms
              CRTCs: 35
              connector Virtual-1 (id 36): connected, 300x200 mm, panel orientation Right Side Up
                CRTC 35
                1024x768@60.00 preferred
                800x600@60.32
              connector HDMI-A-1 (id 37): disconnected

            """)
    }

    @Test func listingSaysWhichBacklightAndCECAdapterBelongToEachConnector() {
        let card = CardInfo(path: "/dev/dri/card1", driver: "vc4", connectors: [
            ConnectorInfo(id: 40, type: 11, typeIndex: 1, status: .connected, encoderIDs: [34]),
            ConnectorInfo(id: 41, type: 14, typeIndex: 1, status: .connected, encoderIDs: [34]),
        ], encoders: [EncoderInfo(id: 34, crtcID: 35, possibleCRTCs: 1)], crtcIDs: [35])
        let adapters = [
            CECAdapterListing(path: "/dev/cec0", name: "vc4-hdmi-0", physicalAddress: CECPhysicalAddress(0x1000), card: 1, connectorID: 40),
            CECAdapterListing(path: "/dev/cec1", name: "vc4-hdmi-1", physicalAddress: CECPhysicalAddress(0x2000), card: 0, connectorID: 41),
            CECAdapterListing(path: "/dev/cec2", name: "usb", physicalAddress: .invalid, card: nil, connectorID: nil),
        ]
        let text = OutputListing.describe(card, extras: { name, id in
            OutputListing.extras(backlight: name == "eDP-1" ? "/sys/class/backlight/intel_backlight" : nil,
                                 cec: OutputListing.cecAdapters(adapters, card: "card1", connectorID: id))
        })
        #expect(text.contains("""
              connector HDMI-A-1 (id 40): connected
                backlight: none
                CEC: /dev/cec0 (physical address 1.0.0.0)
            """), "\(text)")
        #expect(text.contains("""
              connector eDP-1 (id 41): connected
                backlight: /sys/class/backlight/intel_backlight
                CEC: none
            """), "the adapter of card0's connector 41 is not card1's: \(text)")
    }

    @Test func runOptionsRejectWhatCannotWork() throws {
        #expect(throws: (any Error).self) { try RunOptions.parse(["--rotate", "45"]) }
        #expect(throws: (any Error).self) { try RunOptions.parse(["--mode", "1024"]) }
        #expect(throws: (any Error).self) { try RunOptions.parse(["--exit-after", "-1"]) }
        #expect(throws: (any Error).self) { try RunOptions.parse(["--items", "65"]) }
        #expect(throws: (any Error).self) { try RunOptions.parse(["--buffers", "4"]) }
        let ok = try RunOptions.parse(["--rotate", "270", "--mode", "1920x1080@60", "--exit-after", "6"])
        #expect(ok.rotate == .threeQuarters)
        #expect(ok.mode == ModeRequest(width: 1920, height: 1080, refreshHz: 60))
    }
}
