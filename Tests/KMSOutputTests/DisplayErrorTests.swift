import Testing
import Glibc
@testable import KMSOutput

@Suite struct DisplayErrorTests {
    @Test func messageNamesTheCallAndTheErrno() {
        #expect(DisplayError(.setCrtc(42), code: EACCES).description == "Failed to set CRTC 42: Permission denied")
        #expect(DisplayError(.pageFlip(crtc: 35), code: EBUSY).description
                == "Failed to queue a page flip on CRTC 35: Device or resource busy")
        #expect(DisplayError(.createDumbBuffer(width: 1024, height: 768), code: ENOMEM).description
                == "Failed to create a 1024x768 dumb buffer: Cannot allocate memory")
    }

    @Test func powerFailuresNameTheCRTCOrConnector() {
        #expect(DisplayError(.power(crtc: 42, on: false), code: EINVAL).description == "Failed to switch CRTC 42 off: Invalid argument")
        #expect(DisplayError(.dpms(connector: "HDMI-A-1", on: true), code: EACCES).description
                == "Failed to set DPMS On on connector HDMI-A-1: Permission denied")
    }

    @Test func permissionOnOpenSuggestsTheVideoGroup() {
        let e = DisplayError(.open(path: "/dev/dri/card0"), code: EACCES)
        #expect(e.isPermissionDenied)
        #expect(e.description == "/dev/dri/card0: Permission denied (is the user in group video?)")
        #expect(!DisplayError(.open(path: "/dev/dri/card0"), code: ENOENT).isPermissionDenied)
        #expect(!DisplayError(.setCrtc(1), code: EACCES).isPermissionDenied)
    }

    @Test func busyMasterSaysAnotherProgramHoldsIt() {
        let e = DisplayError(.setMaster(path: "/dev/dri/card0"), code: EBUSY)
        #expect(e.isAnotherMaster)
        #expect(e.description.hasPrefix("another program is DRM master on /dev/dri/card0"))
        #expect(!DisplayError(.pageFlip(crtc: 1), code: EBUSY).isAnotherMaster)
    }

    @Test func libdrmNegativeResultsBecomePositiveErrnos() {
        #expect(throws: DisplayError(.addFramebuffer, code: EINVAL)) { try DisplayError.check(.addFramebuffer, -EINVAL) }
        errno = ENOSPC
        #expect(throws: DisplayError(.addFramebuffer, code: ENOSPC)) { try DisplayError.check(.addFramebuffer, -1) }
    }
}
