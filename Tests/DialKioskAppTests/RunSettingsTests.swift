import DialCore
import Testing
@testable import KioskSeams
@testable import DialKioskApp
@testable import KioskRuntime
@testable import KioskConfiguration
import KioskTestSupport

/// The configuration gives `run` its display and input defaults; the command line overrides them.
@Suite struct RunSettingsTests {
    private let configured = KioskConfig.Display(device: "/dev/dri/card1", connector: "HDMI-A-1",
                                                 mode: ModeRequest(width: 800, height: 480, refreshHz: 60),
                                                 rotation: .quarter)

    @Test func configValuesApplyWhenTheCommandLineIsSilent() throws {
        let options = try RunOptions.parse([])
        let out = options.display(with: configured)
        #expect(out == OutputRequest(device: "/dev/dri/card1", connector: "HDMI-A-1",
                                     mode: ModeRequest(width: 800, height: 480, refreshHz: 60)))
    }

    @Test func commandLineOptionsOverrideEachValue() throws {
        let options = try RunOptions.parse(["--device", "/dev/dri/card0", "--connector", "Virtual-1",
                                            "--mode", "1024x768", "--rotate", "0"])
        let out = options.display(with: configured)
        #expect(out == OutputRequest(device: "/dev/dri/card0", connector: "Virtual-1",
                                     mode: ModeRequest(width: 1024, height: 768)))
    }

    @Test func anEmptyDisplaySectionLeavesEveryChoiceOpen() throws {
        let out = try RunOptions.parse([]).display(with: KioskConfig.Display())
        #expect(out == OutputRequest())
    }

    @Test func seatAndCalibrationComeFromTheConfigUnlessGiven() throws {
        let config = KioskConfig.Input(seat: "seat1", calibration: CalibrationMatrix(0, -1, 1, 1, 0, 0))
        let silent = try RunOptions.parse([]).input.resolved(with: config)
        #expect(silent.seat == "seat1")
        #expect(silent.calibration?.values == [0, -1, 1, 1, 0, 0])
        let given = try RunOptions.parse(["--seat", "seat0", "--touch-calibration", "1 0 0 0 1 0"]).input.resolved(with: config)
        #expect(given.seat == "seat0")
        #expect(given.calibration == nil, "an identity matrix on the command line clears the configured one")
        #expect(try RunOptions.parse([]).input.resolved(with: KioskConfig.Input()).seat == "seat0")
    }

    @Test func badControlAndConfigArgumentsAreRefused() {
        #expect(throws: (any Error).self) { try RunOptions.parse(["--config", ""]) }
        #expect(throws: (any Error).self) { try RunOptions.parse(["--control", String(repeating: "x", count: 200)]) }
    }
}
