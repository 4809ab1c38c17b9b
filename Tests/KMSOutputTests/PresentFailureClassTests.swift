import Glibc
import Testing
@testable import KioskSeams
@testable import KMSOutput

@Suite struct PresentFailureClassTests {
    @Test(arguments: [(EBUSY, PresentFailure.busy), (EAGAIN, .busy), (EINTR, .busy), (EINVAL, .invalid),
                      (ENODEV, .gone), (ENOENT, .gone), (ENXIO, .gone), (EACCES, .denied), (EPERM, .denied),
                      (EIO, .other), (ENOMEM, .other)])
    func drmErrnosClassifyForRecovery(code: Int32, expected: PresentFailure) {
        #expect(PresentFailure(presentErrno: code) == expected)
        #expect(DisplayError(.pageFlip(crtc: 42), code: code).presentFailure == expected)
    }
}
