import DialCore
import Glibc
import Testing
@testable import KioskConfiguration
@testable import KioskLoop
@testable import KioskFeatures
@testable import KioskReporting
@testable import TouchInput
import KioskTestSupport

/// The presence sensor: its key wakes a dark screen and nothing else; a missing or unplugged
/// device is said once and looked for again (a FIFO stands in for the event node here; the
/// reader reads the same 24-byte `struct input_event`s from it).
@Suite struct PresenceTests {
    /// One `struct input_event` (64-bit layout).
    static func event(type: UInt16, code: UInt16, value: Int32) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: 24)
        bytes.withUnsafeMutableBytes { raw in
            raw.storeBytes(of: type, toByteOffset: 16, as: UInt16.self)
            raw.storeBytes(of: code, toByteOffset: 18, as: UInt16.self)
            raw.storeBytes(of: value, toByteOffset: 20, as: Int32.self)
        }
        return bytes
    }

    @Test func aMissingDeviceIsRetriedAndOnlyItsKeyPressesCount() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let path = dir.path + "/presence"
        var log: [String] = []
        let sensor = PresenceSensor(device: path, key: 143) { log.append($0) }
        #expect(sensor.serve(now: 0) == 0)
        #expect(sensor.wakeUp(now: 0) == 5)
        #expect(sensor.serve(now: 1) == 0)
        #expect(log.count == 1 && log[0].contains("trying again every 5 s"), "\(log)")
        // Plugged in: found at the next retry.
        #expect(mkfifo(path, 0o600) == 0)
        let writer = open(path, O_RDWR | O_NONBLOCK)
        #expect(writer >= 0)
        #expect(sensor.serve(now: 5) == 0)
        #expect(sensor.pollDescriptor >= 0)
        #expect(sensor.wakeUp(now: 5) == nil, "nothing polls while the device is there")
        // KEY_WAKEUP down and up, KEY_A down, a sync: one press.
        let bytes = Self.event(type: 1, code: 143, value: 1) + Self.event(type: 1, code: 143, value: 0)
            + Self.event(type: 1, code: 30, value: 1) + Self.event(type: 0, code: 0, value: 0)
        #expect(bytes.withUnsafeBytes { write(writer, $0.baseAddress, $0.count) } == 96)
        #expect(sensor.serve(now: 6) == 1)
        // Unplugged: said once, looked for again.
        close(writer)
        unlink(path)
        #expect(sensor.serve(now: 7) == 0)
        #expect(sensor.pollDescriptor == -1)
        #expect(sensor.wakeUp(now: 7) == 12)
        #expect(log.last?.contains("went away") == true, "\(log)")
    }

    @Test func theKeyWakesADarkScreenButNotOneSwitchedOffOnRequest() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let config = try ConfigParser.parse("behaviour: {idle: blank, idle_after_minutes: 1}\n"
                                            + "power: {presence: {device: /dev/input/by-id/pir, key: KEY_WAKEUP}}\n", file: "k.yaml")
        #expect(config.power.presence == PowerSettings.Presence(device: "/dev/input/by-id/pir", key: 143))
        var fds: [Int32] = [-1, -1]
        _ = pipe(&fds)
        defer { close(fds[0]); close(fds[1]) }
        let logger = JournalLogger(format: LogFormat(journalPrefixes: false)) { _ in }
        let service = try LegacyService(config: config, configPath: nil, controlPath: nil, environment: [:], logger: logger,
                                       eventsFD: fds[1], now: 0)
        defer { service.stop(reason: "test", now: .nan) }
        let power = ScreenPower.painted()
        service.attach(screen: power)
        #expect(service.presence(now: 1).isEmpty, "a lit screen: nothing to do")
        #expect(service.tick(now: 61) == [.repaint])
        #expect(power.state == (.off, .idle))
        #expect(service.presence(now: 70) == [.repaint])
        #expect(power.state == (.on, .presence))
        #expect(service.tick(now: 129).isEmpty, "the idle time starts again at the presence")
        #expect(service.setScreen(.off, now: 140) == [.repaint])
        #expect(service.presence(now: 150).isEmpty)
        #expect(power.state == (.off, .requested))
    }

    @Test func badPresenceSettingsAreLocated() {
        #expect(throws: ConfigError.self) { try ConfigParser.parse("power: {presence: {key: KEY_WAKEUP}}\n", file: "k.yaml") }
        do {
            _ = try ConfigParser.parse("power:\n  presence: {device: pir, key: KEY_NOPE}\n", file: "k.yaml")
            Issue.record("accepted")
        } catch let error as ConfigError {
            #expect(error.line == 2 && error.key == "power.presence.key", "\(error)")
        } catch {
            Issue.record("\(error)")
        }
    }
}
