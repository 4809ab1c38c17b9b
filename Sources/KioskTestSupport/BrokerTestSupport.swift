import Glibc
import LinuxSystem
import MQTTLink

/// A real Debian `mosquitto` on loopback ports for one test: a password file (user `kiosk`,
/// password `s3cret`), a plain listener and a TLS one with a certificate made by openssl.
package final class TestBroker {
    package static let user = "kiosk"
    package static let password = "s3cret"
    package let dir = TemporaryDirectory()
    package let port: Int
    package let tlsPort: Int
    package private(set) var pid: pid_t = 0
    package var caFile: String { dir.path + "/cert.pem" }
    package var passwordFile: String { dir.path + "/kiosk.password" }

    /// How mosquitto is started (the host's, or `sessionTakeoverBroker`).
    private let program: [String]

    package init(program: [String] = ["mosquitto"]) throws {
        self.program = program
        port = TestBroker.freePort()
        tlsPort = TestBroker.freePort()
        // Readable by the mosquitto user the broker drops to (VM-NOTES).
        chmod(dir.path, 0o755)
        let made = runToCompletion(["mosquitto_passwd", "-b", "-c", dir.path + "/passwd", Self.user, Self.password],
                                   outputFile: dir.path + "/passwd.log")
        guard made.status == 0 else { throw BrokerError("mosquitto_passwd: \(made.output)") }
        chmod(dir.path + "/passwd", 0o644)
        let cert = runToCompletion(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2",
                                    "-keyout", dir.path + "/key.pem", "-out", caFile, "-subj", "/CN=localhost",
                                    "-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1"],
                                   outputFile: dir.path + "/openssl.log")
        guard cert.status == 0 else { throw BrokerError("openssl: \(cert.output)") }
        chmod(dir.path + "/key.pem", 0o644)
        writeFile(passwordFile, Self.password + "\n")
        writeFile(dir.path + "/mosquitto.conf", """
            persistence false
            allow_anonymous false
            password_file \(dir.path)/passwd
            log_dest file \(dir.path)/broker.log
            log_type all
            max_queued_messages 0
            listener \(port) 127.0.0.1
            listener \(tlsPort) 127.0.0.1
            certfile \(caFile)
            keyfile \(dir.path)/key.pem

            """)
        try start()
    }

    deinit {
        stop()
        dir.remove()
    }

    /// Starts mosquitto and waits (bounded) until its plain port accepts.
    package func start() throws {
        guard let started = spawnBackground(program + ["-c", dir.path + "/mosquitto.conf"], output: dir.path + "/stdout.log", append: true) else {
            throw BrokerError("cannot start mosquitto")
        }
        pid = started
        for _ in 0..<500 {
            if Self.accepts(port) && Self.accepts(tlsPort) { return }
            usleep(10_000)
        }
        throw BrokerError("mosquitto did not listen on \(port): \(readFile(dir.path + "/stdout.log") ?? "")")
    }

    /// SIGKILL-free stop: SIGTERM and wait.
    package func stop() {
        guard pid > 0 else { return }
        kill(pid, SIGTERM)
        var status: Int32 = 0
        for _ in 0..<300 where waitpid(pid, &status, WNOHANG) == 0 { usleep(10_000) }
        if waitpid(pid, &status, WNOHANG) == 0 {
            kill(pid, SIGKILL)
            while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        }
        pid = 0
    }

    package var log: String { readFile(dir.path + "/broker.log") ?? "" }

    /// A mosquitto that tells an MQTT 5 client its session was taken over (DISCONNECT with
    /// reason 0x8E; mosquitto 2.0.15 and later: Debian 12's 2.0.11 closes the connection without
    /// a word): the host's when it is new enough, else Debian 13's from the packaging cache's
    /// build root, run with that root's loader and libraries (nothing in the root is changed);
    /// nil when there is neither.
    package static let sessionTakeoverBroker: [String]? = {
        let probe = TemporaryDirectory()
        defer { probe.remove() }
        let host = runToCompletion(["mosquitto", "-h"], outputFile: probe.path + "/version")
        if let version = host.output.split(separator: "\n").first?.split(separator: " ").last,
           isAtLeast(String(version), [2, 0, 15]) { return ["mosquitto"] }
        let cache = "/var/cache/dialkiosk-pkg"
        guard let folder = opendir(cache) else { return nil }
        var names: [String] = []
        while let entry = readdir(folder) {
            names.append(withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) })
        }
        closedir(folder)
        for name in names.sorted() where name.hasPrefix("root-") && !name.hasSuffix(".lock") && !name.hasSuffix(".log") {
            let root = cache + "/" + name
            let loader = root + "/lib64/ld-linux-x86-64.so.2", broker = root + "/usr/sbin/mosquitto"
            guard access(loader, X_OK) == 0, access(broker, X_OK) == 0 else { continue }
            return [loader, "--library-path", root + "/usr/lib/x86_64-linux-gnu", broker]
        }
        return nil
    }()

    /// Whether "2.0.21" is at least `least`.
    static func isAtLeast(_ version: String, _ least: [Int]) -> Bool {
        let parts = version.split(separator: ".").map { Int($0) ?? 0 }
        for (i, want) in least.enumerated() {
            let have = i < parts.count ? parts[i] : 0
            if have != want { return have > want }
        }
        return true
    }

    package static func freePort() -> Int {
        let (fd, port) = boundLoopbackSocket()
        close(fd)
        return port
    }

    /// A TCP socket bound to 127.0.0.1 on a port the kernel chose, and that port.
    package static func boundLoopbackSocket() -> (fd: Int32, port: Int) {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length); return getsockname(fd, $0, &length) }
        }
        return (fd, Int(UInt16(bigEndian: address.sin_port)))
    }

    package static func accepts(_ port: Int) -> Bool {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        } == 0
    }
}

