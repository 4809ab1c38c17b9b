import Glibc
import LinuxSystem
import Testing

/// A call shaped like the ones the kernel modules name.
private enum TestCall: SystemCall {
    case setCrtc(UInt32)
    case open(String)

    var phrase: String {
        switch self {
        case .setCrtc(let id): return "set CRTC \(id)"
        case .open(let path): return "open \(path)"
        }
    }

    func message(errno: Errno) -> String? {
        if case .open(let path) = self, errno == Errno(EACCES) { return "\(path): \(errno) (ask for access)" }
        return nil
    }
}

@Suite struct ErrnoTests {
    @Test func theMessageNamesTheCallAndTheErrno() {
        #expect(CallError(TestCall.setCrtc(42), code: EACCES).description == "Failed to set CRTC 42: Permission denied")
        #expect(CallError(TestCall.open("/dev/x"), code: ENOENT).description == "Failed to open /dev/x: No such file or directory")
        #expect(CallError(TestCall.open("/dev/x"), code: EACCES).description == "/dev/x: Permission denied (ask for access)")
        #expect(CallError(TestCall.setCrtc(1), errno: Errno(0)).description == "Failed to set CRTC 1: failed")
    }

    @Test func negatedResultsBecomePositiveErrnos() {
        #expect(Errno(negatedResult: -EINVAL) == Errno(EINVAL))
        errno = ENOSPC
        #expect(Errno(negatedResult: -1) == Errno(ENOSPC))
        #expect(throws: CallError(TestCall.setCrtc(3), code: EBUSY)) { try CallError.check(TestCall.setCrtc(3), -EBUSY) }
        #expect(throws: Never.self) { try CallError.check(TestCall.setCrtc(3), 0) }
    }

    @Test func anInterruptedCallIsRunAgain() throws {
        var calls = 0
        let result = Errno.retryingInterrupts { () -> Int32 in
            calls += 1
            if calls < 3 {
                errno = EINTR
                return -1
            }
            return 7
        }
        #expect(try result.get() == 7)
        #expect(calls == 3)
    }

    @Test func anyOtherFailureIsReportedAtOnce() {
        var calls = 0
        #expect(throws: CallError(TestCall.setCrtc(9), code: EBUSY)) {
            try CallError.retrying(TestCall.setCrtc(9)) { () -> Int32 in
                calls += 1
                errno = EBUSY
                return -1
            }
        }
        #expect(calls == 1)
    }
}
