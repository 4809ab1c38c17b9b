import Glibc
import KioskFeatures

/// `fd` as poll would return it with `events` ready (POLLIN unless told).
package func readyDescriptor(_ fd: Int32, _ events: Int32 = POLLIN) -> pollfd {
    pollfd(fd: fd, events: Int16(events), revents: Int16(events))
}

/// A control server on a socket in a fresh temporary directory with one client connected and
/// accepted (the listening socket served once at time 0): `body` gets the server and the
/// client's descriptor; after it both are closed and the directory removed.
package func withControlClient(_ body: (ControlServer, _ client: Int32) throws -> Void) throws {
    let dir = TemporaryDirectory()
    defer { dir.remove() }
    let server = try ControlServer(path: dir.path + "/control.sock", logger: nil)
    defer { server.close() }
    let client = connectStream(server.path)
    defer { close(client) }
    _ = server.handle(readyDescriptor(server.listeningDescriptor), now: 0)
    try body(server, client)
}