package struct BrokerError: Error, CustomStringConvertible {
    package var description: String
    package init(_ description: String) { self.description = description }
}

/// A plain MQTT client for the tests (libmosquitto through MQTTLink's wrapper, its own poll).
package final class TestSubscriber {
    package let client: MosquittoClient
    package private(set) var messages: [MQTTMessage] = []
    package private(set) var connected = false

    package init(broker: TestBroker, id: String = "test-subscriber", subscribe patterns: [String]) throws {
        client = try MosquittoClient(clientID: id)
        try client.setCredentials(username: TestBroker.user, password: TestBroker.password)
        try client.connectAsync(host: "127.0.0.1", port: broker.port, keepalive: 60)
        try pump(until: { $0.connected }, seconds: 5)
        for p in patterns { try client.subscribe(p, qos: 1) }
        try pump(seconds: 0.2)
    }

    /// Polls the client's socket for at most `seconds`, until `done` holds.
    @discardableResult
    package func pump(until done: (TestSubscriber) -> Bool = { _ in false }, seconds: Double) throws -> Bool {
        let end = monotonicNow() + seconds
        while monotonicNow() < end {
            if done(self) { return true }
            try step(timeoutMS: 10)
        }
        return done(self)
    }

    package func step(timeoutMS: Int32) throws {
        guard let fd = client.socket else { return }
        var p = [pollfd(fd: fd, events: Int16(POLLIN) | (client.wantsWrite ? Int16(POLLOUT) : 0), revents: 0)]
        _ = poll(&p, 1, timeoutMS)
        if p[0].revents & Int16(POLLIN | POLLHUP | POLLERR) != 0 {
            for _ in 0..<256 { try client.loopRead(maxPackets: 1); if !hasMoreInput(fd) { break } }
        }
        if client.wantsWrite { try client.loopWrite() }
        try client.loopMisc()
        for event in client.takeEvents() {
            switch event {
            case .connected(let code, _): connected = code == 0
            case .message(let m): messages.append(m)
            default: break
            }
        }
    }

    private func hasMoreInput(_ fd: Int32) -> Bool {
        var p = [pollfd(fd: fd, events: Int16(POLLIN), revents: 0)]
        return poll(&p, 1, 0) > 0
    }

    package func on(_ topic: String) -> [String] { messages.filter { $0.topic == topic }.map(\.text) }

    package func publish(_ topic: String, _ payload: String, qos: Int32 = 0) throws {
        try client.publish(topic: topic, payload: payload, qos: qos, retain: false)
    }
}
