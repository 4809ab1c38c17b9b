import Foundation
import Glibc
import LinuxSystem
import Testing
import KioskTestSupport

/// A broker given by name: its lookup (getaddrinfo inside mosquitto_connect_async) waits on DNS
/// and must not hold the frame loop. `dialkiosk run` on the virtual display with a real
/// mosquitto; a getaddrinfo shim (LD_PRELOAD, built here with cc) makes one name take 4 s to
/// answer, as a DNS server that does not answer does. The loop's stand-still is the longest
/// answer to a control-socket command sent every 20 ms.
@Suite(.serialized) struct MQTTLookupTests {
    static let shim = """
        #define _GNU_SOURCE
        #include <dlfcn.h>
        #include <netdb.h>
        #include <string.h>
        #include <unistd.h>
        int getaddrinfo(const char *node, const char *service, const struct addrinfo *hints, struct addrinfo **res) {
            int (*real)(const char *, const char *, const struct addrinfo *, struct addrinfo **) = dlsym(RTLD_NEXT, "getaddrinfo");
            if (node != NULL && strcmp(node, "slow-dns.test") == 0) {
                sleep(4);
                node = "127.0.0.1";
            }
            return real(node, service, hints, res);
        }
        """

    @Test func aBrokerGivenByANameSlowToResolveNeverHoldsTheLoop() throws {
        let broker = try TestBroker()
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        writeFile(dir.path + "/shim.c", Self.shim)
        let built = runToCompletion(["cc", "-shared", "-fPIC", "-o", dir.path + "/shim.so", dir.path + "/shim.c", "-ldl"],
                                    outputFile: dir.path + "/cc.log")
        try #require(built.status == 0, "\(built.output)")
        writeFile(dir.path + "/config.yaml", """
            items: [{id: a, label: A}, {id: b, label: B}]
            mqtt:
              host: slow-dns.test
              port: \(broker.port)
              username: \(TestBroker.user)
              password_file: \(broker.passwordFile)
              client_id: lookup-test

            """)
        let sub = try TestSubscriber(broker: broker, subscribe: ["dialkiosk/lookup-test/availability"])
        let p = try startBuiltKiosk(["run", "--display", "virtual:160x120@60", "--config", dir.path + "/config.yaml",
                                     "--control", dir.path + "/ctl", "--exit-after", "9"],
                                    stderrFile: dir.path + "/err", environment: ["LD_PRELOAD": dir.path + "/shim.so", "PATH": "/usr/bin:/bin"])
        defer { if p.isRunning { p.terminate() }; p.waitUntilExit() }
        // The socket is made before the loop's first turn (and its first MQTT attempt).
        var fd: Int32 = -1
        for _ in 0..<500 where fd < 0 {
            fd = connectStream(dir.path + "/ctl")
            if fd < 0 { usleep(10_000) }
        }
        try #require(fd >= 0, "\(readFile(dir.path + "/err") ?? "")")
        defer { close(fd) }
        var longest = 0.0, answered = 0
        let end = monotonicNow() + 6
        while monotonicNow() < end {
            let sent = monotonicNow()
            writeAll(fd, "nop\n")
            var reply = ""
            while !reply.contains("\n"), monotonicNow() - sent < 8 {
                var p = [pollfd(fd: fd, events: Int16(POLLIN), revents: 0)]
                _ = poll(&p, 1, 50)
                reply += readAvailable(fd)
            }
            if reply.contains("\n") { answered += 1 }
            longest = max(longest, monotonicNow() - sent)
            usleep(20_000)
        }
        let online = try sub.pump(until: { $0.on("dialkiosk/lookup-test/availability").contains("online") }, seconds: 3)
        print("broker by a name answered in 4 s: longest control answer \(Int(longest * 1000)) ms over \(answered) commands; online: \(online)")
        #expect(answered > 20)
        #expect(longest < 1.0, "the loop stood still \(longest) s")
        #expect(online, "\(readFile(dir.path + "/err") ?? "")")
    }
}
