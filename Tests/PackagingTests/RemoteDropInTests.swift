import Glibc
import Testing
import KioskTestSupport

/// examples/remote-tcp.conf, installed as a drop-in, opens exactly what a loopback TCP remote
/// view needs (Internet sockets, loopback addresses only); the unit's exposure stays at or below
/// 3.0 with every drop-in the package ships, alone and together (the figures are printed).
@Suite struct RemoteDropInTests {
    static let dropInPath = repositoryRoot + "/examples/remote-tcp.conf"

    @Test func theDropInOpensOnlyLoopback() throws {
        let settings = try #require(readFile(Self.dropInPath)).split(separator: "\n")
            .filter { !$0.hasPrefix("#") && $0.contains("=") }.map(String.init)
        #expect(settings == ["RestrictAddressFamilies=AF_INET AF_INET6", "IPAddressAllow=localhost"])
    }

    @Test func theUnitNamesTheManPages() throws {
        let lines = try #require(readFile(SystemdUnitTests.unitPath)).split(separator: "\n")
        #expect(lines.contains("Documentation=man:dialkiosk(1) man:dialkiosk.yaml(5)"))
    }

    /// The overall exposure of the unit with `dropIns` (names under examples/), and the report.
    static func exposure(_ dropIns: [String]) throws -> (Double, String) {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let unit = dir.path + "/dialkiosk.service"
        writeFile(unit, (readFile(SystemdUnitTests.unitPath) ?? "").replacingOccurrences("/usr/local/bin/dialkiosk", with: "/bin/true"))
        mkdir(unit + ".d", 0o755)
        for name in dropIns { writeFile(unit + ".d/" + name, readFile(repositoryRoot + "/examples/" + name) ?? "") }
        let result = runToCompletion(["systemd-analyze", "security", "--offline=yes", "--no-pager", unit], outputFile: dir.path + "/log")
        let line = try #require(result.output.split(separator: "\n").first { $0.contains("Overall exposure level") }, "\(result.output)")
        let figure = try #require(line.split(separator: ":").last?.split(separator: " ").first.flatMap { Double($0) })
        print("exposure with \(dropIns.isEmpty ? "no drop-in" : dropIns.joined(separator: " + ")): \(line)")
        return (figure, result.output)
    }

    @Test(.enabled(if: SystemdUnitTests.hasAnalyze)) func exposureWithEveryDropInIsAtMostThree() throws {
        for dropIns in [[], ["remote-tcp.conf"], ["mqtt.conf"], ["mqtt.conf", "remote-tcp.conf"]] {
            let (figure, report) = try Self.exposure(dropIns)
            #expect(figure <= 3.0, "\(dropIns): \(figure)")
            if dropIns.contains("remote-tcp.conf") {
                // The drop-in was read: Internet sockets allowed, to listed addresses only.
                #expect(report.contains("Service may allocate Internet sockets"), "\(report)")
                #expect(report.contains("IP address allow list"), "\(report)")
            }
        }
    }
}
