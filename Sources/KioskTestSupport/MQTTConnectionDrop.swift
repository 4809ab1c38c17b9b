import Glibc
import MQTTLink

extension MQTTConnection {
    /// Cuts the connection without DISCONNECT, as a killed process would: the socket shut down
    /// under libmosquitto, so the broker sends the last will. Only once connected (before, the
    /// descriptor polled may be a lookup thread's wake-up, not the broker's socket).
    package func dropWithoutGoodbye() {
        guard state == .connected, let fd = pollDescriptor?.fd, fd >= 0 else { return }
        Glibc.shutdown(fd, Int32(SHUT_RDWR))
    }
}
