import Testing
import Glibc
import DialCore
import KMSOutput
@testable import DialKioskApp
@testable import KioskRuntime
import KioskTestSupport

/// `--kms-api` on run and list-outputs, and what the atomic path's failures say and exit with.
@Suite struct KMSAPIOptionTests {
    @Test func runTakesAutoAtomicOrLegacy() throws {
        #expect(try RunOptions.parse([]).kmsAPI == .auto)
        #expect(try RunOptions.parse(["--kms-api", "legacy"]).kmsAPI == .legacy)
        #expect(try RunOptions.parse(["--kms-api", "atomic"]).kmsAPI == .atomic)
        #expect(throws: (any Error).self) { try RunOptions.parse(["--kms-api", "fast"]) }
        #expect(try ListOutputsCommand.parse(["--kms-api", "legacy"]).kmsAPI == .legacy)
    }

    @Test func aRefusedTestOnlyModesetIsAnOutputProblemNamingConnectorAndMode() {
        let refused = DisplayError(.atomicTest(connector: "HDMI-A-1", mode: "1920x1080@60.00"), code: EINVAL)
        #expect(refused.description == "Failed to test mode 1920x1080@60.00 on HDMI-A-1 (atomic TEST_ONLY): Invalid argument")
        #expect(refused.exitStatus == .outputNotFound)
        // Not a refusal of the configuration: the card went away, or a call failed.
        #expect(DisplayError(.atomicTest(connector: "HDMI-A-1", mode: "x"), code: ENODEV).exitStatus == .noDevice)
        #expect(DisplayError(.atomicTest(connector: "HDMI-A-1", mode: "x"), code: ENOMEM).exitStatus == .osError)
        #expect(DisplayError(.atomicModeset(crtc: 33), code: EINVAL).exitStatus == .osError)
    }

    @Test func atomicFlipErrorsKeepTheLegacyRecoveryClasses() {
        #expect(DisplayError(.atomicFlip(crtc: 33), code: EBUSY).presentFailure == .busy)
        #expect(DisplayError(.atomicFlip(crtc: 33), code: EINVAL).presentFailure == .invalid)
        #expect(DisplayError(.atomicFlip(crtc: 33), code: ENODEV).presentFailure == .gone)
        #expect(DisplayError(.atomicFlip(crtc: 33), code: EACCES).presentFailure == .denied)
        #expect(DisplayError(.atomicFlip(crtc: 33), code: EBUSY).description
            == "Failed to queue a page flip on CRTC 33 (atomic commit): Device or resource busy")
    }

    @Test func aForcedAtomicThatCannotWorkSaysWhyAndWhatToTry() {
        let e = DisplayError(.kmsAPI("no primary plane for CRTC 33"), code: EOPNOTSUPP)
        #expect(e.description == "--kms-api atomic: no primary plane for CRTC 33; try --kms-api auto or legacy")
        #expect(e.exitStatus == .osError)
    }

    @Test func listingShowsTheAPIUnderTheCRTC() {
        let card = CardInfo(path: "/dev/dri/card0", driver: "vkms", connectors: [
            ConnectorInfo(id: 36, type: 15, typeIndex: 1, status: .connected,
                          modes: [ModeInfo(width: 1024, height: 768, refreshHz: 60, preferred: true)],
                          currentEncoderID: 34, encoderIDs: [34]),
        ], encoders: [EncoderInfo(id: 34, crtcID: 35, possibleCRTCs: 1)], crtcIDs: [35])
        let text = OutputListing.describe(card) { connector, crtc in "atomic (\(connector) on \(crtc))" }
        #expect(text.contains("    CRTC 35\n    KMS API: atomic (36 on 35)\n    1024x768@60.00 preferred\n"))
    }
}
