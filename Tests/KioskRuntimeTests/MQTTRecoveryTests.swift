import Foundation
import Glibc
import LinuxSystem
import MQTTLink
import Testing
@testable import KioskFeatures
import KioskTestSupport

/// What failed once at start is tried again: a password file that could not be read (at the
/// next reload), a library that could not be opened (at the next attempt). A real mosquitto.
@Suite(.serialized) struct MQTTRecoveryTests {
    @Test func aPasswordThatCouldNotBeReadIsReadAgainAtAReload() throws {
        let broker = try TestBroker()
        let missing = broker.dir.path + "/later.password"
        let kiosk = try MQTTKiosk(mqtt: section(broker).replacingOccurrences(of: broker.passwordFile, with: missing))
        try kiosk.loop.start(at: kiosk.time.now)
        try kiosk.settle(1.5)
        #expect(kiosk.service.mqtt?.connection.isConnected != true)
        #expect(kiosk.logs.contains { $0.contains("mqtt: not connecting") && $0.contains("a reload reads it again") }, "\(kiosk.logs)")
        writeFile(missing, TestBroker.password + "\n")
        _ = kiosk.service.requestReload(at: kiosk.time.now)
        let connected = try kiosk.settle(5) { kiosk.service.mqtt?.connection.isConnected == true }
        #expect(connected, "\(kiosk.logs.suffix(4))")
    }

    /// dlopen of libmosquitto refused twice (an LD_PRELOAD shim, built here with cc), as when
    /// the package is installed after the kiosk started: the third attempt loads it.
    @Test func aLibraryThatCouldNotBeOpenedIsOpenedAtALaterAttempt() throws {
        let broker = try TestBroker()
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        writeFile(dir.path + "/shim.c", """
            #define _GNU_SOURCE
            #include <dlfcn.h>
            #include <string.h>
            static int refused;
            void *dlopen(const char *file, int mode) {
                void *(*real)(const char *, int) = dlsym(RTLD_NEXT, "dlopen");
                if (file != NULL && strstr(file, "libmosquitto") != NULL && refused < 2) {
                    refused++;
                    return NULL;
                }
                return real(file, mode);
            }
            """)
        let built = runToCompletion(["cc", "-shared", "-fPIC", "-o", dir.path + "/shim.so", dir.path + "/shim.c", "-ldl"],
                                    outputFile: dir.path + "/cc.log")
        try #require(built.status == 0, "\(built.output)")
        writeFile(dir.path + "/config.yaml", "items: [{id: a, label: A}]\nmqtt:\n" + section(broker).replacingOccurrences(of: "client_id: kiosk-test", with: "client_id: dlopen-test"))
        let sub = try TestSubscriber(broker: broker, subscribe: ["dialkiosk/dlopen-test/availability"])
        let p = try startBuiltKiosk(["run", "--display", "virtual:160x120@60", "--config", dir.path + "/config.yaml", "--exit-after", "10"],
                                    stderrFile: dir.path + "/err", environment: ["LD_PRELOAD": dir.path + "/shim.so", "PATH": "/usr/bin:/bin"])
        defer { if p.isRunning { p.terminate() }; p.waitUntilExit() }
        let online = try sub.pump(until: { $0.on("dialkiosk/dlopen-test/availability").contains("online") }, seconds: 9)
        let log = readFile(dir.path + "/err") ?? ""
        #expect(log.contains("load libmosquitto.so.1"), "\(log)")
        #expect(online, "\(log)")
    }
}
