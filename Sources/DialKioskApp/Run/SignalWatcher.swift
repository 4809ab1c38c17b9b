import CLinux
#if canImport(Glibc)
import Glibc
#endif

/// The signals the loop reacts to, read from a signalfd so they arrive in poll() like any other
/// event (no async handlers, no races with the loop's state).
enum LoopSignal: Sendable, Equatable {
    /// SIGTERM, SIGINT: leave cleanly, exit 0.
    case terminate
    /// SIGHUP: repaint (a configuration reload hooks in here).
    case hangUp
    /// The kernel asks for the VT (VT_PROCESS relsig, SIGUSR1).
    case vtRelease
    /// The VT is ours again (VT_PROCESS acqsig, SIGUSR2).
    case vtAcquire
    /// SIGCHLD: an item's command ended; the turn's housekeeping reaps it (no periodic wake-up
    /// is needed to notice).
    case childExited

    static let vtReleaseSignal = SIGUSR1
    static let vtAcquireSignal = SIGUSR2

    init?(signal: Int32) {
        switch signal {
        case SIGTERM, SIGINT: self = .terminate
        case SIGHUP: self = .hangUp
        case LoopSignal.vtReleaseSignal: self = .vtRelease
        case LoopSignal.vtAcquireSignal: self = .vtAcquire
        case SIGCHLD: self = .childExited
        default: return nil
        }
    }
}

/// Owns a signalfd for SIGTERM, SIGINT, SIGHUP, SIGUSR1, SIGUSR2 and SIGCHLD, blocked for the
/// process so they are only delivered through it. `close()` unblocks them again; safe twice.
final class SignalWatcher {
    private(set) var fd: Int32 = -1
    private var mask = sigset_t()

    /// sigprocmask(SIG_BLOCK) + signalfd(SFD_NONBLOCK | SFD_CLOEXEC).
    init() throws {
        sigemptyset(&mask)
        for s in [SIGTERM, SIGINT, SIGHUP, LoopSignal.vtReleaseSignal, LoopSignal.vtAcquireSignal, SIGCHLD] {
            sigaddset(&mask, s)
        }
        guard sigprocmask(SIG_BLOCK, &mask, nil) == 0 else {
            throw CommandFailure("Failed to block signals: \(String(cString: strerror(errno)))", status: .osError)
        }
        fd = signalfd(-1, &mask, Int32(SFD_NONBLOCK | SFD_CLOEXEC))
        guard fd >= 0 else {
            let e = errno
            sigprocmask(SIG_UNBLOCK, &mask, nil)
            throw CommandFailure("Failed to create a signalfd: \(String(cString: strerror(e)))", status: .osError)
        }
    }

    deinit { close() }

    /// Every pending signal, in arrival order.
    func drain() -> [LoopSignal] {
        var out: [LoopSignal] = []
        var info = signalfd_siginfo()
        let size = MemoryLayout<signalfd_siginfo>.size
        while fd >= 0, read(fd, &info, size) == size {
            if let s = LoopSignal(signal: Int32(info.ssi_signo)) { out.append(s) }
        }
        return out
    }

    func close() {
        guard fd >= 0 else { return }
        _ = Glibc.close(fd)
        fd = -1
        sigprocmask(SIG_UNBLOCK, &mask, nil)
    }
}

/// A one-shot CLOCK_MONOTONIC timerfd (`--exit-after`). `close()` is safe twice.
final class ExitTimer {
    private(set) var fd: Int32 = -1

    /// timerfd_create + timerfd_settime, `seconds` from now.
    init(seconds: Double) throws {
        fd = timerfd_create(CLOCK_MONOTONIC, Int32(TFD_NONBLOCK | TFD_CLOEXEC))
        guard fd >= 0 else {
            throw CommandFailure("Failed to create a timerfd: \(String(cString: strerror(errno)))", status: .osError)
        }
        var spec = itimerspec()
        let whole = seconds.rounded(.down)
        spec.it_value.tv_sec = Int(whole)
        spec.it_value.tv_nsec = max(1, Int((seconds - whole) * 1_000_000_000))
        guard timerfd_settime(fd, 0, &spec, nil) == 0 else {
            let e = errno
            close()
            throw CommandFailure("Failed to arm a timerfd: \(String(cString: strerror(e)))", status: .osError)
        }
    }

    deinit { close() }

    /// True once the timer has fired (reads the expiration count).
    func expired() -> Bool {
        var count: UInt64 = 0
        return fd >= 0 && read(fd, &count, 8) == 8 && count > 0
    }

    func close() {
        guard fd >= 0 else { return }
        _ = Glibc.close(fd)
        fd = -1
    }
}

/// CLOCK_MONOTONIC now, in seconds: the clock of flip timestamps and input events.
func monotonicNow() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1_000_000_000
}
