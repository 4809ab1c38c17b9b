import Glibc
import LinuxSystem
import Testing
@testable import KioskReporting
@testable import KioskConfiguration
@testable import KioskFeatures

/// The optional parts' problem list: one line per part, told once per new reason, gone when the
/// part works again; `<base>/state` carries it only while there is one.
@Suite struct PartProblemsTests {
    @Test func eachPartHasOneLineToldOncePerReason() {
        var problems = PartProblems()
        let first = problems.set(.presence, "no input device \"pir\"")
        let again = problems.set(.presence, "no input device \"pir\"")
        let remote = problems.set(.remote, "port taken")
        #expect(first && !again && remote, "the same reason again tells nothing")
        #expect(problems.lines == ["remote: port taken", "presence: no input device \"pir\""], "in the parts' order")
        let cleared = problems.set(.remote, nil)
        let clearedAgain = problems.set(.remote, nil)
        #expect(cleared && !clearedAgain)
        #expect(problems.lines == ["presence: no input device \"pir\""])
    }

    @Test func theServiceLogsAFailureOnceAndTheStateCarriesIt() throws {
        final class Lines { var all: [String] = [] }
        let logs = Lines()
        let logger = JournalLogger(format: LogFormat(journalPrefixes: false)) { logs.all.append($0) }
        let config = try ConfigParser.parse("items: [{id: a}]\n", file: "k.yaml")
        let service = try LegacyService(config: config, configPath: nil, controlPath: nil, environment: [:], logger: logger,
                                       eventsFD: -1, now: 0)
        defer { service.stop(reason: "test", now: .nan) }
        service.partFailed(.remote, "Failed to bind: Address already in use")
        service.partFailed(.remote, "Failed to bind: Address already in use")
        #expect(logs.all.filter { $0.contains("remote: Failed to bind: Address already in use; the dial runs on without it") }.count == 1,
                "\(logs.all)")
        var state = MQTTState(path: nil, menu: config.menu, screen: .on, brightness: 100)
        #expect(!state.line.text.contains("problems"), "no problems, no key")
        state.problems = service.problems.lines
        #expect(state.line.text.hasSuffix("\"problems\": [\"remote: Failed to bind: Address already in use\"]}"), "\(state.line.text)")
        service.partRecovered(.remote)
        #expect(service.problems.lines.isEmpty)
    }

    @Test func theSandboxsRefusalsNameTheDropIn() {
        let family = SandboxRefusal.hint(errno: EAFNOSUPPORT, dropIn: "remote-tcp.conf")
        #expect(family?.contains("RestrictAddressFamilies=") == true && family?.contains("examples/remote-tcp.conf") == true)
        let address = SandboxRefusal.hint(errno: EPERM, dropIn: "mqtt.conf")
        #expect(address?.contains("IPAddressDeny=any") == true && address?.contains("dialkiosk.service.d/mqtt.conf") == true)
        #expect(SandboxRefusal.hint(errno: ECONNREFUSED, dropIn: "mqtt.conf") == nil, "a broker that is down is no sandbox's doing")
    }
}
