import Foundation
import Glibc
import LinuxSystem
import MQTTLink
import Testing
@testable import KioskFeatures
import KioskTestSupport

/// An optional part that cannot start never takes the dial down: the built kiosk with a remote
/// view whose port another program holds, or whose address family the sandbox refuses (an
/// LD_PRELOAD shim gives socket(2) the EAFNOSUPPORT systemd's RestrictAddressFamilies= gives),
/// a presence sensor and an HDMI-CEC adapter that do not exist. It runs to --exit-after with
/// status 0, logs each failure once with what to change, and a real mosquitto gets the
/// failures in `<base>/state`'s `problems`.
@Suite(.serialized) struct OptionalPartsTests {
    struct Run {
        var status: Int32
        var log: String
        var states: [String]
    }

    /// Runs the kiosk for 4 s with `remote` as its remote view's section, `environment` added.
    func run(remote: String, clientID: String, environment: [String: String] = [:]) throws -> Run {
        let broker = try TestBroker()
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        writeFile(dir.path + "/config.yaml", """
            items: [{id: a, label: A}, {id: b, label: B}]
            power:
              cec: /dev/cec99
              presence: {device: \(dir.path)/presence-missing}
            remote: \(remote)
            mqtt:

            """ + section(broker).replacingOccurrences(of: "client_id: kiosk-test", with: "client_id: \(clientID)"))
        let state = "dialkiosk/\(clientID)/state"
        let sub = try TestSubscriber(broker: broker, subscribe: [state])
        let p = try startBuiltKiosk(["run", "--display", "virtual:160x120@60", "--config", dir.path + "/config.yaml", "--exit-after", "4"],
                                    stderrFile: dir.path + "/err", environment: environment.merging(["PATH": "/usr/bin:/bin"]) { a, _ in a })
        defer { if p.isRunning { p.terminate() } }
        _ = try sub.pump(until: { $0.on(state).last?.contains("remote: ") == true }, seconds: 8)
        p.waitUntilExit()
        return Run(status: p.terminationStatus, log: readFile(dir.path + "/err") ?? "", states: sub.on(state))
    }

    func lines(_ log: String, containing text: String) -> Int {
        log.split(separator: "\n").filter { $0.contains(text) }.count
    }

    @Test func aRemoteViewOnATakenPortLeavesTheDialRunningAndTellsWhy() throws {
        // Another program listens on the port first.
        let port = TestBroker.freePort()
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        try #require(bound == 0 && listen(fd, 1) == 0)

        let result = try run(remote: "{listen: \"127.0.0.1:\(port)\", input: false}", clientID: "parts-port")
        #expect(result.status == 0, "the dial ran to --exit-after: \(result.log)")
        #expect(lines(result.log, containing: "remote: Failed to bind the remote view to 127.0.0.1:\(port): Address already in use; "
                      + "another program listens there") == 1, "\(result.log)")
        let last = try #require(result.states.last, "no state on the broker: \(result.log)")
        #expect(last.contains("\"problems\": [\"remote: Failed to bind the remote view"), "\(last)")
        // The other optional parts that are missing are listed too, in the parts' order.
        #expect(last.contains("\", \"cec: "), "\(last)")
        #expect(last.contains("\", \"presence: no input device"), "\(last)")
    }

    /// An LD_PRELOAD shim whose socket(2) refuses `family` (AF_INET, AF_INET6) with EAFNOSUPPORT,
    /// as the unit's seccomp filter does.
    static func refusingShim(_ family: String, in dir: TemporaryDirectory) throws -> String {
        writeFile(dir.path + "/shim.c", """
            #define _GNU_SOURCE
            #include <dlfcn.h>
            #include <errno.h>
            #include <sys/socket.h>
            int socket(int domain, int type, int protocol) {
                int (*real)(int, int, int) = dlsym(RTLD_NEXT, "socket");
                if (domain == \(family)) { errno = EAFNOSUPPORT; return -1; }
                return real(domain, type, protocol);
            }
            """)
        let built = runToCompletion(["cc", "-shared", "-fPIC", "-o", dir.path + "/shim.so", dir.path + "/shim.c", "-ldl"],
                                    outputFile: dir.path + "/cc.log")
        try #require(built.status == 0, "\(built.output)")
        return dir.path + "/shim.so"
    }

    /// socket(AF_INET6) refused as the unit's seccomp filter refuses it; IPv4 (the broker) works.
    @Test func aRefusedAddressFamilyNamesTheDropIn() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let shim = try Self.refusingShim("AF_INET6", in: dir)
        let port = TestBroker.freePort()
        let result = try run(remote: "{listen: \"[::1]:\(port)\"}", clientID: "parts-family",
                             environment: ["LD_PRELOAD": shim])
        #expect(result.status == 0, "the dial ran to --exit-after: \(result.log)")
        #expect(lines(result.log, containing: "Address family not supported by protocol; the unit's RestrictAddressFamilies= forbids "
                      + "AF_INET and AF_INET6: install the drop-in /usr/share/doc/dialkiosk/examples/remote-tcp.conf as "
                      + "/etc/systemd/system/dialkiosk.service.d/remote-tcp.conf") == 1, "\(result.log)")
        #expect(result.states.last?.contains("remote-tcp.conf") == true, "\(result.states)")
    }

    /// MQTT refused by the sandbox (AF_INET too): the dial runs, the journal names mqtt.conf.
    @Test func aRefusedBrokerConnectionNamesTheMQTTDropIn() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let shim = try Self.refusingShim("AF_INET", in: dir)
        writeFile(dir.path + "/config.yaml", "items: [{id: a, label: A}]\nmqtt: {host: 127.0.0.1, port: \(TestBroker.freePort()), client_id: parts-mqtt}\n")
        let p = try startBuiltKiosk(["run", "--display", "virtual:160x120@60", "--config", dir.path + "/config.yaml", "--exit-after", "3"],
                                    stderrFile: dir.path + "/err", environment: ["LD_PRELOAD": shim, "PATH": "/usr/bin:/bin"])
        p.waitUntilExit()
        let log = readFile(dir.path + "/err") ?? ""
        #expect(p.terminationStatus == 0, "\(log)")
        #expect(log.contains("mqtt: cannot connect to 127.0.0.1:") && log.contains("Address family not supported by protocol (the unit's "
                + "RestrictAddressFamilies= forbids AF_INET and AF_INET6: install the drop-in /usr/share/doc/dialkiosk/examples/mqtt.conf"),
                "\(log)")
    }
}
