import Glibc
import Testing

/// The shipped unit: `systemd-analyze verify` accepts it, its exposure stays at or below 3.0
/// (issue 7), and the directives the service relies on are present.
@Suite struct SystemdUnitTests {
    static let unitPath = repositoryRoot + "/systemd/dialkiosk.service"
    static let hasAnalyze = access("/usr/bin/systemd-analyze", X_OK) == 0

    /// A copy whose ExecStart names an executable that exists here (verify checks it).
    private func runnableCopy(in dir: TemporaryDirectory) -> String {
        let text = readFile(Self.unitPath) ?? ""
        let copy = dir.path + "/dialkiosk.service"
        writeFile(copy, text.replacingOccurrences("/usr/local/bin/dialkiosk", with: "/bin/true"))
        return copy
    }

    @Test(.enabled(if: hasAnalyze)) func verifyPasses() {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let result = runToCompletion(["systemd-analyze", "verify", runnableCopy(in: dir)], outputFile: dir.path + "/log")
        #expect(result.status == 0, "\(result.output)")
        #expect(result.output.isEmpty, "\(result.output)")
    }

    @Test(.enabled(if: hasAnalyze)) func exposureIsAtMostThree() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let result = runToCompletion(["systemd-analyze", "security", "--offline=yes", "--no-pager", runnableCopy(in: dir)],
                                     outputFile: dir.path + "/log")
        let line = try #require(result.output.split(separator: "\n").first { $0.contains("Overall exposure level") })
        let figure = try #require(line.split(separator: ":").last?.split(separator: " ").first.flatMap { Double($0) })
        #expect(figure <= 3.0, "\(line)")
    }

    @Test func directivesTheServiceReliesOn() throws {
        let text = try #require(readFile(Self.unitPath))
        let lines = Set(text.split(separator: "\n").map(String.init))
        for required in ["Type=notify", "NotifyAccess=main", "RestartPreventExitStatus=64 66 78", "Restart=always",
                         "ExecReload=/bin/kill -HUP $MAINPID", "User=dialkiosk", "Conflicts=getty@tty1.service",
                         "TTYPath=/dev/tty1", "DeviceAllow=char-drm rw", "DeviceAllow=char-input rw",
                         "RestrictAddressFamilies=AF_UNIX AF_NETLINK", "StandardOutput=journal", "NoNewPrivileges=yes",
                         "CapabilityBoundingSet=", "ProtectSystem=strict"] {
            #expect(lines.contains(required), "missing \(required)")
        }
        #expect(lines.contains { $0.hasPrefix("WatchdogSec=") })
        // Devices must stay reachable.
        #expect(!lines.contains("PrivateDevices=yes"))
        #expect(!lines.contains("PrivateNetwork=yes"))
    }

    @Test func sysusersPutsTheUserInTheDeviceGroups() throws {
        let text = try #require(readFile(repositoryRoot + "/systemd/dialkiosk.conf"))
        let entries = text.split(separator: "\n").filter { !$0.hasPrefix("#") }.map { $0.split(separator: " ").prefix(3).joined(separator: " ") }
        #expect(entries == ["u dialkiosk -", "m dialkiosk video", "m dialkiosk input", "m dialkiosk tty"])
    }
}

extension String {
    func replacingOccurrences(_ target: String, with replacement: String) -> String {
        split(separator: target, omittingEmptySubsequences: false).joined(separator: replacement)
    }
}
