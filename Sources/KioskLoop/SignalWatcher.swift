import CLinux
import Glibc
import LinuxSystem
import KioskReporting

/// The signals the loop reacts to, read from a signalfd so they arrive in poll() like any other
/// event (no async handlers, no races with the loop's state).
package enum LoopSignal: Sendable, Equatable {
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

    package static let vtReleaseSignal = SIGUSR1
    package static let vtAcquireSignal = SIGUSR2

    package init?(signal: Int32) {
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
package final class SignalWatcher {
    private let descriptor: FileDescriptor
    private var mask = sigset_t()

    /// sigprocmask(SIG_BLOCK) + signalfd(SFD_NONBLOCK | SFD_CLOEXEC).
    package init() throws(SystemCallError) {
        sigemptyset(&mask)
        for s in [SIGTERM, SIGINT, SIGHUP, LoopSignal.vtReleaseSignal, LoopSignal.vtAcquireSignal, SIGCHLD] {
            sigaddset(&mask, s)
        }
        guard sigprocmask(SIG_BLOCK, &mask, nil) == 0 else {
            throw SystemCallError("block signals", errno: errno, status: .osError)
        }
        let fd = signalfd(-1, &mask, Int32(SFD_NONBLOCK | SFD_CLOEXEC))
        guard fd >= 0 else {
            let failure = SystemCallError("create a signalfd", errno: errno, status: .osError)
            sigprocmask(SIG_UNBLOCK, &mask, nil)
            throw failure
        }
        descriptor = FileDescriptor(adopting: fd)
    }

    deinit { close() }

    /// The signalfd to poll; -1 once closed.
    package var fd: Int32 { descriptor.rawValue }

    /// Every pending signal, in arrival order.
    package func drain() -> [LoopSignal] {
        var out: [LoopSignal] = []
        var info = signalfd_siginfo()
        while descriptor.readRecord(into: &info) {
            if let s = LoopSignal(signal: Int32(info.ssi_signo)) { out.append(s) }
        }
        return out
    }

    package func close() {
        guard descriptor.isOpen else { return }
        descriptor.close()
        sigprocmask(SIG_UNBLOCK, &mask, nil)
    }
}
