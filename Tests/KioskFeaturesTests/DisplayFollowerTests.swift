import Glibc
import Testing
@testable import KioskReporting
@testable import KioskConfiguration
@testable import KioskLoop
@testable import KioskFeatures

/// The display behind the output (an HDMI-CEC TV) as the service and the screen owner see it:
/// told dark and lit as the glass changes (dim counts as lit), and a TV that does not follow
/// reported as a `power` event with reason `failed`, once, then the real reason again.
@Suite struct DisplayFollowerTests {
    final class Told: @unchecked Sendable { var values: [Bool] = [] }

    @Test func theFollowerHearsDarkAndLitAndAFailureIsAPowerEvent() throws {
        let config = try ConfigParser.parse("power:\n  cec: true\n", file: "k.yaml")
        var fds: [Int32] = [-1, -1]
        _ = pipe(&fds)
        defer { close(fds[0]); close(fds[1]) }
        _ = fcntl(fds[0], F_SETFL, O_NONBLOCK)
        let logger = JournalLogger(format: LogFormat(journalPrefixes: false)) { _ in }
        let service = try LegacyService(config: config, configPath: nil, controlPath: nil, environment: [:], logger: logger,
                                       eventsFD: fds[1], now: 0)
        defer { service.stop(reason: "test", now: .nan) }
        let power = ScreenPower.painted()
        let told = Told()
        power.follower = { told.values.append($0) }
        service.attach(screen: power)
        service.started(now: 0)
        _ = service.setScreen(.dim, now: 1)
        _ = service.setScreen(.off, now: 2)
        _ = service.setScreen(.off, now: 3)
        _ = service.setScreen(.on, now: 4)
        #expect(told.values == [false, true], "dim is lit for the TV; off once, on once")
        _ = service.setScreen(.off, now: 5)
        service.displayFailed("cec: Standby was not acknowledged", now: 5.2)
        service.displayFollowed(now: 9)
        _ = service.setScreen(.on, now: 10)
        #expect(service.displayStandby(now: 11) == [.repaint])
        var buffer = [UInt8](repeating: 0, count: 65536)
        let n = read(fds[0], &buffer, buffer.count)
        let lines = String(decoding: buffer[0..<max(n, 0)], as: UTF8.self).split(separator: "\n").filter { $0.contains("\"power\"") }
        #expect(lines.contains { $0.contains("\"state\": \"off\", \"reason\": \"failed\", \"detail\": \"cec: Standby was not acknowledged\"") },
                "\(lines)")
        // After the TV follows again the state is told with its own reason.
        let last = lines.last { $0.contains("\"t\": 9") }
        #expect(last?.contains("\"reason\": \"requested\"") == true, "\(lines)")
        #expect(power.state == (.off, .requested))
        #expect(lines.last?.contains("\"state\": \"off\", \"reason\": \"requested\", \"detail\": \"cec: Standby from the TV\"") == true,
                "\(lines)")
    }
}
