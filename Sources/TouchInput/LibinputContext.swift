import CLibinput
import CUdev
import Glibc
import LinuxSystem

/// The one owner of a udev handle and a libinput context on a udev seat
/// (udev_new, libinput_udev_create_context, libinput_udev_assign_seat). Device nodes are opened
/// by `open_restricted` below; teardown runs in reverse order and is safe to call twice.
package final class LibinputContext {
    package let seat: String
    /// Device nodes libinput asked for that could not be opened, in order.
    package private(set) var openFailures: [InputSystemError] = []

    private var udev: OpaquePointer?
    private(set) var libinput: OpaquePointer?
    private var interface: UnsafeMutablePointer<libinput_interface>?
    private var user: UnsafeMutablePointer<dk_libinput_user>?
    private let log: InputLog

    /// Opens the seat. `log` receives libinput's own messages (info and above) and TouchInput's.
    package init(seat: String = "seat0", log: @escaping InputLog) throws(InputSystemError) {
        self.seat = seat
        self.log = log
        guard let udev = udev_new() else {
            throw InputSystemError(InputCall(operation: "create a udev context (udev_new)"), errno: .current)
        }
        self.udev = udev

        let interface = UnsafeMutablePointer<libinput_interface>.allocate(capacity: 1)
        interface.initialize(to: libinput_interface(open_restricted: openRestricted, close_restricted: closeRestricted))
        self.interface = interface
        let user = UnsafeMutablePointer<dk_libinput_user>.allocate(capacity: 1)
        user.initialize(to: dk_libinput_user(owner: Unmanaged.passUnretained(self).toOpaque(), log_line: logLine))
        self.user = user

        guard let li = libinput_udev_create_context(interface, user, udev) else {
            // libinput fails here only when allocating, and says nothing more.
            close()
            throw InputSystemError(operation: "create a libinput context (libinput_udev_create_context)", errno: 0)
        }
        libinput = li
        dk_libinput_route_log(li)
        libinput_log_set_priority(li, LIBINPUT_LOG_PRIORITY_INFO)
        // assign_seat opens every device already on the seat through open_restricted.
        if libinput_udev_assign_seat(li, seat) != 0 {
            // libinput reports only -1; the errno of the udev enumeration it ran is the best reason.
            let error = InputSystemError(InputCall(operation: "assign seat \(seat) (libinput_udev_assign_seat)"), errno: .current)
            close()
            throw error
        }
    }

    deinit { close() }

    /// The descriptor to poll (libinput_get_fd), or -1 once closed.
    package var fileDescriptor: Int32 {
        guard let libinput else { return -1 }
        return libinput_get_fd(libinput)
    }

    /// Reads the kernel and udev (libinput_dispatch); events then wait in `nextEvent`.
    package func dispatch() throws(InputSystemError) {
        guard let libinput else { return }
        try InputSystemError.check(InputCall(operation: "dispatch libinput events (libinput_dispatch)"),
                                   libinput_dispatch(libinput))
    }

    /// Hands each queued event to `body` and destroys it right after: `body` must copy what it needs.
    package func forEachEvent(_ body: (OpaquePointer) -> Void) {
        guard let libinput else { return }
        while let event = libinput_get_event(libinput) {
            body(event)
            libinput_event_destroy(event)
        }
    }

    /// Releases libinput (closing every device through close_restricted), then udev.
    package func close() {
        if let li = libinput {
            libinput = nil
            libinput_unref(li)
        }
        if let u = udev {
            udev = nil
            udev_unref(u)
        }
        if let user {
            self.user = nil
            user.deinitialize(count: 1)
            user.deallocate()
        }
        if let interface {
            self.interface = nil
            interface.deinitialize(count: 1)
            interface.deallocate()
        }
    }

    fileprivate func record(openFailure: InputSystemError) {
        openFailures.append(openFailure)
        log(.error, openFailure.description)
    }

    fileprivate func forward(_ priority: libinput_log_priority, _ line: String) {
        let level: InputLogLevel
        switch priority {
        case LIBINPUT_LOG_PRIORITY_ERROR: level = .error
        case LIBINPUT_LOG_PRIORITY_INFO: level = .info
        default: level = .debug
        }
        log(level, "libinput: \(line)")
    }
}

/// libinput's open_restricted: non-blocking (the poll loop never waits on a device) and
/// close-on-exec (a spawned action must not inherit the panel). Returns an fd or -errno.
private func openRestricted(path: UnsafePointer<CChar>?, flags: Int32, userData: UnsafeMutableRawPointer?) -> Int32 {
    guard let path else { return -EINVAL }
    switch Errno.retryingInterrupts({ open(path, O_RDWR | O_NONBLOCK | O_CLOEXEC) }) {
    case .success(let fd):
        // libinput owns it from here and gives it back through close_restricted.
        return fd
    case .failure(let failure):
        owner(userData)?.record(openFailure: InputSystemError(InputCall(.open, operation: String(cString: path)), errno: failure))
        return -failure.rawValue
    }
}

/// libinput's close_restricted: it gives back the descriptor openRestricted handed it.
private func closeRestricted(fd: Int32, userData: UnsafeMutableRawPointer?) {
    FileDescriptor(adopting: fd).close()
}

private func logLine(owner pointer: UnsafeMutableRawPointer?, priority: libinput_log_priority, line: UnsafePointer<CChar>?) {
    guard let pointer, let line else { return }
    Unmanaged<LibinputContext>.fromOpaque(pointer).takeUnretainedValue().forward(priority, String(cString: line))
}

private func owner(_ userData: UnsafeMutableRawPointer?) -> LibinputContext? {
    guard let user = userData?.assumingMemoryBound(to: dk_libinput_user.self), let owner = user.pointee.owner else { return nil }
    return Unmanaged<LibinputContext>.fromOpaque(owner).takeUnretainedValue()
}
