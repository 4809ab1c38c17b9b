import Glibc
import Testing
import KioskTestSupport

/// The shipped unit stays closed to the network; examples/mqtt.conf, installed as a drop-in,
/// opens exactly what MQTT needs (Internet sockets, the broker's addresses) and keeps the
/// exposure at or below 3.0.
@Suite struct MQTTDropInTests {
    static let dropInPath = repositoryRoot + "/examples/mqtt.conf"

    @Test func theDefaultUnitStaysClosed() throws {
        let lines = Set(try #require(readFile(SystemdUnitTests.unitPath)).split(separator: "\n").map(String.init))
        #expect(lines.contains("IPAddressDeny=any"))
        #expect(lines.contains("RestrictAddressFamilies=AF_UNIX AF_NETLINK"))
        #expect(!lines.contains { $0.hasPrefix("IPAddressAllow=") })
    }

    @Test func theDropInOpensOnlyWhatMQTTNeeds() throws {
        let settings = try #require(readFile(Self.dropInPath)).split(separator: "\n")
            .filter { !$0.hasPrefix("#") && $0.contains("=") }.map(String.init)
        #expect(settings == ["RestrictAddressFamilies=AF_INET AF_INET6", "IPAddressAllow=192.0.2.10",
                             "LoadCredential=mqtt-password:/etc/dialkiosk/mqtt.password"])
    }

    @Test(.enabled(if: SystemdUnitTests.hasAnalyze)) func exposureWithTheDropInIsAtMostThree() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let unit = dir.path + "/dialkiosk.service"
        writeFile(unit, (readFile(SystemdUnitTests.unitPath) ?? "").replacingOccurrences("/usr/local/bin/dialkiosk", with: "/bin/true"))
        mkdir(unit + ".d", 0o755)
        writeFile(unit + ".d/mqtt.conf", readFile(Self.dropInPath) ?? "")
        let result = runToCompletion(["systemd-analyze", "security", "--offline=yes", "--no-pager", unit], outputFile: dir.path + "/log")
        // The drop-in was read: Internet sockets are now allowed, and only to listed addresses.
        #expect(result.output.contains("Service may allocate Internet sockets"), "\(result.output)")
        #expect(result.output.contains("IP address allow list"), "\(result.output)")
        let line = try #require(result.output.split(separator: "\n").first { $0.contains("Overall exposure level") })
        let figure = try #require(line.split(separator: ":").last?.split(separator: " ").first.flatMap { Double($0) })
        print("mqtt drop-in: \(line)")
        #expect(figure <= 3.0, "\(line)")
    }
}
